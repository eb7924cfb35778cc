/// A top-level declaration in a spec file.
public enum TypeDecl: Sendable, Hashable {
    /// `message Name @ id { fields }`.
    case message(MessageDecl)
    /// `struct Name { fields }`.
    case `struct`(StructDecl)
    /// `enum Name { cases }`.
    case `enum`(EnumDecl)
    /// `union Name { cases }`.
    case union(UnionDecl)

    /// The declared name.
    public var name: String {
        switch self {
        case .message(let decl): decl.name
        case .struct(let decl): decl.name
        case .enum(let decl): decl.name
        case .union(let decl): decl.name
        }
    }

    /// The keyword: `message`, `struct`, `enum` or `union`.
    public var keyword: String {
        switch self {
        case .message: "message"
        case .struct: "struct"
        case .enum: "enum"
        case .union: "union"
        }
    }

    /// Where the declaration's keyword is.
    public var location: SourceLocation {
        switch self {
        case .message(let decl): decl.location
        case .struct(let decl): decl.location
        case .enum(let decl): decl.location
        case .union(let decl): decl.location
        }
    }

    /// The doc comment.
    public var documentation: String? {
        switch self {
        case .message(let decl): decl.documentation
        case .struct(let decl): decl.documentation
        case .enum(let decl): decl.documentation
        case .union(let decl): decl.documentation
        }
    }

    /// The deprecation attribute.
    public var deprecation: Deprecation? {
        switch self {
        case .message(let decl): decl.deprecation
        case .struct(let decl): decl.deprecation
        case .enum(let decl): decl.deprecation
        case .union(let decl): decl.deprecation
        }
    }

    /// The `reserved` lines.
    public var reserved: [ReservedDecl] {
        switch self {
        case .message(let decl): decl.reserved
        case .struct(let decl): decl.reserved
        case .enum(let decl): decl.reserved
        case .union(let decl): decl.reserved
        }
    }

    /// The fields of a message or struct; empty for enums and unions.
    public var fields: [FieldDecl] {
        switch self {
        case .message(let decl): decl.fields
        case .struct(let decl): decl.fields
        case .enum, .union: []
        }
    }

    /// The wire type a value of this declaration is written with: VARINT for enums,
    /// LEN for messages, structs and unions.
    public var wireType: FieldWireType {
        if case .enum = self { return .varint }
        return .len
    }
}
