/// A struct: a nested value type with fields but no type id. It travels inside a message
/// as a LEN field holding its own field-tagged payload.
public struct StructDecl: Sendable, Hashable, FieldContainerDecl {
    /// The type name.
    public var name: String
    /// The fields, in source order.
    public var fields: [FieldDecl]
    /// The `reserved` lines.
    public var reserved: [ReservedDecl]
    /// The `///` doc comment.
    public var documentation: String?
    /// The `@deprecated` attribute, if any.
    public var deprecation: Deprecation?
    /// Where the `struct` keyword is.
    public var location: SourceLocation

    /// Creates a struct declaration.
    public init(
        name: String, fields: [FieldDecl], reserved: [ReservedDecl],
        documentation: String? = nil, deprecation: Deprecation? = nil, location: SourceLocation
    ) {
        self.name = name
        self.fields = fields
        self.reserved = reserved
        self.documentation = documentation
        self.deprecation = deprecation
        self.location = location
    }
}

/// What messages and structs share: a name, fields and reserved lines.
///
/// Generators and checks that treat both alike take `some FieldContainerDecl`.
public protocol FieldContainerDecl: Sendable {
    /// The type name.
    var name: String { get }
    /// The fields, in source order.
    var fields: [FieldDecl] { get }
    /// The `reserved` lines.
    var reserved: [ReservedDecl] { get }
    /// The doc comment.
    var documentation: String? { get }
    /// Where the declaration starts.
    var location: SourceLocation { get }
}

extension FieldContainerDecl {
    /// The fields sorted by number (the canonical and wire order).
    public var fieldsByNumber: [FieldDecl] { fields.sorted { $0.number < $1.number } }

    /// The field with `number`, if any.
    public func field(number: UInt64) -> FieldDecl? { fields.first { $0.number == number } }

    /// The field called `name`, if any.
    public func field(named name: String) -> FieldDecl? { fields.first { $0.name == name } }
}
