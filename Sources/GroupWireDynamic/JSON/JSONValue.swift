/// A JSON document as a value: what the dynamic codec reads and writes.
///
/// Objects are dictionaries: the parser rejects duplicate keys, and ``JSONWriter`` writes
/// keys sorted, so output is deterministic.
public enum JSONValue: Sendable, Hashable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number, kept as its literal text.
    case number(JSONNumber)
    /// A string.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object.
    case object([String: JSONValue])

    /// The name of the value's JSON type, for error messages: `null`, `boolean`, `number`,
    /// `string`, `array` or `object`.
    public var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "boolean"
        case .number: "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }

    /// The members of an object, or nil for other values.
    public var objectValue: [String: JSONValue]? {
        if case .object(let members) = self { return members }
        return nil
    }

    /// The elements of an array, or nil for other values.
    public var arrayValue: [JSONValue]? {
        if case .array(let elements) = self { return elements }
        return nil
    }

    /// The text of a string, or nil for other values.
    public var stringValue: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    /// The member `key` of an object; nil when absent or when this is not an object.
    public subscript(key: String) -> JSONValue? {
        objectValue?[key]
    }
}

extension JSONValue: CustomStringConvertible {
    /// The value as compact JSON with sorted keys.
    public var description: String { JSONWriter().string(self) }
}

extension JSONValue: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByStringLiteral, ExpressibleByArrayLiteral,
    ExpressibleByDictionaryLiteral
{
    /// `null`.
    public init(nilLiteral: ()) { self = .null }
    /// A boolean.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    /// An integer number.
    public init(integerLiteral value: Int64) { self = .number(JSONNumber(value)) }
    /// A floating-point number; a non-finite literal becomes `null`.
    public init(floatLiteral value: Double) { self = JSONNumber(value).map(JSONValue.number) ?? .null }
    /// A string.
    public init(stringLiteral value: String) { self = .string(value) }
    /// An array.
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    /// An object; a repeated key keeps its last value.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}
