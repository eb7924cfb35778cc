import GroupWire

/// What a ``Messenger`` has sent and received so far.
public struct MessengerStatistics: Sendable, Hashable {
    /// Messages sent (one per `send`, however many recipients and frames).
    public var messagesSent = 0
    /// Frames handed to the transport (one per frame per distinct recipient profile).
    public var framesSent = 0
    /// Frames received from the transport.
    public var framesReceived = 0
    /// Whole messages received and handed to at least one stream.
    public var messagesDelivered = 0
    /// Whole messages received that no stream was listening for.
    public var messagesUnrouted = 0
    /// Frames or messages rejected: invalid frames, bad compressed bodies, undecodable payloads.
    public var rejected = 0
    /// Partial messages the reassembler dropped (contradictions, evictions, timeouts).
    public var partialMessagesDropped = 0
    /// The most recent rejection, with its kind, offset and context.
    public var lastRejection: WireError?

    /// Creates zeroed statistics.
    public init() {}
}
