/// A declaration made of numbered cases: an ``EnumDecl`` (named numbers) or a
/// ``UnionDecl`` (exactly one of several cases, each with an optional payload).
public struct CasesDecl<Case: NumberedCaseDecl>: Sendable, Hashable {
    /// The type name.
    public var name: String
    /// The cases, in source order.
    public var cases: [Case]
    /// The `reserved` lines.
    public var reserved: [ReservedDecl]
    /// The `///` doc comment.
    public var documentation: String?
    /// The `@deprecated` attribute, if any.
    public var deprecation: Deprecation?
    /// Where the `enum` or `union` keyword is.
    public var location: SourceLocation

    /// Creates a declaration.
    public init(
        name: String, cases: [Case], reserved: [ReservedDecl],
        documentation: String? = nil, deprecation: Deprecation? = nil, location: SourceLocation
    ) {
        self.name = name
        self.cases = cases
        self.reserved = reserved
        self.documentation = documentation
        self.deprecation = deprecation
        self.location = location
    }

    /// The cases sorted by number (the canonical order).
    public var casesByNumber: [Case] { cases.sorted { $0.number < $1.number } }

    /// The case called `name`, if any.
    public func declaredCase(named name: String) -> Case? { cases.first { $0.name == name } }

    /// The case with `number`, if any.
    public func declaredCase(number: UInt64) -> Case? { cases.first { $0.number == number } }
}

/// A case of an enum or a union: its stable number and its name.
public protocol NumberedCaseDecl: Sendable, Hashable {
    /// The stable number.
    var number: UInt64 { get }
    /// The case name.
    var name: String { get }
}
