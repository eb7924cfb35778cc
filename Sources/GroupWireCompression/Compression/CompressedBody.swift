import GroupWire

/// A message body as it travels in a compressed frame, with the fields of the compressed
/// frame header (see "Compression" in Spec/FORMAT.md).
public struct CompressedBody: Sendable, Hashable {
    /// The codec id; 1 is zstd, the only codec defined.
    public var codec: UInt8
    /// The dictionary the body was compressed with, 0 for none.
    public var dictionaryID: UInt32
    /// The length of the body once decompressed.
    public var contentSize: Int
    /// The compressed bytes: one standard zstd frame.
    public var bytes: [UInt8]

    /// The codec id of zstd.
    public static let zstdCodec: UInt8 = 1

    /// Creates a compressed body.
    public init(codec: UInt8 = zstdCodec, dictionaryID: UInt32, contentSize: Int, bytes: [UInt8]) {
        self.codec = codec
        self.dictionaryID = dictionaryID
        self.contentSize = contentSize
        self.bytes = bytes
    }
}
