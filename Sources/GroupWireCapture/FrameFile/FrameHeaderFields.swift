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
        self.init(frameBytes: bytes[offset..<(offset + length)])
    }

    /// Reads the fields of the frame whose bytes are `frame`, exactly.
    /// - Returns: nil when the bytes are not a frame prelude (callers pass valid frames).
    public init?(frameBytes frame: ArraySlice<UInt8>) {
        guard frame.count >= Frame.fixedOverhead else { return nil }
        let start = frame.startIndex
        version = frame[start + 1]
        // The length varint before the checksum; the kind byte follows it.
        var position = 2
        var failure = Varint.Failure.truncated
        let read = frame.withUnsafeBufferPointer { Varint.read($0, at: &position, end: $0.count - 4, failure: &failure) }
        guard let value = read, position < frame.count - 4 else { return nil }
        lengthField = value
        kindByte = frame[start + position]
        let end = frame.endIndex
        crc32c =
            UInt32(frame[end - 4]) | UInt32(frame[end - 3]) << 8 | UInt32(frame[end - 2]) << 16 | UInt32(frame[end - 1]) << 24
    }
}

extension FrameHeaderFields {
    /// The session id in the session header of `frame`, nil when it has none or the bytes
    /// are not a frame prelude: read without checking the checksum, for capture records.
    public static func sessionID(of frame: [UInt8]) -> UInt32? {
        var index = 2
        func varint() -> UInt64? {
            var failure = Varint.Failure.truncated
            return frame.withUnsafeBufferPointer { Varint.read($0, at: &index, end: $0.count, failure: &failure) }
        }
        guard frame.count >= Frame.fixedOverhead, frame[0] == 0xC7, varint() != nil, index < frame.count else { return nil }
        let kindByte = frame[index]
        index += 1
        guard kindByte & 0x20 != 0 else { return nil }
        if kindByte & 0x40 != 0 {
            guard varint() != nil, varint() != nil else { return nil }
        }
        let kindHeaderFields = kindByte & 0x0F == 2 ? 6 : 1
        for _ in 0..<kindHeaderFields {
            guard varint() != nil else { return nil }
        }
        guard let session = varint(), session > 0, session <= UInt64(UInt32.max) else { return nil }
        return UInt32(session)
    }
}
