/// A generated Swift source file.
struct SwiftFile: Sendable, Hashable {
    /// Comment lines of the stamp, without `// `.
    var header: [String]
    /// Import lines, e.g. `import GroupWire`, or conditional import groups.
    var imports: [CodeItem]
    /// The top-level types, in spec source order.
    var types: [SwiftType]
}

/// A generated struct, enum or protocol.
struct SwiftType: Sendable, Hashable {
    /// `struct`, `enum` or `protocol` (whose functions are printed as requirements, without
    /// their bodies).
    enum Kind: String, Sendable, Hashable {
        case `struct`
        case `enum`
        case `protocol`
    }

    var kind: Kind
    var name: String
    /// Doc comment lines, without `/// `.
    var documentation: [String]
    /// Attributes such as `@available(*, deprecated, message: "…")`.
    var attributes: [String]
    /// The access modifier with a trailing space (empty for internal).
    var access: String
    var conformances: [String]
    /// Members in the order they are printed; `.blank`-free, the renderer separates them.
    var members: [SwiftMember]
}

/// A member of a generated type.
enum SwiftMember: Sendable, Hashable {
    case property(SwiftProperty)
    case enumCase(SwiftEnumCase)
    case function(SwiftFunction)
    case nestedType(SwiftType)
}

/// A stored or computed property.
struct SwiftProperty: Sendable, Hashable {
    var documentation: [String]
    var attributes: [String]
    /// Modifiers with trailing spaces, e.g. `public static `.
    var modifiers: String
    /// `let` or `var`.
    var keyword: String
    var name: String
    var type: String
    /// `= value` for stored properties.
    var initialValue: String?
    /// Getter statements for a computed property.
    var getter: [CodeItem]?
    /// Setter statements (with `newValue`) for a computed property.
    var setter: [CodeItem]?
}

/// An enum case, with an optional associated value type or raw value.
struct SwiftEnumCase: Sendable, Hashable {
    var documentation: [String]
    var attributes: [String]
    var name: String
    /// `(Type)` when the case carries a value.
    var associatedType: String?
}

/// A function, initializer or operator, as a signature line and a body.
struct SwiftFunction: Sendable, Hashable {
    var documentation: [String]
    var attributes: [String]
    /// The declaration before its parameter list, e.g. `public func encodeWire`.
    var head: String
    /// The parameters, e.g. `to writer: inout PayloadWriter`.
    var parameters: [String]
    /// What follows the parameter list, e.g. ` throws(WireError)` or ` -> Bool`.
    var tail: String = ""
    var body: [CodeItem]
}
