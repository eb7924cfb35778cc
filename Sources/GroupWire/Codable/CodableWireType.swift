/// The wire types of the generic Codable encoding (Spec/FORMAT.md, "Encoding of arbitrary
/// Codable values"): the low three bits of a keyed entry's header, or a whole byte in front
/// of an unkeyed element or the top-level value.
///
/// They match the payload wire types, plus `null` (3), which carries no data, and
/// `fixed128` (4): sixteen raw bytes, for UUIDs, so the most common identifier in group
/// session messages needs no length byte.
enum CodableWireType {
    /// Unsigned LEB128: Bool, unsigned integers, signed integers zigzag-mapped.
    static let varint: UInt8 = 0
    /// Eight bytes little-endian: Double (unless exact as a Float), Date.
    static let fixed64: UInt8 = 1
    /// `uvarint(length)` then that many bytes: strings, Data, URL, Decimal, keyed and
    /// unkeyed containers.
    static let len: UInt8 = 2
    /// An explicit nil; no data follows.
    static let null: UInt8 = 3
    /// Sixteen bytes: UUID (its bytes in order), 128-bit integers outside the 64-bit range
    /// (little-endian).
    static let fixed128: UInt8 = 4
    /// Four bytes little-endian: Float, and Doubles exactly representable as Float.
    static let fixed32: UInt8 = 5

    /// Whether `type` is one of the six defined wire types (0 to 5).
    @inline(__always) static func isDefined(_ type: UInt8) -> Bool {
        type <= 5
    }

    /// `varint`, `fixed64`, `len`, `nil`, `fixed128`, `fixed32`, or `invalid(N)`, for error messages.
    static func name(_ type: UInt8) -> String {
        switch type {
        case varint: "varint"
        case fixed64: "fixed64"
        case len: "len"
        case null: "nil"
        case fixed128: "fixed128"
        case fixed32: "fixed32"
        default: "invalid(\(type))"
        }
    }
}
