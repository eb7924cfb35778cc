import GroupWire

/// A message body as it travels in a compressed frame: the compressed bytes and the
/// frame's compression header (Spec/FORMAT.md, "Compression header" and "Compressed bodies").
public struct CompressedBody: Sendable, Hashable {
    /// The frame's compression header: codec, dictionary id, decompressed size.
    public var info: CompressionInfo
    /// The compressed bytes: exactly one standard zstd frame.
    public var bytes: [UInt8]

    /// Creates a compressed body.
    public init(info: CompressionInfo, bytes: [UInt8]) {
        self.info = info
        self.bytes = bytes
    }
}
