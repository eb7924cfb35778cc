/// Sizes of encoded payload pieces, so generated types can reserve the exact capacity of
/// a payload before writing it (one allocation per encode).
///
/// These are `@inlinable` because generated code in other modules calls them once per
/// field on the encode path (measured: without inlining the size pass costs a call per field).
public enum _WireSize {
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

/// Capacity hints for generated decoders.
public enum _WireCapacity {
    /// The most elements a hint reserves: bounds the memory a small input can make a
    /// decoder reserve (larger arrays grow as usual).
    public static let maxHint = 1_024

    /// Once the first element of a repeated field is read, before it is stored: reserves
    /// room for it and as many elements of the same size as the rest of the enclosing value
    /// could hold (at most ``maxHint`` more), so the array is allocated once.
    /// - Parameters:
    ///   - array: the (empty) array the first element goes to.
    ///   - elementBytes: the bytes the first element took (key included).
    ///   - remaining: the bytes left in the enclosing value.
    @inlinable public static func reserve<Element>(_ array: inout [Element], elementBytes: Int, remaining: Int) {
        guard elementBytes > 0, remaining > 0 else { return }
        array.reserveCapacity(1 + min(remaining / elementBytes, maxHint))
    }

    /// The same hint for a map, once its first entry is read. The empty map is replaced by
    /// one made with that capacity: `reserveCapacity` went through the standard library's
    /// unspecialized resize (about 1,100 instructions, an eighth of a PlaybackState decode).
    @inlinable public static func reserve<Key, Value>(_ map: inout [Key: Value], elementBytes: Int, remaining: Int) {
        guard elementBytes > 0, remaining > 0, map.isEmpty else { return }
        map = [Key: Value](minimumCapacity: 1 + min(remaining / elementBytes, maxHint))
    }
}
