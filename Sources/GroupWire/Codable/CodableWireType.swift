/// The wire types of the generic Codable encoding (Spec/FORMAT.md, "Encoding of arbitrary
/// Codable values"): the low three bits of a keyed entry's header, or a whole byte in front
/// of an unkeyed element or the top-level value.
///
/// They match the payload wire types, plus `null` (3), which carries no data,
/// `fixed128` (4): sixteen raw bytes, for UUIDs, so the most common identifier in group
/// session messages needs no length byte, and `opaque` (6): the length-prefixed compact
/// form of Data, URL and Decimal, kept apart from `len` so a reader never takes one for the
/// keyed or unkeyed container these types write through their own `Codable` conformance.
enum CodableWireType {
    /// Unsigned LEB128: Bool, unsigned integers, signed integers zigzag-mapped.
    static let varint: UInt8 = 0
    /// Eight bytes little-endian: Double (unless exact as a Float), Date.
    static let fixed64: UInt8 = 1
    /// `uvarint(length)` then that many bytes: strings, keyed and unkeyed containers.
    static let len: UInt8 = 2
    /// An explicit nil; no data follows.
    static let null: UInt8 = 3
    /// Sixteen bytes: UUID (its bytes in order), 128-bit integers outside the 64-bit range
    /// (little-endian).
    static let fixed128: UInt8 = 4
    /// Four bytes little-endian: Float, and Doubles exactly representable as Float.
    static let fixed32: UInt8 = 5
    /// `uvarint(length)` then that many bytes of Data, URL or Decimal in compact form.
    static let opaque: UInt8 = 6

    /// Whether `type` is one of the seven defined wire types (0 to 6).
    @inline(__always) static func isDefined(_ type: UInt8) -> Bool {
        type <= 6
    }

    /// `varint`, `fixed64`, `len`, `nil`, `fixed128`, `fixed32`, `opaque`, or `invalid(N)`,
    /// for error messages.
    static func name(_ type: UInt8) -> String {
        switch type {
        case varint: "varint"
        case fixed64: "fixed64"
        case len: "len"
        case null: "nil"
        case fixed128: "fixed128"
        case fixed32: "fixed32"
        case opaque: "opaque"
        default: "invalid(\(type))"
        }
    }
}
