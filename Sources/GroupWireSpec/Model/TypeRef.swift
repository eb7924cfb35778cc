/// A reference to a type in a field, a union case payload, an array or a map.
///
/// Named references hold the declared name only; look them up with
/// ``SpecSet/declaration(named:)``. Type names are unique across a spec set, so a name
/// identifies one declaration.
public indirect enum TypeRef: Sendable, Hashable, CustomStringConvertible {
    /// A built-in scalar such as `Int32` or `UUID`.
    case scalar(ScalarType)
    /// A message, struct, enum or union declared in the spec set.
    case named(String)
    /// `[Element]`: a repeated field. Packed when the element is a number, Bool or enum.
    case array(TypeRef)
    /// `[Key: Value]`: a map, written as repeated LEN entries `{1: key, 2: value}`.
    case map(key: TypeRef, value: TypeRef)

    /// The spelling in spec source and in the canonical form, e.g. `[String: Point]`.
    public var description: String {
        switch self {
        case .scalar(let scalar): scalar.rawValue
        case .named(let name): name
        case .array(let element): "[\(element)]"
        case .map(let key, let value): "[\(key): \(value)]"
        }
    }

    /// The scalar, when this is a scalar reference.
    public var scalar: ScalarType? {
        if case .scalar(let scalar) = self { return scalar }
        return nil
    }

    /// The name, when this is a named reference.
    public var name: String? {
        if case .named(let name) = self { return name }
        return nil
    }

    /// Whether this is an array or a map.
    public var isCollection: Bool {
        switch self {
        case .array, .map: true
        case .scalar, .named: false
        }
    }

    /// Every named type mentioned anywhere in this reference, in order of appearance.
    public var referencedNames: [String] {
        switch self {
        case .scalar: []
        case .named(let name): [name]
        case .array(let element): element.referencedNames
        case .map(let key, let value): key.referencedNames + value.referencedNames
        }
    }
}
