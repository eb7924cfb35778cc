/// Counters a ``Reassembler`` keeps, as a snapshot that can be handed to any task.
public struct ReassemblyMetrics: Sendable, Hashable {
    /// Frames handed to the reassembler, of every kind.
    public var framesReceived = 0
    /// Data and control frames passed straight through (already whole messages).
    public var wholeFrames = 0
    /// Fragments whose bytes were copied into a partial message.
    public var fragmentsAccepted = 0
    /// Exact duplicates of fragments already held, ignored.
    public var duplicateFragments = 0
    /// Fragments of messages already completed or dropped, ignored.
    public var lateFragments = 0
    /// Messages reassembled from fragments and returned.
    public var messagesReassembled = 0
    /// Body bytes of the messages reassembled.
    public var bytesReassembled = 0
    /// Messages dropped, for any reason (the sum of ``drops``).
    public var messagesDropped = 0
    /// Messages dropped, by reason.
    public var drops: [DropReason: Int] = [:]
    /// Partial messages held now.
    public var partialMessages = 0
    /// Bytes accounted to partial messages now (message buffers plus bookkeeping).
    public var accountedBytes = 0
    /// The most bytes ever accounted at once.
    public var peakAccountedBytes = 0

    /// Creates zeroed metrics.
    public init() {}

    /// How many messages were dropped for `reason`.
    public func dropped(_ reason: DropReason) -> Int {
        drops[reason, default: 0]
    }
}
