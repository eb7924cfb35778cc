/// An open enum: named numbers. Written as a plain VARINT. Readers keep numbers they do
/// not know (generated Swift enums have an `unknown(UInt32)` case), so adding cases is safe.
///
/// Every enum has a case numbered 0: an absent enum field decodes as 0.
public typealias EnumDecl = CasesDecl<EnumCaseDecl>

/// One enum case: `2 red`.
public struct EnumCaseDecl: NumberedCaseDecl {
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
