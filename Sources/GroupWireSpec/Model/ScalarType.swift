/// A built-in scalar type of the spec language.
///
/// The raw value is the spelling in spec files and in the canonical form.
public enum ScalarType: String, Sendable, Hashable, CaseIterable {
    /// `true`/`false`, VARINT 0 or 1.
    case bool = "Bool"
    /// Signed 8-bit integer, zigzag VARINT.
    case int8 = "Int8"
    /// Signed 16-bit integer, zigzag VARINT.
    case int16 = "Int16"
    /// Signed 32-bit integer, zigzag VARINT.
    case int32 = "Int32"
    /// Signed 64-bit integer, zigzag VARINT.
    case int64 = "Int64"
    /// Unsigned 8-bit integer, plain VARINT.
    case uint8 = "UInt8"
    /// Unsigned 16-bit integer, plain VARINT.
    case uint16 = "UInt16"
    /// Unsigned 32-bit integer, plain VARINT.
    case uint32 = "UInt32"
    /// Unsigned 64-bit integer, plain VARINT.
    case uint64 = "UInt64"
    /// IEEE 754 binary32, FIXED32 little-endian.
    case float32 = "Float32"
    /// IEEE 754 binary64, FIXED64 little-endian.
    case float64 = "Float64"
    /// UTF-8 text, LEN.
    case string = "String"
    /// Opaque bytes, LEN.
    case bytes = "Bytes"
    /// A UUID, LEN with exactly 16 bytes in RFC 4122 byte order.
    case uuid = "UUID"
    /// Int64 nanoseconds since 1970-01-01T00:00:00Z, FIXED64 little-endian.
    case timestamp = "Timestamp"
    /// Unsigned 32-bit integer, FIXED32 little-endian: for values spread over the whole
    /// range (hashes, identifiers), where a varint would take 5 bytes.
    case fixed32 = "Fixed32"
    /// Unsigned 64-bit integer, FIXED64 little-endian: for values spread over the whole
    /// range (hashes, fingerprints), where a varint would take 10 bytes.
    case fixed64 = "Fixed64"

    /// The payload wire type a value of this scalar is written with (outside packed arrays).
    public var wireType: FieldWireType {
        switch self {
        case .bool, .int8, .int16, .int32, .int64, .uint8, .uint16, .uint32, .uint64: .varint
        case .float64, .timestamp, .fixed64: .fixed64
        case .float32, .fixed32: .fixed32
        case .string, .bytes, .uuid: .len
        }
    }

    /// Whether the type is one of the ten integer types (eight varint, two fixed-width).
    public var isInteger: Bool { integerRange != nil }

    /// Whether the type is a signed integer (zigzag encoded).
    public var isSignedInteger: Bool {
        switch self {
        case .int8, .int16, .int32, .int64: true
        default: false
        }
    }

    /// Whether the type is `Float32` or `Float64`.
    public var isFloatingPoint: Bool { self == .float32 || self == .float64 }

    /// The bit width of an integer or floating-point type; `nil` for the others.
    public var bitWidth: Int? {
        switch self {
        case .int8, .uint8: 8
        case .int16, .uint16: 16
        case .int32, .uint32, .float32, .fixed32: 32
        case .int64, .uint64, .float64, .fixed64: 64
        default: nil
        }
    }

    /// The inclusive value range of an integer type, as `(min, max)` widened to
    /// `(Int64 as lower, UInt64 as upper)`; `nil` for non-integers.
    public var integerRange: (min: Int64, max: UInt64)? {
        switch self {
        case .int8: (Int64(Int8.min), UInt64(Int8.max))
        case .int16: (Int64(Int16.min), UInt64(Int16.max))
        case .int32: (Int64(Int32.min), UInt64(Int32.max))
        case .int64: (Int64.min, UInt64(Int64.max))
        case .uint8: (0, UInt64(UInt8.max))
        case .uint16: (0, UInt64(UInt16.max))
        case .uint32: (0, UInt64(UInt32.max))
        case .uint64: (0, UInt64.max)
        case .fixed32: (0, UInt64(UInt32.max))
        case .fixed64: (0, UInt64.max)
        default: nil
        }
    }

    /// Whether values of this type may be map keys (integers, `String`, `Bool`, `UUID`).
    public var isValidMapKey: Bool {
        isInteger || self == .string || self == .bool || self == .uuid
    }

    /// Whether a field of this type may declare a default (`Bool`, integers, floats, `String`).
    public var acceptsDefault: Bool {
        isInteger || isFloatingPoint || self == .bool || self == .string
    }

    /// Whether arrays of this type are written packed (one LEN field with all values).
    public var isPackable: Bool { wireType != .len }
}
