/// A union: exactly one of several cases, each with a stable number and an optional payload.
/// Becomes a Swift enum with associated values.
///
/// On the wire a union is a LEN value holding exactly one field whose number is the case
/// number: the payload encoded as a field of its type, or an empty LEN for a case without
/// payload. Unions are closed: a reader rejects a case number it does not know.
///
/// The default of a union (used when a non-optional union field is absent) is its
/// lowest-numbered case, with the default of its payload.
public typealias UnionDecl = CasesDecl<UnionCaseDecl>

/// One union case: `1 circle: Circle` or `2 empty` (no payload).
public struct UnionCaseDecl: NumberedCaseDecl {
    /// The stable case number, a field number (1...536_870_911) in a valid spec.
    public var number: UInt64
    /// The case name.
    public var name: String
    /// The payload type, or `nil` for a case without payload.
    public var payload: TypeRef?
    /// The `///` doc comment.
    public var documentation: String?
    /// The `@deprecated` attribute, if any.
    public var deprecation: Deprecation?
    /// Where the number is.
    public var location: SourceLocation
    /// Where the payload type starts (the case location when there is none).
    public var payloadLocation: SourceLocation
    /// Where each named type in ``payload`` is spelled.
    public var payloadNameLocations: [SourceLocation]

    /// Creates a union case.
    public init(
        number: UInt64, name: String, payload: TypeRef?, documentation: String? = nil,
        deprecation: Deprecation? = nil, location: SourceLocation,
        payloadLocation: SourceLocation, payloadNameLocations: [SourceLocation] = []
    ) {
        self.number = number
        self.name = name
        self.payload = payload
        self.documentation = documentation
        self.deprecation = deprecation
        self.location = location
        self.payloadLocation = payloadLocation
        self.payloadNameLocations = payloadNameLocations
    }
}
