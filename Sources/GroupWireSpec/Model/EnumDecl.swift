/// An open enum: named numbers. Written as a plain VARINT. Readers keep numbers they do
/// not know (generated Swift enums have an `unknown(UInt32)` case), so adding cases is safe.
///
/// Every enum has a case numbered 0: an absent enum field decodes as 0.
public struct EnumDecl: Sendable, Hashable {
    /// The type name.
    public var name: String
    /// The cases, in source order.
    public var cases: [EnumCaseDecl]
    /// The `reserved` lines.
    public var reserved: [ReservedDecl]
    /// The `///` doc comment.
    public var documentation: String?
    /// The `@deprecated` attribute, if any.
    public var deprecation: Deprecation?
    /// Where the `enum` keyword is.
    public var location: SourceLocation

    /// Creates an enum declaration.
    public init(
        name: String, cases: [EnumCaseDecl], reserved: [ReservedDecl],
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
    public var casesByNumber: [EnumCaseDecl] { cases.sorted { $0.number < $1.number } }

    /// The case called `name`, if any.
    public func enumCase(named name: String) -> EnumCaseDecl? { cases.first { $0.name == name } }

    /// The case with `number`, if any.
    public func enumCase(number: UInt64) -> EnumCaseDecl? { cases.first { $0.number == number } }
}

/// One enum case: `2 red`.
public struct EnumCaseDecl: Sendable, Hashable {
    /// The stable number, 0...4_294_967_295 in a valid spec.
    public var number: UInt64
    /// The case name.
    public var name: String
    /// The `///` doc comment.
    public var documentation: String?
    /// The `@deprecated` attribute, if any.
    public var deprecation: Deprecation?
    /// Where the number is.
    public var location: SourceLocation

    /// Creates an enum case.
    public init(
        number: UInt64, name: String, documentation: String? = nil, deprecation: Deprecation? = nil, location: SourceLocation
    ) {
        self.number = number
        self.name = name
        self.documentation = documentation
        self.deprecation = deprecation
        self.location = location
    }
}
