import GroupWire
import GroupWireNegotiation

/// The messenger's receiving task, one transport event at a time: membership to the
/// planner, negotiation and the session layer; frames through the receive pipeline; a
/// whole control message to negotiation (hellos) or the session layer, a whole data
/// message (unless negotiation refuses it) to the router's streams; everything counted.
struct ReceiveLoop: Sendable {
    var pipeline: ReceivePipeline
    let limits: Limits
    let planner: SendPlanner
    let router: MessageRouter
    let session: SessionInputRelay
    let negotiation: NegotiationGate?
    let counters: MessengerCounters

    /// Handles one transport event.
    mutating func handle(_ event: TransportEvent, now: Duration) {
        let message: TransportMessage
        switch event {
        case .joined(let participant):
            planner.joined(participant)
            negotiation?.handle(.joined(participant), now: now)
            session.deliver(.joined(participant))
            return
        case .left(let participant):
            planner.left(participant)
            negotiation?.handle(.left(participant), now: now)
            session.deliver(.left(participant))
            return
        case .message(let received):
            message = received
        }
        let result = pipeline.receive(frameBytes: message.bytes, from: message.source)
        guard let whole = result.message else {
            counters.countReceived(result, delivered: false, unrouted: false)
            return
        }
        switch whole.kind {
        case .control:
            let control = ReceivedControl(source: message.source, controlID: whole.typeID, payload: whole.payload)
            if let negotiation, whole.typeID == Hello.controlID {
                counters.countReceived(result, delivered: true, unrouted: false)
                negotiation.handle(.control(control), now: now)
                return
            }
            let input = SessionInput.control(control)
            // Counted before it is handed on: the observer may send.
            let route = session.route(input)
            let routed: Bool
            if case .dropped = route { routed = false } else { routed = true }
            counters.countReceived(result, delivered: routed, unrouted: !routed)
            if case .observer(let observer) = route { observer(input) }
        case .data:
            if let rejection = negotiation?.rejection(typeID: whole.typeID, from: message.source) {
                var rejected = result
                rejected.rejection = rejection
                counters.countReceived(rejected, delivered: false, unrouted: false)
                return
            }
            switch router.deliver(whole, from: message.source, limits: limits) {
            case .delivered:
                counters.countReceived(result, delivered: true, unrouted: false)
            case .unrouted:
                counters.countReceived(result, delivered: false, unrouted: true)
            case .rejected(let error):
                var rejected = result
                rejected.rejection = error
                counters.countReceived(rejected, delivered: false, unrouted: false)
            }
        default:
            counters.countReceived(result, delivered: false, unrouted: false)
        }
    }

    /// The transport closed, for `reason`: nobody is reachable, every stream finishes, and
    /// the session layer hears it.
    func finish(reason: String) {
        planner.closed()
        router.finish(reason: reason)
        session.deliver(.closed(reason))
    }
}
