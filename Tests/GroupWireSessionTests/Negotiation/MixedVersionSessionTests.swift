import DrawTogetherV1Golden
import DrawTogetherV2Golden
import DrawTogetherV3Golden
import Foundation
import GroupWire
import GroupWireCompression
import GroupWireNegotiation
import GroupWireSpec
import GroupWireTestSupport
import GroupWireTesting
import Synchronization
import Testing

@testable import GroupWireSession

// MixedAppVersions.md: begin
/// One line per type a peer cannot read (or one for a peer nothing typed goes to).
func unreadableTypes(after event: NegotiationEvent) -> [String] {
    switch event {
    case .agreed(let peer, let agreement):
        agreement.types.compactMap { type in
            guard let verdict = type.sending, !verdict.isReadable else { return nil }
            return "\(type.name) cannot go to \(peer): \(verdict)"  // unknown, or incompatible (GW004 …)
        }
    case .incompatible(let peer, let failure):
        ["nothing typed goes to \(peer): \(failure)"]
    }
}

/// Sends `message` and names the recipients negotiation left out, and why.
func sendReportingSkips(_ message: some MessageCodable, with messenger: Messenger) async throws -> [String] {
    let report = try await messenger.send(message)
    return report.skipped.map { "\($0.participant) did not get \(type(of: message).wireTypeName): \($0.reason)" }
}
// MixedAppVersions.md: end

/// The issue's proof: one session of DrawTogether v1, v2 and v3 peers (each with its own
/// generated types), a v3 peer without zstd, and a peer whose spec breaks UpsertStroke,
/// over the seeded lossy hub with every participant behind a delivery layer.
@Suite struct MixedVersionSessionTests {
    static var plan: FaultPlan {
        var plan = FaultPlan.unreliable(seed: 0x7E6, drop: 0.05, duplicate: 0.05, reorder: 0.1)
        plan.keyedByContent = true
        return plan
    }

    static func strokeID(_ participant: Int, _ index: Int) -> UUID {
        UUID(
            uuid: (
                UInt8(participant), UInt8(truncatingIfNeeded: index), UInt8(truncatingIfNeeded: index >> 8), 0, 0, 0, 0x40, 0,
                0x80, 0, 0, 0, 0, 0, 0, 0
            ))
    }

    /// Receives one participant's strokes and snapshots as its own version's types, as
    /// (source, stroke id) pairs and the snapshots' point counts.
    final class Inbox<Stroke: MessageCodable, Snapshot: MessageCodable>: Sendable {
        let strokes: Collected<(message: Stroke, context: MessageContext)>
        let snapshots: Collected<(message: Snapshot, context: MessageContext)>

        init(_ session: SharedSession<DrawActivity>) throws {
            strokes = Collected(try session.messenger.messages(of: Stroke.self))
            snapshots = Collected(try session.messenger.messages(of: Snapshot.self))
        }
    }

    @Test func threeVersionsAndAPeerWithoutZstdTalkAndTheBrokenPeerIsNamed() async throws {
        var party = NegotiatingParty(plan: Self.plan)
        try await party.add(schema: try NegotiationSpecs.v1())
        try await party.add(schema: try NegotiationSpecs.v2())
        try await party.add(schema: try NegotiationSpecs.v3())
        try await party.add(schema: try NegotiationSpecs.v3(), zstd: false)
        try await party.add(schema: try NegotiationSpecs.broken())
        let events = Collected(party.messengers[0].negotiationEvents())
        try await party.settle { party.allDecided }

        // Every DrawTogether pair agreed, both types readable both ways; the broken peer
        // agreed too, with UpsertStroke incompatible by rule and CanvasSnapshot unknown.
        for a in 0..<4 {
            for b in 0..<4 where a != b {
                let agreement = try #require(party.agreement(a, b))
                #expect(agreement.types.map(\.typeID) == [1, 2])
                #expect(agreement.types.allSatisfy { $0.sending?.isReadable == true && $0.receiving?.isReadable == true })
                let zstd = a != 3 && b != 3
                #expect(agreement.sending.codec == (zstd ? 1 : nil), "\(a) -> \(b)")
            }
            let withBroken = try #require(party.agreement(a, 4))
            guard case .incompatible(let failures)? = withBroken.type(1)?.sending else {
                Issue.record("UpsertStroke from \(a) to the broken peer should be incompatible")
                continue
            }
            #expect(failures.map(\.rule) == [.fieldWireTypeChanged] && failures.map(\.path) == ["UpsertStroke.color"])
            #expect(withBroken.type(2)?.sending == .unknown)
            #expect(withBroken.type(9)?.name == "EraseAll" && withBroken.type(9)?.receiving == .unknown)
        }
        try await party.settle { events.all.contains { if case .agreed(party.ids[4], _) = $0 { true } else { false } } }
        let named = events.all.compactMap { event -> String? in
            guard case .agreed(let peer, let agreement) = event, peer == party.ids[4] else { return nil }
            return agreement.types.filter { $0.sending?.isReadable == false }.map { "\($0.name): \($0.sending!)" }.joined(
                separator: "; ")
        }
        #expect(
            named == ["UpsertStroke: incompatible (GW004 field-wire-type-changed UpsertStroke.color); CanvasSnapshot: unknown"])

