import GroupWire

/// Compresses message payloads by a ``CompressionPolicy`` and decompresses them within the
/// receiver's `Limits`, looking dictionaries up in a ``DictionaryStore``.
///
/// One instance serves any number of concurrent tasks: the zstd contexts it uses are
/// pooled and reused, never created per message.
public final class PayloadCompressor: Sendable {
    /// The policy used when sending.
    public let policy: CompressionPolicy
    /// The limits enforced when receiving.
    public let limits: Limits
    /// The dictionaries available for both directions.
    public let dictionaries: DictionaryStore
    private let compressor: ZstdCompressor
    private let decompressor: ZstdDecompressor

    /// Creates a payload compressor.
    /// - Parameters:
    ///   - policy: when and how to compress outgoing payloads.
    ///   - dictionaries: the dictionaries this peer holds (default: none).
    ///   - limits: the receiver's limits; decompressed bodies never exceed `maxMessageSize`.
    /// - Throws: `WireError` `.invalidValue` for a level out of range,
    ///   `.unknownDictionary` when the policy names a dictionary the store lacks.
    public init(policy: CompressionPolicy = .default, dictionaries: DictionaryStore? = nil, limits: Limits = .default)
        throws(WireError)
    {
        let store: DictionaryStore
        if let dictionaries {
            store = dictionaries
        } else {
            store = try DictionaryStore()
        }
        if let id = policy.dictionaryID {
            _ = try store.require(id: id)
        }
        self.policy = policy
        self.limits = limits
        self.dictionaries = store
        self.compressor = try ZstdCompressor(level: policy.level)
        self.decompressor = ZstdDecompressor(limits: limits)
    }

    /// Compresses `payload` if the policy says so and it gets strictly smaller.
    /// - Returns: the compressed body, or nil when the payload should travel uncompressed
    ///   (under the threshold, or not strictly smaller once compressed).
    /// - Throws: `WireError` `.unknownDictionary` if the policy's dictionary was removed
    ///   from the store, `.compressionFailed` if libzstd fails.
    public func compress(_ payload: [UInt8]) throws(WireError) -> CompressedBody? {
        try compress(payload, dictionaryID: policy.dictionaryID, threshold: policy.threshold)
    }

    /// Compresses `payload` with the policy's level, the dictionary `dictionaryID` (nil:
    /// none) and `threshold`, keeping the result only when it is strictly smaller.
    func compress(_ payload: [UInt8], dictionaryID: UInt32?, threshold: Int) throws(WireError) -> CompressedBody? {
        guard payload.count >= threshold, payload.count > 1 else {
            return nil
        }
        let dictionary = try dictionaryID.map { (id) throws(WireError) in try dictionaries.require(id: id) }
        // Capacity one less than the payload: libzstd gives up as soon as the frame could
        // not be strictly smaller, so incompressible payloads cost as little as possible.
        guard let bytes = try compressor.compress(payload, dictionary: dictionary, capacity: payload.count - 1) else {
            return nil
        }
        let info = CompressionInfo(dictionaryID: dictionary?.id ?? 0, contentSize: UInt64(payload.count))
        return CompressedBody(info: info, bytes: bytes)
    }

    /// Decompresses a body received with compression header `info`.
    /// - Parameters:
    ///   - bytes: the compressed body (one zstd frame).
    ///   - info: the frame's compression header.
    /// - Returns: the decompressed payload, exactly `info.contentSize` bytes.
    /// - Throws: `WireError`: `.unknownCodec`, `.unknownDictionary` (naming the id),
    ///   `.decompressedSizeExceeded` (before any allocation), `.contentSizeMismatch`,
    ///   `.dictionaryMismatch`, `.truncated`, `.trailingBytes`, `.decompressionFailed`,
    ///   `.limitExceeded` (a streamed frame's window over the cap).
    public func decompress(_ bytes: [UInt8], info: CompressionInfo) throws(WireError) -> [UInt8] {
        guard info.codec == CompressionInfo.zstdCodec else {
            throw WireError(.unknownCodec, "compression codec \(info.codec) is unknown; 1 (zstd) is the only codec")
        }
        guard info.contentSize <= UInt64(max(0, decompressor.maxOutputSize)) else {
            throw WireError(
                .decompressedSizeExceeded,
                "declared content size \(info.contentSize) is over the \(decompressor.maxOutputSize)-byte message limit")
        }
        let allowed = limits.maxDecompressedSize(compressedSize: bytes.count)
        guard info.contentSize <= UInt64(allowed) else {
            throw WireError(
                .decompressedSizeExceeded,
                "declared content size \(info.contentSize) from \(bytes.count) compressed bytes is over maxDecompressionRatio "
                    + "\(limits.maxDecompressionRatio) (at most \(allowed) bytes)")
        }
        // safe because contentSize <= maxOutputSize, an Int.
        return try decompressor.decompress(
            bytes, expectedSize: Int(info.contentSize), dictionaryID: info.dictionaryID, from: dictionaries)
    }

    /// Decompresses a ``CompressedBody``.
    /// - Throws: as ``decompress(_:info:)``.
    public func decompress(_ body: CompressedBody) throws(WireError) -> [UInt8] {
        try decompress(body.bytes, info: body.info)
    }
}
