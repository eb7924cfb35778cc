/// A field of a message or struct: `3 point: Point`, `4 width: Float32? `, `5 tags: [String]`,
/// `6 rate: Float64 = 1`.
public struct FieldDecl: Sendable, Hashable {
    /// The stable field number, 1...536_870_911 (2^29 - 1) in a valid spec.
    public var number: UInt64
    /// The field name (also the Swift property name).
    public var name: String
    /// The field type. Optionality is ``isOptional``, not part of the type.
    public var type: TypeRef
    /// Whether the field was declared with `?`: absent decodes as `nil`.
    public var isOptional: Bool
    /// The default literal as written (`= ...`), if any.
    public var defaultLiteral: Literal?
    /// The checked default. Set by semantic analysis when ``defaultLiteral`` is valid;
    /// `nil` means the type's zero value (0, false, "", empty, case 0, all-default struct).
    public var defaultValue: DefaultValue?
    /// The `///` doc comment, lines joined with `\n`, without the slashes.
    public var documentation: String?
    /// The `@deprecated` attribute, if any.
    public var deprecation: Deprecation?
    /// Where the field's number is.
    public var location: SourceLocation
    /// Where each named type in ``type`` is spelled, in order of ``TypeRef/referencedNames``.
    public var typeNameLocations: [SourceLocation]
    /// Where the type starts.
    public var typeLocation: SourceLocation

    /// Creates a field.
    public init(
        number: UInt64, name: String, type: TypeRef, isOptional: Bool,
        defaultLiteral: Literal? = nil, defaultValue: DefaultValue? = nil,
        documentation: String? = nil, deprecation: Deprecation? = nil,
        location: SourceLocation, typeLocation: SourceLocation, typeNameLocations: [SourceLocation] = []
    ) {
        self.number = number
        self.name = name
        self.type = type
        self.isOptional = isOptional
        self.defaultLiteral = defaultLiteral
        self.defaultValue = defaultValue
        self.documentation = documentation
        self.deprecation = deprecation
        self.location = location
        self.typeLocation = typeLocation
        self.typeNameLocations = typeNameLocations
    }
}
