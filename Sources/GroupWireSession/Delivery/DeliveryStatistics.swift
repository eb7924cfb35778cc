/// What a ``DeliveryTransport`` did so far.
public struct DeliveryStatistics: Sendable, Hashable {
    /// Frames sent the first time, reliable and unreliable, one per recipient.
    public var framesSent = 0
    /// Frames sent again after a timeout or a repeated acknowledgement.
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
    /// Frames that failed the delivery header's checks (checksum, ranges) and were dropped.
    public var rejected = 0
    /// The recipients removed because their acknowledgements stopped, in order.
    public var removedPeers: [ParticipantID] = []
    /// Bytes of reliable frames kept for retransmission now, over all recipients.
    public var bufferedBytes = 0

    /// Creates empty statistics.
    public init() {}
}
