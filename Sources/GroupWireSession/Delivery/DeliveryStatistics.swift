/// What a ``DeliveryTransport`` did so far.
public struct DeliveryStatistics: Sendable, Hashable {
    /// Frames sent the first time, reliable and unreliable, one per recipient.
    public var framesSent = 0
    /// Frames sent again: declared lost, as a probe when acknowledgements stop, as the
    /// probe a removed recipient gets at the longest probe interval, or as the second copy
    /// of a doubled repair (``doubledRepairs``).
    public var retransmitted = 0
    /// Repairs of a frame declared lost, sent as its third copy or later, that went twice:
    /// the same copy again at the next timer tick, while still in flight (also counted in
    /// ``retransmitted``).
    public var doubledRepairs = 0
    /// Frames declared lost (a later frame acknowledged past the packet or time threshold).
    public var framesLost = 0
    /// Frames declared lost that arrived after all (their acknowledgement came too soon
    /// to be for the copy sent again); each widens the reordering the sender tolerates.
    public var spuriousLosses = 0
    /// Probe timeouts that fired (each sends one frame again).
    public var probeTimeouts = 0
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
    /// Congestion events: a window cut to 0.7 of itself, or to the minimum after persistent
    /// congestion.
    public var congestionEvents = 0
    /// Each reachable recipient's round trip, congestion window and pacing now.
    public var paths: [ParticipantID: DeliveryPathStatistics] = [:]
    /// Bytes of reliable frames kept for retransmission now, over all recipients (removed
    /// ones too, until they leave or are taken back).
    public var bufferedBytes = 0

    /// Creates empty statistics.
    public init() {}
}

/// The state of the reliable stream to one recipient: what loss detection and congestion
/// control know of the path (Spec/FORMAT.md, "Delivery").
public struct DeliveryPathStatistics: Sendable, Hashable {
    /// The smoothed round trip (before the first sample: the configuration's initial round trip).
    public var smoothedRTT: Duration
    /// The round trip's variation (before the first sample: half the initial round trip).
    public var rttVariation: Duration
    /// The smallest round-trip sample (zero before the first).
    public var minRTT: Duration
    /// The latest round-trip sample (zero before the first).
    public var latestRTT: Duration
    /// The congestion window in bytes.
    public var congestionWindow: Int
    /// The bytes sent and not yet acknowledged or declared lost.
    public var bytesInFlight: Int
    /// Where slow start ends (nil: still in the first slow start).
    public var slowStartThreshold: Int?
    /// The pacer's rate in bytes per second.
    public var pacingRate: Double
    /// Later frames acknowledged before a frame is declared lost (3, widened by reordering).
    public var packetThreshold: Int
    /// The extra delay of overtaken frames tolerated beyond the smoothed round trip.
    public var reorderingDelay: Duration
    /// How much later than a frame another may have been sent and still arrive first
    /// before the first is declared lost (Spec/FORMAT.md, "Loss"): at least 9/8 of how late
    /// most of the frames that arrived far out of order lately were (later than a probe
    /// timeout beyond the round trip, once 8 of them count).
    public var reorderingTolerance: Duration
    /// Consecutive probe timeouts without an acknowledgement.
    public var probeCount: Int
    /// Frames kept: sent and waiting for acknowledgement, or not sent yet (window or pacer).
    public var framesKept: Int
    /// Of the frames kept, those not sent yet (held by the window or the pacer).
    public var framesNotSent: Int
}
