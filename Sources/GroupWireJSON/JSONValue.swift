/// A JSON document as a value: what the dynamic codec reads and writes, and what every
/// machine-readable tool output (payload dumps, inspection reports, compatibility reports)
/// is built from.
///
/// Objects are dictionaries: ``JSONParser`` rejects duplicate keys, and ``JSONWriter`` writes
/// keys sorted by their UTF-8 bytes, so output is deterministic.
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

    /// A signed integer, written with all its digits.
    public static func int(_ value: Int64) -> JSONValue {
        .number(JSONNumber(value))
    }

    /// An unsigned integer, written with all its digits (readers that parse numbers as
    /// doubles lose precision above 2^53; the digits themselves are exact).
    public static func uint(_ value: UInt64) -> JSONValue {
        .number(JSONNumber(value))
    }

    /// A `Double` in the one JSON form of Spec/FORMAT.md: a number in its shortest
    /// round-trip form, or, since JSON has no spelling for them, the strings `"NaN"`,
    /// `"Infinity"` and `"-Infinity"`.
    public static func double(_ value: Double) -> JSONValue {
        if let number = JSONNumber(value) { return .number(number) }
        if value.isNaN { return .string(nonFiniteNaN) }
        return .string(value < 0 ? nonFiniteNegativeInfinity : nonFiniteInfinity)
    }

    /// A `Float` in the same form as ``double(_:)``, written in the shortest text that reads
    /// back as the same `Float` (`0.1`, not `0.10000000149011612`).
    public static func float(_ value: Float) -> JSONValue {
        if let number = JSONNumber(value) { return .number(number) }
        return double(Double(value))
    }

    /// The non-finite `Double` a string spells (`"NaN"`, `"Infinity"`, `"-Infinity"`), or nil.
    public static func nonFiniteDouble(named text: String) -> Double? {
        switch text {
        case nonFiniteNaN: .nan
        case nonFiniteInfinity: .infinity
        case nonFiniteNegativeInfinity: -.infinity
        default: nil
        }
    }

    private static let nonFiniteNaN = "NaN"
    private static let nonFiniteInfinity = "Infinity"
    private static let nonFiniteNegativeInfinity = "-Infinity"

    /// The value as JSON text with sorted keys (no trailing newline).
    /// - Parameter pretty: two-space indentation and one member per line when true.
    public func rendered(pretty: Bool = true) -> String {
        JSONWriter(prettyPrinted: pretty).string(self)
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
