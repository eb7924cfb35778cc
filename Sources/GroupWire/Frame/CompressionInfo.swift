/// The compression header of a frame whose ``FrameFlags/compressed`` flag is set.
///
/// Wire form, after the kind header: `codec u8, dictionaryID uvarint, contentSize uvarint`.
public struct CompressionInfo: Sendable, Hashable {
    /// The codec that produced the body. Version 1 defines ``zstdCodec`` only.
    public var codec: UInt8
    /// The trained dictionary the body was compressed with; 0 means none.
    public var dictionaryID: UInt32
    /// The body's length once decompressed, so a receiver can check it against its limits
    /// before it allocates anything.
    public var contentSize: UInt64

    /// The zstd codec (RFC 8878 frames).
    public static let zstdCodec: UInt8 = 1

    /// Creates a compression header.
    public init(codec: UInt8 = CompressionInfo.zstdCodec, dictionaryID: UInt32 = 0, contentSize: UInt64) {
        self.codec = codec
        self.dictionaryID = dictionaryID
        self.contentSize = contentSize
    }
}
