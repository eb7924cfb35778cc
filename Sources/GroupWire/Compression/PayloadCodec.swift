/// Compresses and decompresses message payloads for a pipeline, so that the core and the
/// messenger work without any compression library and one plugs in where it exists.
///
/// `GroupWireCompression`'s `PayloadCompressor` is the zstd codec. A codec decides itself
/// whether a payload is worth compressing (threshold, strictly smaller output).
public protocol PayloadCodec: Sendable {
    /// The codec id frames carry in ``CompressionInfo/codec``.
    var codecID: UInt8 { get }
    /// The dictionary the codec compresses with when nothing else is agreed, 0 for none.
    var preferredDictionaryID: UInt32 { get }

    /// Compresses `payload` with the dictionary `dictionaryID` (0: none).
    /// - Returns: the compressed body, or nil when the payload should travel uncompressed.
    /// - Throws: a ``WireError`` when the dictionary is unknown or the codec fails.
    func compressPayload(_ payload: [UInt8], dictionaryID: UInt32) throws(WireError) -> [UInt8]?

    /// Decompresses a body received with compression header `info`, never producing more
    /// than `info.contentSize` bytes (which the caller has checked against its limits).
    /// - Throws: a ``WireError`` for an unknown dictionary or a malformed body.
    func decompressPayload(_ body: [UInt8], info: CompressionInfo) throws(WireError) -> [UInt8]

    /// The smallest payload ``compressPayload(_:dictionaryID:)`` may compress with
    /// `dictionaryID`: smaller payloads always travel uncompressed, so a sender can write
    /// them straight into a frame without encoding them first. 0 (the default) when every
    /// payload may be compressed.
    func compressionThreshold(dictionaryID: UInt32) -> Int

    /// The dictionary files the codec holds (zstd format), the preferred one first: what
    /// a hello announces, each by id and content hash. Empty (the default) for none.
    func dictionaryFiles() -> [[UInt8]]
}

extension PayloadCodec {
    /// Every payload may be compressed.
    public func compressionThreshold(dictionaryID: UInt32) -> Int { 0 }

    /// No dictionaries.
    public func dictionaryFiles() -> [[UInt8]] { [] }
}
