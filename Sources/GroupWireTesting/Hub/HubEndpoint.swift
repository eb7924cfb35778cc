import GroupWire
import GroupWireSession

/// One participant's connection to an ``InProcessHub``.
public struct HubEndpoint: Transport {
    /// The hub this endpoint belongs to.
    public let hub: InProcessHub
    /// This participant.
    public let localParticipant: ParticipantID
    /// Messages delivered to this participant and the hub's joins and leaves; finishes
    /// when it leaves or the hub closes.
    public let events: AsyncStream<TransportEvent>

    /// The hub's guarantees: reliable and ordered for a reliable ``FaultPlan``, neither for
    /// an unreliable one; the hub's message size limit.
    public var guarantees: TransportGuarantees { hub.guarantees }

    /// The hub's time: its virtual clock, or the system's when it runs in real time.
    public var clock: TimerClock { hub.timerClock }

    /// Why ``events`` finished ("left the hub", "the hub closed"); nil before.
    public var closeReason: String? { mailbox.finishReason }

    let mailbox: EventMailbox

    /// Sends `bytes` through the hub; they arrive when the hub's time reaches their delivery time.
    public func send(_ bytes: [UInt8], to recipients: Recipients) async throws(WireError) {
        try await hub.route(bytes, from: localParticipant, to: recipients)
    }

    /// Only the messages of ``events``, for tests that look at the transport alone.
    public var messages: AsyncCompactMapSequence<AsyncStream<TransportEvent>, TransportMessage> {
        events.compactMap { event in
            if case .message(let message) = event { return message }
            return nil
        }
    }
}
