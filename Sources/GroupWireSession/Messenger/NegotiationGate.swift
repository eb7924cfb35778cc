import GroupWire
import GroupWireNegotiation

/// Negotiation as the messenger's sends and receives meet it: which recipients get a
/// message now and in which profile (the rest later, or never), hellos taken out of the
/// received control messages, data from peers whose agreement refuses its type, and the
/// work negotiation asks for (hellos, messages held for a peer that agreed).
struct NegotiationGate: Sendable {
    let negotiation: PeerNegotiation
    let planner: SendPlanner

    /// Who gets a message now: the recipients that agreed and read its type; those still
    /// negotiating get it later (held) or now in the baseline profile.
    /// - Returns: the recipients for now with the profiles their agreements give (nil when
    ///   nobody gets it now), and those left out.
    func recipients(
        _ recipients: Recipients, typeID: UInt64, typeName: String, session: UInt32?, mode: DeliveryMode,
        payload: () throws(WireError) -> [UInt8]
    ) throws(WireError) -> (now: (recipients: Recipients, profiles: [ParticipantID: PeerProfile])?, skipped: [SkippedRecipient]) {
        let route = try negotiation.route(typeID: typeID, typeName: typeName, to: recipients.participants ?? planner.reachable)
        var now = route.now
        var profiles = route.profiles
        if !route.later.isEmpty {
            let held = HeldMessage(typeID: typeID, payload: try payload(), session: session, mode: mode)
            for peer in try negotiation.hold(held, for: route.later) {
                now.insert(peer)
                profiles[peer] = negotiation.profile(of: peer)
            }
        }
        return (now.isEmpty ? nil : (.only(now), profiles), route.skipped)
    }

    /// Takes in a membership change or a hello; the profiles it changes are set.
    func handle(_ input: SessionInput, now: Duration) {
        planner.setProfiles(negotiation.handle(input, now: now))
    }

    /// Why data of `typeID` from `peer` is refused under its agreement; nil when it is not.
    func rejection(typeID: UInt64, from peer: ParticipantID) -> WireError? {
        negotiation.rejection(typeID: typeID, from: peer)
    }

    /// Does what negotiation asks: a hello to a peer, or the messages held for a peer
    /// that agreed, in the order they were sent, until none are left.
    func perform(_ work: NegotiationWork, sender: MessageSender) async {
        switch work {
        case .hello(let body, let peer):
            // A lost hello is sent again by the engine's timer; a closed transport ends everything.
            try? await sender.sendControl(Hello.controlID, payload: body, to: .only([peer]))
        case .flush(let peer):
            while let held = negotiation.takeHeld(for: peer) {
                for message in held {
                    let agreed = negotiation.profile(of: peer).map { [peer: $0] } ?? [:]
                    let (messageID, groups) = planner.plan(.only([peer]), agreed: agreed)
                    do {
                        try await sender.send(
                            kind: .data, typeID: message.typeID, payload: message.payload, messageID: messageID,
                            groups: groups, session: message.session, mode: message.mode)
                    } catch {
                        sender.counters.countRejected(error)
                    }
                }
            }
        }
    }
}
