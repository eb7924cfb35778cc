import CZstd
import GroupWire

/// Trains zstd dictionaries from sample messages with ZDICT (`ZDICT_trainFromBuffer`), the
/// same trainer `zstd --train` uses, so the result is a standard zstd dictionary file.
public enum DictionaryTrainer {
    /// Default dictionary capacity, in bytes (16 KiB): enough for the shared field keys,
    /// UUID prefixes and strings of small messages, small enough to load quickly.
    public static let defaultSize = 16 * 1024
    /// Smallest capacity accepted (ZDICT needs room for its entropy tables), in bytes.
    public static let minimumSize = 256
    /// Fewest samples accepted: ZDICT cannot find shared content in fewer.
    public static let minimumSampleCount = 8

    /// Trains a dictionary from sample message bodies.
    ///
    /// ZDICT works best with many samples (hundreds or more) whose total size is around
    /// 100 times the dictionary size; it fails on too few or too uniform samples.
    /// - Parameters:
    ///   - samples: uncompressed message bodies, typical of what will be compressed.
    ///   - size: the dictionary's capacity in bytes; the result may be smaller.
    ///   - id: the id to stamp into the dictionary (nonzero), or nil to keep the id ZDICT
    ///     derives from the content (a hash in 32768...2^31-1, the range the zstd format
    ///     recommends for private dictionaries).
    /// - Returns: the trained dictionary.
    /// - Throws: `WireError` `.dictionaryTrainingFailed` when there are too few samples,
    ///   the size is out of range, or ZDICT fails; `.invalidDictionary` when `id` is 0.
    public static func train(samples: [[UInt8]], size: Int = defaultSize, id: UInt32? = nil) throws(WireError)
        -> ZstdDictionary
    {
        guard size >= minimumSize, size <= ZstdDictionary.maxSize else {
            throw WireError(
                .dictionaryTrainingFailed,
                "dictionary size \(size) is out of range \(minimumSize)...\(ZstdDictionary.maxSize)")
        }
        let nonEmpty = samples.filter { !$0.isEmpty }
        guard nonEmpty.count >= minimumSampleCount else {
            throw WireError(
                .dictionaryTrainingFailed,
                "need at least \(minimumSampleCount) non-empty samples, have \(nonEmpty.count)")
        }
        guard nonEmpty.count <= Int(UInt32.max) else {
            throw WireError(.dictionaryTrainingFailed, "too many samples: \(nonEmpty.count)")
        }
        var concatenated: [UInt8] = []
        concatenated.reserveCapacity(nonEmpty.reduce(0) { $0 + $1.count })
        for sample in nonEmpty {
            concatenated.append(contentsOf: sample)
        }
        let sizes = nonEmpty.map(\.count)
        var dictionary = [UInt8](repeating: 0, count: size)
        let written = dictionary.withUnsafeMutableBytes { dst in
            concatenated.withUnsafeBytes { src in
                sizes.withUnsafeBufferPointer { sizes in
                    ZDICT_trainFromBuffer(
                        dst.baseAddress, dst.count, src.baseAddress, sizes.baseAddress,
                        UInt32(truncatingIfNeeded: sizes.count))  // safe because count <= UInt32.max was checked.
                }
            }
        }
        if ZDICT_isError(written) != 0 {
            let reason = String(cString: ZDICT_getErrorName(written))
            throw WireError(
                .dictionaryTrainingFailed,
                "ZDICT_trainFromBuffer failed on \(nonEmpty.count) samples (\(concatenated.count) bytes): \(reason)")
        }
        guard written > 0, written <= dictionary.count else {
            throw WireError(.dictionaryTrainingFailed, "ZDICT_trainFromBuffer returned size \(written)")
        }
        dictionary.removeSubrange(written...)
        let trained = try ZstdDictionary(bytes: dictionary)
        guard let id, id != trained.id else {
            return trained
        }
        return try trained.withID(id)
    }
}
