/// The 3-bit wire type in a payload field key (`fieldNumber << 3 | wireType`).
///
/// This mirrors the wire types of the core payload format (see Spec/FORMAT.md) without
/// making the spec module depend on the wire core.
public enum FieldWireType: UInt8, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// Variable-length integer: Bool, enums, integers.
    case varint = 0
    /// Eight bytes little-endian: Float64, Timestamp.
    case fixed64 = 1
    /// Length-delimited: String, Bytes, UUID, structs, messages, unions, packed arrays, map entries.
    case len = 2
    /// Four bytes little-endian: Float32.
    case fixed32 = 5

    /// The name used in documents: `VARINT`, `FIXED64`, `LEN`, `FIXED32`.
    public var description: String {
        switch self {
        case .varint: "VARINT"
        case .fixed64: "FIXED64"
        case .len: "LEN"
        case .fixed32: "FIXED32"
        }
    }
}
