import GroupWire

/// One participant's connection to an ``InProcessHub``.
public struct HubEndpoint: Transport {
    /// The hub this endpoint belongs to.
    public let hub: InProcessHub
    /// This participant.
    public let localParticipant: ParticipantID
    /// Messages delivered to this participant; finishes when it leaves or the hub closes.
    public let incoming: AsyncStream<TransportMessage>

    /// The hub's message size limit.
    public var maxMessageSize: Int { hub.maxMessageSize }
    /// The hub's delivery mode.
    public var deliveryMode: DeliveryMode { hub.plan.mode }

    /// Sends `bytes` through the hub; they arrive when the hub's time passes their delivery time.
    public func send(_ bytes: [UInt8], to recipients: Recipients) async throws(WireError) {
        try await hub.route(bytes, from: localParticipant, to: recipients)
    }
}
