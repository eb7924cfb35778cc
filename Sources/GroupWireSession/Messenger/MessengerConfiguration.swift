import GroupWire

/// How a ``Messenger`` encodes, compresses and bounds what it sends and receives.
public struct MessengerConfiguration: Sendable {
    /// The compression codec, or nil: the messenger then sends everything uncompressed
    /// and rejects compressed messages. `GroupWireCompression`'s `PayloadCompressor` is
    /// the zstd codec; it needs the system libzstd, which an iOS target lacks.
    public var codec: (any PayloadCodec)?
    /// The limits received frames and messages are checked against; also the sizes of
    /// the default profile.
    public var limits: Limits
    /// The bounds on partially received (fragmented) messages.
    public var reassemblyLimits: ReassemblyLimits
    /// The time source for reassembly timeouts; nil (the default) takes the transport's
    /// (``Transport/clock``: the system's, or a test hub's virtual clock).
    public var clock: ReassemblyClock?
    /// Negotiation with each peer (Spec/FORMAT.md, "The agreement"), or nil (the default):
    /// every peer then gets ``Messenger/defaultProfile`` and every message type.
    public var negotiation: NegotiationSettings?

    /// Creates a configuration; every argument defaults to the documented default.
    public init(
        codec: (any PayloadCodec)? = nil, limits: Limits = .default, reassemblyLimits: ReassemblyLimits = .default,
        clock: ReassemblyClock? = nil, negotiation: NegotiationSettings? = nil
    ) {
        self.codec = codec
        self.limits = limits
        self.reassemblyLimits = reassemblyLimits
        self.clock = clock
        self.negotiation = negotiation
    }
}
