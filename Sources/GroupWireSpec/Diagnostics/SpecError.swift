/// A fatal problem that stops spec compilation: the entry file cannot be read, a limit
/// was hit, or a caller asked for a checked model from a spec that has errors.
///
/// Ordinary spec mistakes are ``Diagnostic`` values, not thrown errors.
public struct SpecError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The class of problem; compare with `==`.
    public struct Kind: Sendable, Hashable, CustomStringConvertible {
        /// The stable name.
        public let name: String
        private init(_ name: String) { self.name = name }
        /// The stable name.
        public var description: String { name }

        /// A spec file could not be read.
        public static let unreadable = Kind("unreadable")
        /// A configured ``SpecLimits`` value was exceeded.
        public static let limitExceeded = Kind("limitExceeded")
        /// The spec has error diagnostics (listed in ``SpecError/diagnostics``).
        public static let invalidSpec = Kind("invalidSpec")
    }

    /// What went wrong.
    public let kind: Kind
    /// Where, when a location applies.
    public let location: SourceLocation?
    /// A human-readable explanation.
    public let context: String
    /// The error diagnostics, for ``Kind/invalidSpec``.
    public let diagnostics: [Diagnostic]

    /// Creates an error.
    /// - Parameters:
    ///   - kind: the class of problem.
    ///   - location: where, if known.
    ///   - context: what happened.
    ///   - diagnostics: the diagnostics that caused it.
    public init(_ kind: Kind, at location: SourceLocation? = nil, _ context: String, diagnostics: [Diagnostic] = []) {
        self.kind = kind
        self.location = location
        self.context = context
        self.diagnostics = diagnostics
    }

    /// `file:line:col: error: context`, or `error: context` without a location.
    public var description: String {
        if let location { return "\(location): error: \(context)" }
        return "error: \(context)"
    }
}
