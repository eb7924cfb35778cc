/// What a ``DeliveryTransport`` did so far.
public struct DeliveryStatistics: Sendable, Hashable {
    /// Frames sent the first time, reliable and unreliable, one per recipient.
    public var framesSent = 0
    /// Frames sent again: after a timeout, when acknowledgements show them missing, or as
    /// the probe a removed recipient gets at the longest retry interval.
    public var retransmitted = 0
    /// Acknowledgements sent.
    public var acksSent = 0
    /// Frames delivered up, exactly once each.
    public var framesDelivered = 0
    /// Frames dropped as duplicates (already delivered or already waiting).
    public var duplicatesDropped = 0
    /// Frames dropped because they named an earlier incarnation of their stream.
    public var staleDropped = 0
    /// Reliable frames dropped because the reorder buffer was full (the sender retransmits).
    public var overflowDropped = 0
    /// Unreliable frames dropped as older than the deduplication window.
    public var tooOldDropped = 0
    /// Frames this layer could not read and handed up for the messenger to reject (no
    /// frame, a bad checksum, a header out of range), and acknowledgements that are
    /// malformed or acknowledge a frame never sent. Zero between well-behaved peers,
    /// whatever the transport does to the frames.
    public var rejected = 0
    /// Acknowledgements that arrived out of date and were ignored: for an earlier stream
    /// (before a reconnect), or overtaken by a later one. Normal on a reordering link.
    public var staleAcks = 0
    /// The recipients removed because their acknowledgements stopped for
    /// ``DeliveryConfiguration/peerTimeout``, in order (reported as gone: a `.left` event).
    public var removedPeers: [ParticipantID] = []
    /// Removed recipients taken back because they were heard again, in order (reported as
    /// reachable: a `.joined` event).
    public var restoredPeers: [ParticipantID] = []
    /// Bytes of reliable frames kept for retransmission now, over all recipients (removed
    /// ones too, until they leave or are taken back).
    public var bufferedBytes = 0

    /// Creates empty statistics.
    public init() {}
}
