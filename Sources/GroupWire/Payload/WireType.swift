/// How a payload field's value is laid out, the low three bits of its key.
///
/// A reader that does not know a field can still skip it by its wire type. Values 3, 4,
/// 6 and 7 are not defined and are rejected with ``WireError/Kind/unknownWireType``.
public struct WireType: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// The three-bit value.
    public let rawValue: UInt8

    /// Creates a wire type from its three-bit value.
    public init(rawValue: UInt8) {
        self.rawValue = rawValue
    }

    /// An unsigned LEB128 varint: Bool, enums, integers (signed ones zigzag-mapped).
    public static let varint = WireType(rawValue: 0)
    /// Eight bytes little-endian: Float64, Timestamp.
    public static let fixed64 = WireType(rawValue: 1)
    /// A varint length, then that many bytes: strings, bytes, UUIDs, nested messages,
    /// packed arrays, map entries, unions.
    public static let lengthDelimited = WireType(rawValue: 2)
    /// Four bytes little-endian: Float32.
    public static let fixed32 = WireType(rawValue: 5)

    /// Whether the payload format defines this wire type.
    public var isDefined: Bool { rawValue <= 2 || rawValue == 5 }

    /// `varint`, `fixed64`, `len`, `fixed32`, or `invalid(N)`.
    public var description: String {
        switch rawValue {
        case 0: "varint"
        case 1: "fixed64"
        case 2: "len"
        case 5: "fixed32"
        default: "invalid(\(rawValue))"
        }
    }
}

/// A payload field's key: its number and wire type, written as
/// `uvarint(number << 3 | wireType)`.
public struct FieldKey: Sendable, Hashable {
    /// The field number, 1 ... ``maxNumber``.
    public let number: UInt32
    /// How the value is laid out.
    public let wireType: WireType

    /// The largest field number.
    public static let maxNumber: UInt32 = (1 << 29) - 1

    /// Creates a key.
    public init(number: UInt32, wireType: WireType) {
        self.number = number
        self.wireType = wireType
    }

    /// The key's varint value.
    @inlinable public var encoded: UInt64 { UInt64(number) << 3 | UInt64(wireType.rawValue) }
}
