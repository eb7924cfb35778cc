import GroupWire
import GroupWireNegotiation
import Testing

@testable import GroupWireSession

/// The messenger's negotiation bookkeeping, step by step: profiles, held messages, verdicts.
@Suite struct PeerNegotiationTests {
    static func make(_ schema: HelloSchema, beforeAgreement: NegotiationSettings.BeforeAgreement = .hold(messages: 4, bytes: 100))
        -> (PeerNegotiation, AsyncStream<NegotiationWork>)
    {
        let (stream, continuation) = AsyncStream<NegotiationWork>.makeStream()
        let settings = NegotiationSettings(schema: schema, beforeAgreement: beforeAgreement)
        let hello = settings.hello(codec: nil, limits: .default, transportMaxMessageSize: 65_536)
        return (PeerNegotiation(settings: settings, hello: hello, outbox: continuation), stream)
    }

    @Test func aHelloBeforeTheJoinKeepsItsAgreedProfileWhenTheJoinComes() throws {
        let (negotiation, _) = Self.make(try NegotiationSpecs.v1())
        let peer = ParticipantID.numbered(2)
        let theirs = Hello(codecs: [], maxFrameSize: 1_200, schema: try NegotiationSpecs.v2())
        let control = ReceivedControl(source: peer, controlID: Hello.controlID, payload: try theirs.payload())
        let profiles = negotiation.handle(.control(control), now: .zero)
        #expect(profiles.count == 1 && profiles[0].0 == peer && profiles[0].1?.maxFrameSize == 1_200)
        #expect(negotiation.handle(.joined(peer), now: .milliseconds(1)).isEmpty)
        // A peer seen first by its join starts on the baseline profile.
        let newcomer = ParticipantID.numbered(3)
        let joined = negotiation.handle(.joined(newcomer), now: .milliseconds(2))
        #expect(joined.count == 1 && joined[0].1 == PeerNegotiation.baseline)
    }

    /// A send that sees the agreement also sees its profile: both are decided in one step,
    /// so a thread preempted between them (a busy machine) cannot make a message go out on
    /// the baseline profile to a peer that agreed on another (seen: a compressed snapshot
    /// sent uncompressed right after `negotiationState` said agreed).
    @Test func aRouteToAnAgreedPeerCarriesTheProfileOfItsAgreement() throws {
        let (negotiation, _) = Self.make(try NegotiationSpecs.v1())
        let peer = ParticipantID.numbered(2)
        _ = negotiation.handle(.joined(peer), now: .zero)
        let before = try negotiation.route(typeID: 1, typeName: "UpsertStroke", to: [peer])
        #expect(before.now.isEmpty && before.profiles.isEmpty, "held before agreement")
        let theirs = Hello(codecs: [], maxFrameSize: 1_300, schema: try NegotiationSpecs.v1())
        _ = negotiation.handle(
            .control(ReceivedControl(source: peer, controlID: Hello.controlID, payload: try theirs.payload())),
            now: .milliseconds(1))
        // No profile change has been handed to anybody: the route alone carries it.
        let route = try negotiation.route(typeID: 1, typeName: "UpsertStroke", to: [peer])
        #expect(route.now == [peer] && route.later.isEmpty)
        #expect(route.profiles[peer]?.maxFrameSize == 1_300 && route.profiles[peer] == negotiation.profile(of: peer))
        _ = negotiation.handle(.left(peer), now: .milliseconds(2))
        #expect(negotiation.profile(of: peer) == nil)
    }

    /// GroupWire's own types (the playback coordinator's) are in no app's schema: they go to
    /// an agreed peer whatever its spec, held ones included, where an app's unknown type does not.
    @Test func groupWiresOwnTypesGoToAnAgreedPeerOutsideTheAgreement() throws {
        let (negotiation, _) = Self.make(try NegotiationSpecs.v1())
        let peer = ParticipantID.numbered(2)
        _ = negotiation.handle(.joined(peer), now: .zero)
        for typeID: UInt64 in [0xFFFF_FF00, 77] {
            _ = try negotiation.hold(HeldMessage(typeID: typeID, payload: [1], session: nil, mode: .reliable), for: [peer])
        }
        let control = ReceivedControl(
            source: peer, controlID: Hello.controlID, payload: try Hello(schema: try NegotiationSpecs.v1()).payload())
        _ = negotiation.handle(.control(control), now: .milliseconds(1))
        #expect(negotiation.takeHeld(for: peer)?.map(\.typeID) == [0xFFFF_FF00])
        #expect(negotiation.takeHeld(for: peer) == nil, "the held messages are sent")
        for typeID: UInt64 in [0xFFFF_FF00, 0xFFFF_FF04, 0xFFFF_FFFF] {
            let route = try negotiation.route(typeID: typeID, typeName: "PlaybackTimelineMessage", to: [peer])
            #expect(route.now == [peer] && route.skipped.isEmpty, "type id \(typeID)")
        }
        let unknown = try negotiation.route(typeID: 0xFFFF_FEFF, typeName: "Other", to: [peer])
        #expect(unknown.now.isEmpty && unknown.skipped.map(\.participant) == [peer])
        #expect(negotiation.rejection(typeID: 0xFFFF_FF00, from: peer) == nil)
    }

    @Test func heldMessagesAreBoundedSentInOrderAndFilteredByTheVerdict() throws {
        let (negotiation, _) = Self.make(try NegotiationSpecs.v1())
        let peer = ParticipantID.numbered(2)
        _ = negotiation.handle(.joined(peer), now: .zero)
        let route = try negotiation.route(typeID: 1, typeName: "UpsertStroke", to: [peer])
        #expect(route.now.isEmpty && route.later == [peer])
        for typeID: UInt64 in [1, 2, 1] {
            #expect(
                try negotiation.hold(
                    HeldMessage(typeID: typeID, payload: [UInt8(typeID)], session: nil, mode: .reliable), for: [peer]
                ).isEmpty)
        }
        #expect(throws: WireError.self) {
            _ = try negotiation.hold(
                HeldMessage(typeID: 1, payload: Array(repeating: 0, count: 98), session: nil, mode: .reliable), for: [peer])
        }
        // The peer speaks the breaking spec: UpsertStroke is incompatible, CanvasSnapshot unknown.
        let control = ReceivedControl(
            source: peer, controlID: Hello.controlID, payload: try Hello(schema: try NegotiationSpecs.broken()).payload())
        _ = negotiation.handle(.control(control), now: .milliseconds(5))
        #expect(negotiation.takeHeld(for: peer)?.isEmpty == true)
        #expect(negotiation.takeHeld(for: peer) == nil)
        #expect(negotiation.statistics.messagesHeld == 3 && negotiation.statistics.recipientsSkipped == 3)
        #expect(negotiation.rejection(typeID: 1, from: peer)?.kind == .recipientCannotRead)
        #expect(
            negotiation.rejection(typeID: 1, from: peer)?.context
                == "UpsertStroke from \(peer): incompatible (GW004 field-wire-type-changed UpsertStroke.color)")
    }
}
