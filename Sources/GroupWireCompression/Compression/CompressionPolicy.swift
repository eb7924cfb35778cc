/// When and how a sender compresses a message body.
///
/// A body is compressed only when it is at least ``threshold`` bytes long, and the
/// compressed form is kept only when it is strictly smaller than the original; otherwise
/// the frame carries the body uncompressed. Small messages are where compression costs
/// the most time for the least gain (a 200-byte body takes several microseconds to
/// compress without a dictionary and usually grows), so the default thresholds skip them.
public struct CompressionPolicy: Sendable, Hashable {
    /// The default zstd level, 3 (zstd's own default).
    public static let defaultLevel = 3
    /// The default threshold without a dictionary: 1 KiB.
    public static let defaultThreshold = 1024
    /// The default threshold with a dictionary: 128 bytes.
    public static let defaultDictionaryThreshold = 128

    /// The zstd compression level.
    public var level: Int
    /// The smallest body, in bytes, that is worth trying to compress.
    public var threshold: Int
    /// The id of the dictionary to compress with, or nil for none.
    public var dictionaryID: UInt32?

    /// Creates a policy.
    /// - Parameters:
    ///   - level: the zstd level (default ``defaultLevel``).
    ///   - threshold: the smallest body worth compressing; nil picks
    ///     ``defaultDictionaryThreshold`` with a dictionary and ``defaultThreshold`` without.
    ///   - dictionaryID: the dictionary to compress with, or nil.
    public init(level: Int = defaultLevel, threshold: Int? = nil, dictionaryID: UInt32? = nil) {
        self.level = level
        self.threshold = threshold ?? (dictionaryID == nil ? Self.defaultThreshold : Self.defaultDictionaryThreshold)
        self.dictionaryID = dictionaryID
    }

    /// The default policy: level 3, no dictionary, 1 KiB threshold.
    public static let `default` = CompressionPolicy()

    /// A policy that never compresses.
    public static let never = CompressionPolicy(threshold: Int.max)

    /// Whether a body of `size` bytes should be compressed at all.
    public func shouldCompress(size: Int) -> Bool {
        size >= threshold
    }
}
