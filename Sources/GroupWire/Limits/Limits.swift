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

    /// Creates limits; every argument defaults to the documented default.
    public init(
        maxFrameSize: Int = 65_536,
        maxMessageSize: Int = 16 << 20,
        maxNestingDepth: Int = 64,
        maxCollectionCount: Int = 1 << 20,
        maxStringLength: Int = 1 << 20,
        maxBytesLength: Int = 16 << 20,
        maxFragmentCount: Int = 4_096
    ) {
        self.maxFrameSize = maxFrameSize
        self.maxMessageSize = maxMessageSize
        self.maxNestingDepth = maxNestingDepth
        self.maxCollectionCount = maxCollectionCount
        self.maxStringLength = maxStringLength
        self.maxBytesLength = maxBytesLength
        self.maxFragmentCount = maxFragmentCount
    }

    /// The documented defaults.
    public static let `default` = Limits()
}
