/// A `reserved` line: numbers and names that no field or case of the declaration may use.
///
/// `reserved 4, 8...10, "thickness"` reserves the numbers 4, 8, 9, 10 and the name
/// `thickness`. Reserve what you remove so later versions cannot reuse it by accident.
public struct ReservedDecl: Sendable, Hashable {
    /// The reserved number ranges (a single number is a one-element range).
    public var numberRanges: [ClosedRange<UInt64>]
    /// The reserved names.
    public var names: [String]
    /// Where the `reserved` keyword is.
    public var location: SourceLocation

    /// Creates a reserved line.
    /// - Parameters:
    ///   - numberRanges: the reserved number ranges.
    ///   - names: the reserved names.
    ///   - location: where the keyword is.
    public init(numberRanges: [ClosedRange<UInt64>], names: [String], location: SourceLocation) {
        self.numberRanges = numberRanges
        self.names = names
        self.location = location
    }

    /// Whether `number` lies in one of the ranges.
    public func contains(number: UInt64) -> Bool {
        numberRanges.contains { $0.contains(number) }
    }
}

extension Array where Element == ReservedDecl {
    /// Whether any reserved line reserves `number`.
    public func reserves(number: UInt64) -> Bool { contains { $0.contains(number: number) } }
    /// Whether any reserved line reserves `name`.
    public func reserves(name: String) -> Bool { contains { $0.names.contains(name) } }
}
