/// Helpers for the variable-length integers of the GroupWire format.
///
/// Unsigned values use LEB128: seven bits per byte, least significant group first, the
/// high bit set on every byte but the last. Encodings must be minimal and at most 10 bytes.
/// Signed values are zigzag-mapped first (0, -1, 1, -2 … → 0, 1, 2, 3 …).
public enum Varint {
    /// The most bytes a 64-bit varint can take.
    public static let maxLength = 10

    /// Maps a signed value onto an unsigned one so that small magnitudes stay small.
    @inlinable public static func zigzag(_ value: Int64) -> UInt64 {
        UInt64(bitPattern: (value << 1) ^ (value >> 63))
    }

    /// Reverses ``zigzag(_:)``.
    @inlinable public static func unzigzag(_ value: UInt64) -> Int64 {
        Int64(bitPattern: (value >> 1) ^ (0 &- (value & 1)))  // safe because: 0 &- 0/1 is 0 or all ones by design
    }

    /// The number of bytes ``ByteWriter/writeUVarint(_:)`` writes for `value`.
    @inlinable public static func encodedLength(_ value: UInt64) -> Int {
        // One byte per started group of seven significant bits; zero still takes a byte.
        let bits = 64 - (value | 1).leadingZeroBitCount
        return (bits + 6) / 7
    }
}
