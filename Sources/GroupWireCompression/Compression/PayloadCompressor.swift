import GroupWire

/// Compresses message payloads by a ``CompressionPolicy`` and decompresses them within the
/// receiver's ``Limits``, looking dictionaries up in a ``DictionaryStore``.
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
    ///   - dictionaries: the dictionaries this peer holds.
    ///   - limits: the receiver's limits; decompressed bodies never exceed `maxMessageSize`.
    /// - Throws: ``WireError`` `.invalidValue` for a level out of range,
    ///   `.unknownDictionary` when the policy names a dictionary the store lacks.
    public init(policy: CompressionPolicy = .default, dictionaries: DictionaryStore? = nil, limits: Limits = .default)
        throws
    {
        let dictionaries = try dictionaries ?? DictionaryStore()
        if let id = policy.dictionaryID {
            _ = try dictionaries.require(id: id)
        }
        self.policy = policy
        self.limits = limits
        self.dictionaries = dictionaries
        self.compressor = try ZstdCompressor(level: policy.level)
        self.decompressor = ZstdDecompressor(limits: limits)
    }

    /// Compresses `payload` if the policy says so and it gets smaller.
    /// - Returns: the compressed body, or nil when the payload should travel uncompressed
    ///   (under the threshold, or not strictly smaller once compressed).
    /// - Throws: ``WireError`` `.unknownDictionary` if the policy's dictionary was removed
    ///   from the store, `.compressionFailed` if libzstd fails.
    public func compress(_ payload: [UInt8]) throws -> CompressedBody? {
        guard policy.shouldCompress(size: payload.count), payload.count > 1 else {
            return nil
        }
        let dictionary = try policy.dictionaryID.map { try dictionaries.require(id: $0) }
        // Capacity one less than the payload: libzstd gives up as soon as the frame could
        // not be strictly smaller, so incompressible payloads cost as little as possible.
        guard let bytes = try compressor.compress(payload, dictionary: dictionary, capacity: payload.count - 1) else {
            return nil
        }
        return CompressedBody(dictionaryID: dictionary?.id ?? 0, contentSize: payload.count, bytes: bytes)
    }

    /// Decompresses a body received in a compressed frame.
    /// - Parameters:
    ///   - bytes: the frame's body.
    ///   - codec: the frame's codec id.
    ///   - dictionaryID: the frame's dictionary id (0 = none).
    ///   - contentSize: the frame's declared decompressed length.
    /// - Returns: the decompressed payload, exactly `contentSize` bytes.
    /// - Throws: ``WireError``: `.unknownCodec`, `.invalidValue` (a dictionary id over 32
    ///   bits), `.unknownDictionary` (naming the id), `.decompressedSizeExceeded` (before
    ///   any allocation), `.contentSizeMismatch`, `.dictionaryMismatch`, `.truncated`,
    ///   `.trailingBytes`, `.decompressionFailed`, `.limitExceeded`.
    public func decompress(_ bytes: [UInt8], codec: UInt8, dictionaryID: UInt64, contentSize: UInt64) throws
        -> [UInt8]
    {
        guard codec == CompressedBody.zstdCodec else {
            throw WireError(.unknownCodec, "compression codec \(codec) is unknown; 1 (zstd) is the only codec")
        }
        guard contentSize <= UInt64(max(0, limits.maxMessageSize)) else {
            throw WireError(
                .decompressedSizeExceeded,
                "declared content size \(contentSize) is over the \(limits.maxMessageSize)-byte message limit")
        }
        guard let id = UInt32(exactly: dictionaryID) else {
            throw WireError(.invalidValue, "dictionary id \(dictionaryID) does not fit 32 bits")
        }
        let dictionary: ZstdDictionary?
        if id == 0 {
            dictionary = nil
        } else {
            guard let found = dictionaries.dictionary(id: id) else {
                throw WireError(
                    .unknownDictionary, "frame was compressed with dictionary \(id), which this receiver does not have")
            }
            dictionary = found
        }
        // safe because contentSize <= maxMessageSize, an Int.
        return try decompressor.decompress(bytes, expectedSize: Int(contentSize), dictionary: dictionary)
    }

    /// Decompresses a ``CompressedBody``.
    /// - Throws: as ``decompress(_:codec:dictionaryID:contentSize:)``; `.invalidValue` for a
    ///   negative content size.
    public func decompress(_ body: CompressedBody) throws -> [UInt8] {
        guard let contentSize = UInt64(exactly: body.contentSize) else {
            throw WireError(.invalidValue, "content size \(body.contentSize) is negative")
        }
        return try decompress(
            body.bytes, codec: body.codec, dictionaryID: UInt64(body.dictionaryID), contentSize: contentSize)
    }
}
