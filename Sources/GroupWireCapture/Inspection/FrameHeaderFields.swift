import GroupWire

/// Every header field of a valid frame as it appears on the wire, including the ones a
/// decoded `Frame` does not keep (version, length field, kind byte, checksum).
public struct FrameHeaderFields: Sendable, Hashable {
    /// The version byte.
    public let version: UInt8
    /// The value of the length field: bytes after it through the checksum.
    public let lengthField: UInt64
    /// The kind byte: kind in the low nibble, flags in the high nibble.
    public let kindByte: UInt8
    /// The stored CRC32C.
    public let crc32c: UInt32

    /// Reads the fields of the frame that starts at `offset` and spans `length` bytes.
    /// - Returns: nil when the bytes are not a frame prelude (callers pass valid frames).
    public init?(_ bytes: [UInt8], offset: Int, length: Int) {
        guard length >= Frame.fixedOverhead, offset >= 0, offset <= bytes.count - length else { return nil }
        do throws(WireError) {
            var reader = try ByteReader(bytes, range: offset..<(offset + length))
            _ = try reader.readByte()
            version = try reader.readByte()
            lengthField = try reader.readUVarint()
            kindByte = try reader.readByte()
            var tail = try ByteReader(bytes, range: (offset + length - 4)..<(offset + length))
            crc32c = try tail.readFixed32LE()
        } catch {
            return nil
        }
    }
}