        // The session: everybody activates and joins.
        try party.coordinators[0].activate(DrawActivity(canvas: "versions"))
        let inboxes = party.inboxes
        try await party.settle { inboxes.allSatisfy { $0.sessions.count == 1 } }
        let sessions = inboxes.map { $0.sessions[0] }
        for session in sessions { try session.join() }
        try await party.settle { sessions.allSatisfy { $0.activeParticipants.count == 5 } }

        let v1 = try Inbox<DrawTogetherV1Golden.UpsertStroke, DrawTogetherV1Golden.CanvasSnapshot>(sessions[0])
        let v2 = try Inbox<DrawTogetherV2Golden.UpsertStroke, DrawTogetherV2Golden.CanvasSnapshot>(sessions[1])
        let v3 = try Inbox<DrawTogetherV3Golden.UpsertStroke, DrawTogetherV3Golden.CanvasSnapshot>(sessions[2])
        let plain = try Inbox<DrawTogetherV3Golden.UpsertStroke, DrawTogetherV3Golden.CanvasSnapshot>(sessions[3])
        let brokenStrokes = Collected(try party.messengers[4].rawMessages(typeID: 1))

        // Strokes in every direction, each version with its own fields.
        for index in 0..<10 {
            try await sessions[0].messenger.send(
                DrawTogetherV1Golden.UpsertStroke(
                    id: Self.strokeID(1, index), color: .red, point: .init(x: Double(index), y: 1)))
            try await sessions[1].messenger.send(
                DrawTogetherV2Golden.UpsertStroke(
                    id: Self.strokeID(2, index), color: .purple, point: .init(x: Double(index), y: 2), width: 5,
                    drawnAt: Date(timeIntervalSince1970: 1_700_000_000)))
            try await sessions[2].messenger.send(
                DrawTogetherV3Golden.UpsertStroke(
                    id: Self.strokeID(3, index), color: .orange, point: .init(x: Double(index), y: 3), width: 7, pressure: 0.5))
            try await sessions[3].messenger.send(
                DrawTogetherV3Golden.UpsertStroke(
                    id: Self.strokeID(4, index), color: .green, point: .init(x: Double(index), y: 4), width: 2))
        }
        // The broken peer's UpsertStroke (colour as a string) goes to nobody: all four read it otherwise.
        let skippedBefore = party.messengers[4].negotiationStatistics.recipientsSkipped
        let report = try await party.messengers[4].send([0x0A, 0x02, 0x68, 0x69], typeID: 1)
        #expect(party.messengers[4].negotiationStatistics.recipientsSkipped == skippedBefore + 4)
        // The send says so itself: each reader, in participant order, with its verdict.
        #expect(report.skipped.map(\.participant) == party.messengers[0..<4].map(\.transport.localParticipant).sorted())
        for skipped in report.skipped {
            guard case .cannotRead(.incompatible(let failures)) = skipped.reason else {
                Issue.record("\(skipped.participant) was left out for \(skipped.reason), not as an incompatible reader")
                continue
            }
            #expect(!failures.isEmpty)
        }

