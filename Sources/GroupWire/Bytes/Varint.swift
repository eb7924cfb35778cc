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

    /// Why the bytes at a position are not a varint (``read(_:at:end:failure:)``).
    public enum Failure: Sendable, Hashable {
        /// The bytes end before the varint's last byte.
        case truncated
        /// The value does not fit 64 bits.
        case tooLarge
        /// A shorter encoding of the same value exists (a last byte of 0 after others).
        case notMinimal
    }

    /// Reads the minimal varint of at most 10 bytes at `position`, before `end` (which is
    /// at most `bytes.count`), and moves `position` past it; nil, with `failure` set and
    /// `position` unmoved, when the bytes are not one. The one statement of the rules,
    /// for ``ByteReader`` and every reader that walks bytes itself.
    @inlinable @inline(__always)
    public static func read(
        _ bytes: UnsafeBufferPointer<UInt8>, at position: inout Int, end: Int, failure: inout Failure
    ) -> UInt64? {
        var cursor = position
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while cursor < end {
            let byte = bytes[cursor]  // safe because: cursor < end <= bytes.count
            cursor &+= 1
            if shift == 63, byte > 1 {
                failure = .tooLarge
                return nil
            }
            value |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 {
                guard byte != 0 || shift == 0 else {
                    failure = .notMinimal
                    return nil
                }
                position = cursor
                return value
            }
            shift &+= 7  // safe because: at most 63, by the check above
        }
        failure = .truncated
        return nil
    }

    /// The number of bytes ``ByteWriter/writeUVarint(_:)`` writes for `value`.
    @inlinable public static func encodedLength(_ value: UInt64) -> Int {
        // One byte per started group of seven significant bits; zero still takes a byte.
        let bits = 64 - (value | 1).leadingZeroBitCount
        return (bits + 6) / 7
    }
}
