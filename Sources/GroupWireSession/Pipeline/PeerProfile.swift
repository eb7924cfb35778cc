import GroupWire

/// How to send to one recipient: the envelope version, the compression codec and
/// dictionary, and the frame and message sizes it accepts.
///
/// Every send path takes a profile per recipient. Today every recipient gets the
/// messenger's default profile; negotiation fills one per peer. A group send encodes a
/// message once per distinct profile among its recipients.
public struct PeerProfile: Sendable, Hashable {
    /// The frame format version the recipient reads; version 1 is the only one.
    public var envelopeVersion: UInt8
    /// The codec and dictionary to compress with, or nil to send payloads uncompressed.
    public var compression: CompressionChoice?
    /// The largest frame the recipient accepts (and the transport carries), in bytes.
    public var maxFrameSize: Int
    /// The largest message payload the recipient accepts, in bytes.
    public var maxMessageSize: Int

    /// Creates a profile; the sizes default to `Limits.default`.
    public init(
        envelopeVersion: UInt8 = Frame.version, compression: CompressionChoice? = nil,
        maxFrameSize: Int = Limits.default.maxFrameSize, maxMessageSize: Int = Limits.default.maxMessageSize
    ) {
        self.envelopeVersion = envelopeVersion
        self.compression = compression
        self.maxFrameSize = maxFrameSize
        self.maxMessageSize = maxMessageSize
    }

    /// The profile everybody gets before negotiation: version 1, `codec`'s preferred
    /// compression (none without a codec), and `limits`' sizes.
    public static func `default`(codec: (any PayloadCodec)?, limits: Limits = .default) -> PeerProfile {
        PeerProfile(
            compression: codec.map { CompressionChoice(codec: $0.codecID, dictionaryID: $0.preferredDictionaryID) },
            maxFrameSize: limits.maxFrameSize, maxMessageSize: limits.maxMessageSize)
    }

    /// The limits a frame written for this profile must fit.
    var limits: Limits {
        Limits(maxFrameSize: maxFrameSize, maxMessageSize: maxMessageSize)
    }
}

/// A compression codec and dictionary, as a ``PeerProfile`` names them.
public struct CompressionChoice: Sendable, Hashable {
    /// The codec id (`CompressionInfo.zstdCodec`).
    public var codec: UInt8
    /// The dictionary id, 0 for none.
    public var dictionaryID: UInt32

    /// Creates a choice.
    public init(codec: UInt8, dictionaryID: UInt32 = 0) {
        self.codec = codec
        self.dictionaryID = dictionaryID
    }
}