        try await party.settle {
            v1.strokes.all.count == 30 && v2.strokes.all.count == 30 && v3.strokes.all.count == 30
                && plain.strokes.all.count == 30
        }
        func order(_ strokes: [(source: ParticipantID, id: UUID)], from participant: Int) -> [UUID] {
            strokes.filter { $0.source == party.ids[participant - 1] }.map(\.id)
        }
        let expected = { (participant: Int) in (0..<10).map { Self.strokeID(participant, $0) } }
        let v1Seen = v1.strokes.all.map { (source: $0.context.source, id: $0.message.id) }
        let v3Seen = v3.strokes.all.map { (source: $0.context.source, id: $0.message.id) }
        for participant in [2, 3, 4] { #expect(order(v1Seen, from: participant) == expected(participant)) }
        for participant in [1, 2, 4] { #expect(order(v3Seen, from: participant) == expected(participant)) }
        // What each version can represent: v1 keeps v3's orange as an unknown case and its
        // width and pressure as unknown fields; v3 reads v1's missing width as its default.
        let fromV3AtV1 = try #require(v1.strokes.all.first { $0.context.source == party.ids[2] }?.message)
        #expect(fromV3AtV1.color == DrawTogetherV1Golden.StrokeColor(rawValue: 6) && !fromV3AtV1.unknownFields.isEmpty)
        let fromV1AtV3 = try #require(v3.strokes.all.first { $0.context.source == party.ids[0] }?.message)
        #expect(fromV1AtV3.width == 3 && fromV1AtV3.pressure == nil && fromV1AtV3.color == .red)
        let fromV2AtV3 = try #require(v3.strokes.all.first { $0.context.source == party.ids[1] }?.message)
        #expect(fromV2AtV3.width == 5 && fromV2AtV3.color == .purple && !fromV2AtV3.unknownFields.isEmpty)
        #expect(brokenStrokes.all.isEmpty)
        // Nobody received the broken peer's stroke, or rejected anything.
        for messenger in party.messengers.prefix(4) { #expect(messenger.statistics.rejected == 0) }

        // Unknown fields survive a relay through the older peer, byte for byte: v3 sends to
        // v1 only, v1 forwards what it decoded to the other v3 peer.
        let original = DrawTogetherV3Golden.UpsertStroke(
            id: Self.strokeID(3, 99), color: .orange, point: .init(x: 99, y: 3), width: 9, pressure: 0.25)
        try await sessions[2].messenger.send(original, to: .only([party.ids[0]]))
        try await party.settle { v1.strokes.all.contains { $0.message.id == original.id } }
        let atV1 = try #require(v1.strokes.all.first { $0.message.id == original.id }?.message)
        #expect(try atV1.messagePayload() == (try original.messagePayload()))
        try await sessions[0].messenger.send(atV1, to: .only([party.ids[3]]))
        try await party.settle { plain.strokes.all.contains { $0.message.id == original.id } }
        let relayed = try #require(plain.strokes.all.first { $0.message.id == original.id })
        #expect(relayed.message == original && relayed.context.source == party.ids[0])
        #expect(try relayed.message.messagePayload() == (try original.messagePayload()))

        // Snapshots, fragmented: compressed between zstd peers, plain to the peer without it.
        let v1Snapshot = DrawTogetherV1Golden.CanvasSnapshot(
            strokes: (0..<40).map { stroke in
                DrawTogetherV1Golden.Stroke(
                    id: Self.strokeID(1, stroke), color: .blue,
                    points: (0..<200).map { .init(x: Double($0), y: Double(stroke)) })
            }, pointCount: 8_000)
        let v3Snapshot = DrawTogetherV3Golden.CanvasSnapshot(
            strokes: (0..<40).map { stroke in
                DrawTogetherV3Golden.Stroke(
                    id: Self.strokeID(3, stroke), color: .orange,
                    points: (0..<200).map { .init(x: Double($0) / 3, y: Double(stroke)) }, width: 4)
            }, pointCount: 8_000, authors: [Self.strokeID(3, 0): Self.strokeID(3, 1)])
        try await sessions[0].messenger.send(v1Snapshot)
        try await sessions[2].messenger.send(v3Snapshot)
        try await party.settle {
            v1.snapshots.all.count == 1 && v2.snapshots.all.count == 2 && v3.snapshots.all.count == 1
                && plain.snapshots.all.count == 2
        }
        #expect(try v3Snapshot.messagePayload().count > 65_536)
        let atPlain = plain.snapshots.all
        #expect(atPlain.allSatisfy { !$0.context.wasCompressed })
        #expect(atPlain.first { $0.context.source == party.ids[2] }?.message == v3Snapshot)
        let v1AtPlain = try #require(atPlain.first { $0.context.source == party.ids[0] }?.message)
        #expect(v1AtPlain.strokes.count == 40 && v1AtPlain.strokes.allSatisfy { $0.width == 3 } && v1AtPlain.authors.isEmpty)
        #expect(v2.snapshots.all.allSatisfy { $0.context.wasCompressed })
        let v3AtV1 = try #require(v1.snapshots.all.first?.message)
        #expect(v3AtV1.strokes.count == 40 && !v3AtV1.unknownFields.isEmpty)
        #expect(v1.snapshots.all.first?.context.wasCompressed == true)
    }

    @Test func messagesSentBeforeAgreementAreHeldAndArriveInOrderAfterIt() async throws {
        var party = NegotiatingParty(plan: Self.plan)
        let first = try await party.add(schema: try NegotiationSpecs.v1())
        let second = try await party.add(schema: try NegotiationSpecs.v3())
        let strokes = Collected(try second.messages(of: DrawTogetherV3Golden.UpsertStroke.self))
        // The hub told the first about the second at once; no hello has travelled yet.
        try await party.settle { first.reachableParticipants.count == 1 }
        #expect(first.negotiationState(of: party.ids[1]) == .helloSent)
        for index in 0..<5 {
            try await first.send(
                DrawTogetherV1Golden.UpsertStroke(id: Self.strokeID(1, index), color: .red, point: .init(x: 1, y: 1)))
        }
        #expect(first.negotiationStatistics.messagesHeld == 5)
        #expect(strokes.all.isEmpty)
        try await party.settle { strokes.all.count == 5 }
        #expect(strokes.all.map(\.message.id) == (0..<5).map { Self.strokeID(1, $0) })
        #expect(strokes.all.allSatisfy { $0.message.width == 3 })
    }

    @Test func theHoldIsBoundedAndTheBaselineOptionSendsAtOnceUncompressed() async throws {
        var party = NegotiatingParty(plan: FaultPlan.reliable(seed: 1, delay: .milliseconds(1) ... .milliseconds(5)))
        let holding = try await party.add(schema: try NegotiationSpecs.v2(), beforeAgreement: .hold(messages: 2, bytes: 1 << 20))
        let baseline = try await party.add(schema: try NegotiationSpecs.v2(), beforeAgreement: .sendBaseline)
        let atHolding = Collected(try holding.messages(of: DrawTogetherV2Golden.CanvasSnapshot.self))
        try await party.settle { holding.reachableParticipants.count == 1 && baseline.reachableParticipants.count == 1 }
        let stroke = DrawTogetherV2Golden.UpsertStroke(id: Self.strokeID(1, 0), color: .red, point: .init(x: 1, y: 1))
        try await holding.send(stroke)
        try await holding.send(stroke)
        await #expect(throws: WireError.self) { try await holding.send(stroke) }
        do {
            try await holding.send(stroke)
        } catch {
            #expect(error.kind == .bufferFull)
        }
        // Before agreement, the baseline peer sends at once, uncompressed.
        #expect(baseline.negotiationState(of: party.ids[0]) == .helloSent)
        let snapshot = DrawTogetherV2Golden.CanvasSnapshot(
            strokes: [
                .init(id: Self.strokeID(2, 0), color: .blue, points: Array(repeating: .init(x: 1, y: 1), count: 500))
            ], pointCount: 500)
        try await baseline.send(snapshot)
        #expect(baseline.negotiationStatistics.messagesHeld == 0)
        try await party.settle { !atHolding.all.isEmpty }
        #expect(atHolding.all.first?.message == snapshot && atHolding.all.first?.context.wasCompressed == false)
        // Once agreed, the same snapshot goes compressed.
        try await party.settle { party.agreed(1, 0) }
        try await baseline.send(snapshot)
        try await party.settle { atHolding.all.count == 2 }
        #expect(atHolding.all.last?.context.wasCompressed == true)
    }

    @Test func theFailPolicyThrowsNamingTheRecipientAndTheVerdictAndSendsNothing() async throws {
        var party = NegotiatingParty(plan: FaultPlan.reliable(seed: 2, delay: .milliseconds(1) ... .milliseconds(5)))
        let strict = try await party.add(schema: try NegotiationSpecs.v1(), policy: .fail)
        let other = try await party.add(schema: try NegotiationSpecs.v1())
        let broken = try await party.add(schema: try NegotiationSpecs.broken())
        _ = broken
        let atOther = Collected(try other.messages(of: DrawTogetherV1Golden.CanvasSnapshot.self))
        try await party.settle { party.allDecided }
        let snapshot = DrawTogetherV1Golden.CanvasSnapshot(strokes: [], pointCount: 1)
        do {
            try await strict.send(snapshot)
            Issue.record("a snapshot to a peer that has no CanvasSnapshot should throw")
        } catch {
            #expect(error.kind == .recipientCannotRead)
            #expect(error.context == "CanvasSnapshot (type id 2) cannot go to \(party.ids[2]): unknown to its spec")
        }
        // Nothing went to anyone (the hellos were all it sent); to the others only, it goes.
        #expect(strict.statistics.messagesSent == 2)
        try await strict.send(snapshot, to: .only([party.ids[1]]))
        try await party.settle { atOther.all.count == 1 }
        #expect(strict.statistics.messagesSent == 3)
    }

    @Test func aMalformedHelloMarksThePeerIncompatibleAndTheSessionGoesOn() async throws {
        var party = NegotiatingParty(plan: FaultPlan.reliable(seed: 3, delay: .milliseconds(1) ... .milliseconds(5)))
        let good = try await party.add(schema: try NegotiationSpecs.v2())
        let friend = try await party.add(schema: try NegotiationSpecs.v2())
        // The third participant is a raw endpoint that sends a hello with maxVersion < minVersion.
        let liar = ParticipantID.numbered(3)
        let endpoint = try await party.hub.join(liar)
        let events = Collected(good.negotiationEvents())
        var frame = try FrameEncoder().encode(Frame(kind: .control, typeID: Hello.controlID, body: [0x08, 0x02, 0x10, 0x01]))
        try await endpoint.send(frame, to: .only([party.ids[0]]))
        try await party.settle { good.negotiationState(of: liar) != nil && good.negotiationState(of: liar) != .helloSent }
        guard case .incompatible(let failure)? = good.negotiationState(of: liar) else {
            Issue.record("the liar should be incompatible")
            return
        }
        #expect(failure.kind == .invalidHello)
        #expect(failure.reason.contains("invalidVersionRange"))
        try await party.settle { events.all.contains(.incompatible(liar, failure)) }
        // Its messages are not read; the two others still talk.
        let strokes = Collected(try good.messages(of: DrawTogetherV2Golden.UpsertStroke.self))
        frame = try FrameEncoder().encode(
            Frame(kind: .data, typeID: 1, body: try DrawTogetherV2Golden.UpsertStroke().messagePayload()))
        try await endpoint.send(frame, to: .only([party.ids[0]]))
        try await friend.send(DrawTogetherV2Golden.UpsertStroke(id: Self.strokeID(2, 1)))
        try await party.settle { strokes.all.count == 1 && good.statistics.rejected == 1 }
        #expect(strokes.all.first?.context.source == party.ids[1])
        #expect(good.statistics.lastRejection?.kind == .recipientCannotRead)
    }

    @Test func aPeerThatNeverSaysHelloTimesOutAsIncompatible() async throws {
        var party = NegotiatingParty(plan: FaultPlan.reliable(seed: 4, delay: .milliseconds(1) ... .milliseconds(5)))
        let waiting = try await party.add(
            schema: try NegotiationSpecs.v1(),
            engine: .init(retryInterval: .milliseconds(100), timeout: .seconds(2)))
        _ = try await party.hub.join(ParticipantID.numbered(2))
        let start = party.hub.elapsed
        try await party.settle {
            waiting.negotiationState(of: ParticipantID.numbered(2)) != .helloSent
                && waiting.negotiationState(of: ParticipantID.numbered(2)) != nil
        }
        #expect(
            waiting.negotiationState(of: ParticipantID.numbered(2))
                == .incompatible(NegotiationFailure(.noHello, "no hello within 2.0 seconds")))
        #expect(party.hub.elapsed - start >= .seconds(2))
    }

    @Test func aNewDictionaryIsAnnouncedAndUsedOnceBothHoldIt() async throws {
        var party = NegotiatingParty(plan: FaultPlan.reliable(seed: 5, delay: .milliseconds(1) ... .milliseconds(5)))
        let first = try await party.add(schema: try NegotiationSpecs.v3())
        let second = try await party.add(schema: try NegotiationSpecs.v3())
        try await party.settle { party.agreed(0, 1) && party.agreed(1, 0) }
        #expect(party.agreement(0, 1)?.sending.dictionaryID == 0)
        let samples = (0..<400).map { index in
            try! DrawTogetherV3Golden.UpsertStroke(
                id: Self.strokeID(index % 7, index), color: .blue,
                point: .init(x: Double(index % 13), y: 2), width: 3
            ).messagePayload()
        }
        let dictionary = try DictionaryTrainer.train(samples: samples, size: 4_096, id: 77)
        for messenger in [first, second] {
            let codec = try #require(messenger.configuration.codec as? PayloadCompressor)
            try codec.dictionaries.add(dictionary)
        }
        try await first.renegotiate()
        let later = party.hub.elapsed + .milliseconds(200)
        try await party.settle { party.hub.elapsed >= later }
        // The second announces no dictionary yet: neither uses it.
        #expect(party.agreement(0, 1)?.sending.dictionaryID == 0 && party.agreement(1, 0)?.sending.dictionaryID == 0)
        try await second.renegotiate()
        try await party.settle {
            party.agreement(0, 1)?.sending.dictionaryID == 77 && party.agreement(1, 0)?.sending.dictionaryID == 77
        }
    }

    @Test func anActivityChangeToAnotherSpecIsAnnouncedAndDecidedAgain() async throws {
        var party = NegotiatingParty(plan: FaultPlan.reliable(seed: 6, delay: .milliseconds(1) ... .milliseconds(5)))
        let switching = try await party.add(schema: try NegotiationSpecs.v1())
        let other = try await party.add(schema: try NegotiationSpecs.v3())
        let events = Collected(other.negotiationEvents())
        try await party.settle { party.agreed(0, 1) && party.agreed(1, 0) }
        #expect(party.agreement(1, 0)?.type(1)?.receiving == .compatible)
        // The app moves to the breaking spec (another activity): both sides decide again.
        try await switching.renegotiate(schema: try NegotiationSpecs.broken())
        try await party.settle { party.agreement(1, 0)?.type(9) != nil }
        guard case .incompatible(let failures)? = party.agreement(1, 0)?.type(1)?.receiving else {
            Issue.record("UpsertStroke from the switched peer should now be incompatible")
            return
        }
        #expect(failures.map(\.rule) == [.fieldWireTypeChanged])
        #expect(party.agreement(0, 1)?.type(9)?.sending == .unknown)
        try await party.settle { events.all.count == 2 }
        // The article's (MixedAppVersions.md) functions on what negotiation says.
        let peer = switching.transport.localParticipant
        #expect(unreadableTypes(after: events.all[0]).isEmpty, "v1 and v3 read each other's types")
        let unreadable = unreadableTypes(after: events.all[1])
        #expect(unreadable.contains { $0.hasPrefix("UpsertStroke cannot go to \(peer): incompatible") }, "\(unreadable)")
        // Its UpsertStroke no longer reaches the v3 peer, and the send says so.
        let skipped = switching.negotiationStatistics.recipientsSkipped
        let stroke = DrawTogetherV1Golden.UpsertStroke(id: Self.strokeID(1, 1), color: .red, point: .init(x: 1, y: 1))
        let skips = try await sendReportingSkips(stroke, with: switching)
        #expect(skips.count == 1)
        #expect(
            skips.first?.hasPrefix("\(other.transport.localParticipant) did not get UpsertStroke: cannotRead(") == true,
            "\(skips)")
        let report = try await switching.send(stroke)
        #expect(switching.negotiationStatistics.recipientsSkipped == skipped + 2)
        #expect(report.skipped.count == 1)
        if case .cannotRead(.incompatible(let failures))? = report.skipped.first?.reason {
            #expect(failures.map(\.rule) == [.fieldWireTypeChanged])
        } else {
            Issue.record("the switched peer's send names no incompatible reader: \(report)")
        }
    }
}
