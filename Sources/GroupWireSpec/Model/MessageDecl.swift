/// A message: a top-level value with a stable type id that travels in a data frame.
///
/// ```
/// message UpsertStroke @ 1 {
///     1 id: UUID
///     2 color: StrokeColor
///     3 point: Point
/// }
/// ```
public struct MessageDecl: Sendable, Hashable, FieldContainerDecl {
    /// The type name (also the Swift type name).
    public var name: String
    /// The stable type id carried in data frames, 1...4_294_967_295 in a valid spec.
    public var typeID: UInt64

    /// GroupWire's own type ids (coordinated playback, Spec/PLAYBACK.md): declared only by
    /// specs of packages named `groupwire.…`, and outside negotiation's agreement (no app's
    /// schema names them; they go to every agreed peer, whose coordinator reads them).
    public static let groupWireTypeIDs: ClosedRange<UInt64> = 0xFFFF_FF00...0xFFFF_FFFF
    /// The fields, in source order.
    public var fields: [FieldDecl]
    /// The `reserved` lines.
    public var reserved: [ReservedDecl]
    /// The `///` doc comment.
    public var documentation: String?
    /// The `@deprecated` attribute, if any.
    public var deprecation: Deprecation?
    /// Where the `message` keyword is.
    public var location: SourceLocation
    /// Where the type id is.
    public var typeIDLocation: SourceLocation

    /// Creates a message declaration.
    public init(
        name: String, typeID: UInt64, fields: [FieldDecl], reserved: [ReservedDecl],
        documentation: String? = nil, deprecation: Deprecation? = nil,
        location: SourceLocation, typeIDLocation: SourceLocation
    ) {
        self.name = name
        self.typeID = typeID
        self.fields = fields
        self.reserved = reserved
        self.documentation = documentation
        self.deprecation = deprecation
        self.location = location
        self.typeIDLocation = typeIDLocation
    }
}
