import GroupWire
import GroupWireSpec

/// A map key from its JSON member name, with its wire form and its sort order.
///
/// Writers emit map entries sorted by key (Spec/FORMAT.md, "Canonical writing"): integers by
/// value, Bool false before true, String by UTF-8 bytes, UUID by its 16 bytes.
struct MapKey: Comparable {
    /// The JSON member name as given.
    let text: String
    /// The key's wire form (field 1 of the entry).
    let wire: WireValue
    private let order: Order

    private enum Order {
        case signed(Int64)
        case unsigned(UInt64)
        case bytes([UInt8])
    }

    /// Parses a member name as a key of type `type`.
    /// - Throws: ``JSONInputError`` naming `path()` when the name is not a value of `type`.
    init(_ type: ScalarType, text: String, limits: Limits, path: () -> String) throws(JSONInputError) {
        self.text = text
        switch type {
        case .string:
            let utf8 = Array(text.utf8)
            guard utf8.count <= limits.maxStringLength else {
                throw JSONInputError(
                    .limitExceeded, path: path(),
                    "map key of \(utf8.count) UTF-8 bytes is over maxStringLength \(limits.maxStringLength)")
            }
            wire = .bytes(utf8)
            order = .bytes(utf8)
        case .bool:
            switch text {
            case "true": (wire, order) = (.varint(1), .unsigned(1))
            case "false": (wire, order) = (.varint(0), .unsigned(0))
            default:
                throw JSONInputError(
                    .invalidValue, path: path(), "map key \(ScalarMapping.quoted(text)) is not \"true\" or \"false\"")
            }
        case .uuid:
            guard let bytes = ScalarMapping.uuidBytes(text) else {
                throw JSONInputError(.invalidValue, path: path(), "map key \(ScalarMapping.quoted(text)) is not a UUID")
            }
            wire = .bytes(bytes)
            order = .bytes(bytes)
        default:
            guard let range = type.integerRange else {
                throw JSONInputError(.invalidValue, path: path(), "\(type.rawValue) cannot be a map key")
            }
            if type.isSignedInteger {
                guard let value = Int64(text), value >= range.min, value < 0 || UInt64(value) <= range.max else {
                    throw JSONInputError(
                        .outOfRange, path: path(),
                        "map key \(ScalarMapping.quoted(text)) is not a decimal \(type.rawValue) (\(range.min)...\(range.max))")
                }
                wire = .varint(Varint.zigzag(value))
                order = .signed(value)
            } else {
                guard let value = UInt64(text), value <= range.max else {
                    throw JSONInputError(
                        .outOfRange, path: path(),
                        "map key \(ScalarMapping.quoted(text)) is not a decimal \(type.rawValue) (0...\(range.max))")
                }
                switch type {
                case .fixed32: wire = .fixed32(UInt32(truncatingIfNeeded: value))
                case .fixed64: wire = .fixed64(value)
                default: wire = .varint(value)
                }
                order = .unsigned(value)
            }
        }
    }

    static func < (lhs: MapKey, rhs: MapKey) -> Bool {
        switch (lhs.order, rhs.order) {
        case (.signed(let left), .signed(let right)): left < right
        case (.unsigned(let left), .unsigned(let right)): left < right
        case (.bytes(let left), .bytes(let right)): left.lexicographicallyPrecedes(right)
        default: lhs.text < rhs.text  // keys of one map share one type; unreachable in practice
        }
    }

    static func == (lhs: MapKey, rhs: MapKey) -> Bool {
        lhs.wire == rhs.wire
    }

    /// The JSON member name for a key read off the wire: decimal integers, `true`/`false`,
    /// the string itself, or an uppercase UUID.
    static func jsonText(_ key: JSONValue, type: ScalarType) -> String {
        switch key {
        case .string(let text): text
        case .number(let number): number.text
        case .bool(let flag): flag ? "true" : "false"
        default: key.description
        }
    }
}
