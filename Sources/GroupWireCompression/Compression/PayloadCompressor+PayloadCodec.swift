import GroupWire

/// The zstd codec a messenger plugs in: `Messenger(transport:configuration:
/// .init(codec: try PayloadCompressor()))`.
extension PayloadCompressor: PayloadCodec {
    /// `CompressionInfo.zstdCodec`.
    public var codecID: UInt8 { CompressionInfo.zstdCodec }

    /// The policy's dictionary, 0 when it has none.
    public var preferredDictionaryID: UInt32 { policy.dictionaryID ?? 0 }

    /// Compresses at the policy's level with dictionary `dictionaryID` (0: none). The
    /// threshold is the policy's for its own dictionary, otherwise the default threshold
    /// for compressing with (or without) a dictionary.
    /// - Throws: `WireError` `.unknownDictionary`, `.compressionFailed`.
    public func compressPayload(_ payload: [UInt8], dictionaryID: UInt32) throws(WireError) -> [UInt8]? {
        let threshold = compressionThreshold(dictionaryID: dictionaryID)
        return try Self.typed {
            try compress(payload, dictionaryID: dictionaryID == 0 ? nil : dictionaryID, threshold: threshold)?.bytes
        }
    }

    /// The policy's threshold for its own dictionary; the default threshold of another.
    public func compressionThreshold(dictionaryID: UInt32) -> Int {
        let dictionary = dictionaryID == 0 ? nil : dictionaryID
        return dictionary == policy.dictionaryID
            ? policy.threshold
            : CompressionPolicy(level: policy.level, dictionaryID: dictionary).threshold
    }

    /// Decompresses within the compressor's limits (see ``decompress(_:info:)``).
    /// - Throws: the `WireError` of ``decompress(_:info:)``.
    public func decompressPayload(_ body: [UInt8], info: CompressionInfo) throws(WireError) -> [UInt8] {
        try Self.typed { try decompress(body, info: info) }
    }

    /// The store's dictionary files: the policy's first, then the others by ascending id.
    public func dictionaryFiles() -> [[UInt8]] {
        let preferred = policy.dictionaryID
        let ids = (preferred.map { [$0] } ?? []) + dictionaries.ids.filter { $0 != preferred }
        return ids.compactMap { dictionaries.dictionary(id: $0)?.bytes }
    }

    /// Runs `body`, passing a `WireError` through and wrapping anything else.
    private static func typed<T>(_ body: () throws -> T) throws(WireError) -> T {
        do {
            return try body()
        } catch let error as WireError {
            throw error
        } catch {
            throw WireError(.compressionFailed, "\(error)")
        }
    }
}
