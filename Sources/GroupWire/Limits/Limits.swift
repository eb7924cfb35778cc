/// The bounds every GroupWire decoder enforces on untrusted input.
///
/// Each limit is checked before anything is allocated from a length or count read off
/// the wire. Exceeding one raises a ``WireError`` of kind ``WireError/Kind/limitExceeded``
/// (or ``WireError/Kind/frameTooLarge`` / ``WireError/Kind/depthExceeded``) that names the
/// limit and the value seen. The defaults suit the platform messenger, whose messages are
/// at most 64 KB (256 KB on later releases).
public struct Limits: Sendable, Hashable {
    /// Largest whole frame, magic byte through checksum, in bytes. Default 65,536, so one
    /// frame always fits a 64 KB messenger message.
    public var maxFrameSize: Int
    /// Largest message body after reassembly and decompression, in bytes. Default 16 MiB.
    public var maxMessageSize: Int
    /// Deepest nesting of containers or messages. Default 64.
    public var maxNestingDepth: Int
    /// Most elements in one array, map or container. Default 1,048,576.
    public var maxCollectionCount: Int
    /// Longest string, in UTF-8 bytes. Default 1 MiB.
    public var maxStringLength: Int
    /// Longest byte string, in bytes. Default 16 MiB.
    public var maxBytesLength: Int
    /// Most fragments one message may be split into. Default 4,096.
    public var maxFragmentCount: Int
    /// Most values one message decodes to, counted over the whole message: nested
    /// messages, elements of packed arrays, strings, byte strings, map entries and kept
    /// unknown fields (generated decoders and the dynamic codec), containers and their
    /// elements (the `Codable` decoder). Default 1,048,576.
    ///
    /// The wire-size limits bound what a message takes on the wire; this bounds what it
    /// expands to: an empty nested message is two bytes on the wire and tens of bytes
    /// decoded, so a 16 MiB message of them would cost hundreds of megabytes.
    public var maxDecodedValues: Int
    /// The most a compressed body may expand: its declared decompressed size may be at most
    /// this many times its compressed size (or ``decompressionRatioExemption``, whichever is
    /// larger), checked before anything is decompressed. Default 64.
    ///
    /// Real payloads compress far less: the demo's canvas snapshots 4.6:1, protobuf-like
    /// payloads of small messages with a trained dictionary about 1.2:1; 64 leaves more than
    /// ten times that while refusing a bomb (a 1,409-byte frame declaring 16 MB is 11,000:1).
    public var maxDecompressionRatio: Int
    /// The decompressed size that is allowed whatever the ratio: 65,536 bytes by default,
    /// what one messenger message holds uncompressed, so that small, very repetitive
    /// messages (a canvas of one colour) still decompress.
    public var decompressionRatioExemption: Int

    /// Creates limits; every argument defaults to the documented default.
    public init(
        maxFrameSize: Int = 65_536,
        maxMessageSize: Int = 16 << 20,
        maxNestingDepth: Int = 64,
        maxCollectionCount: Int = 1 << 20,
        maxStringLength: Int = 1 << 20,
        maxBytesLength: Int = 16 << 20,
        maxFragmentCount: Int = 4_096,
        maxDecodedValues: Int = 1 << 20,
        maxDecompressionRatio: Int = 64,
        decompressionRatioExemption: Int = 65_536
    ) {
        self.maxFrameSize = maxFrameSize
        self.maxMessageSize = maxMessageSize
        self.maxNestingDepth = maxNestingDepth
        self.maxCollectionCount = maxCollectionCount
        self.maxStringLength = maxStringLength
        self.maxBytesLength = maxBytesLength
        self.maxFragmentCount = maxFragmentCount
        self.maxDecodedValues = maxDecodedValues
        self.maxDecompressionRatio = maxDecompressionRatio
        self.decompressionRatioExemption = decompressionRatioExemption
    }

    /// The largest decompressed size allowed for a compressed body of `compressedSize`
    /// bytes: ``maxDecompressionRatio`` times it, or ``decompressionRatioExemption``,
    /// whichever is larger (never more than ``maxMessageSize``, checked on its own).
    public func maxDecompressedSize(compressedSize: Int) -> Int {
        let (scaled, overflow) = max(0, compressedSize).multipliedReportingOverflow(by: max(0, maxDecompressionRatio))
        return max(overflow ? Int.max : scaled, decompressionRatioExemption)
    }

    /// The documented defaults.
    public static let `default` = Limits()
}
