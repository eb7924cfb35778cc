/// Sizes of encoded payload pieces, so generated types can reserve the exact capacity of
/// a payload before writing it (one allocation per encode).
///
/// These are `@inlinable` because generated code in other modules calls them once per
/// field on the encode path (measured: without inlining the size pass costs a call per field).
public enum WireSize {
    /// The bytes `uvarint(value)` takes.
    @inlinable public static func uvarint(_ value: UInt64) -> Int {
        Varint.encodedLength(value)
    }

    /// The bytes `svarint(value)` takes.
    @inlinable public static func svarint(_ value: Int64) -> Int {
        Varint.encodedLength(Varint.zigzag(value))
    }

    /// The bytes a length-delimited value of `count` content bytes takes (prefix included).
    @inlinable public static func lengthDelimited(_ count: Int) -> Int {
        Varint.encodedLength(UInt64(truncatingIfNeeded: count)) + count  // safe because: counts are never negative
    }

    /// The bytes a String value takes as a length-delimited value (prefix included).
    @inlinable public static func string(_ value: String) -> Int {
        lengthDelimited(value.utf8.count)
    }
}
