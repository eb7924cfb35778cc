/// A literal as written in a field default, before it is checked against the field's type.
public struct Literal: Sendable, Hashable, CustomStringConvertible {
    /// What kind of literal the source spelled.
    public enum Kind: Sendable, Hashable {
        /// An integer: decimal or `0x` hex, with an optional leading `-`.
        /// `magnitude` is `nil` when the digits do not fit 64 bits.
        case integer(negative: Bool, magnitude: UInt64?)
        /// A decimal floating-point number such as `1.5`, `-0.25` or `1e-3`.
        case float(Double)
        /// A double-quoted string, escapes already decoded.
        case string(String)
        /// `true` or `false`.
        case bool(Bool)
        /// A bare identifier: an enum case name.
        case identifier(String)
    }

    /// The decoded literal.
    public var kind: Kind
    /// The literal's source spelling (used in diagnostics).
    public var text: String
    /// Where the literal starts.
    public var location: SourceLocation

    /// Creates a literal.
    /// - Parameters:
    ///   - kind: the decoded literal.
    ///   - text: the source spelling.
    ///   - location: where it starts.
    public init(kind: Kind, text: String, location: SourceLocation) {
        self.kind = kind
        self.text = text
        self.location = location
    }

    /// The source spelling.
    public var description: String { text }
}
