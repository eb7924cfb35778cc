import GroupWire
import GroupWireTesting
import Testing

@testable import GroupWireSession

/// The rules of Spec/FORMAT.md "Delivery", on the engine alone, step by step.
@Suite struct DeliveryEngineTests {
    let peer = ParticipantID.numbered(2)

    func engine(_ configure: (inout DeliveryConfiguration) -> Void = { _ in }) -> DeliveryEngine {
        var configuration = DeliveryConfiguration(clock: TimerClock(VirtualClock())) { 21 }
        configure(&configuration)
        return DeliveryEngine(configuration: configuration)
    }

    /// Frame `index` of stream `stream` from the peer, as it arrives.
    func arriving(_ index: Int, stream: UInt32, sequence: UInt64) -> TransportMessage {
        let bytes = try! DeliveryFraming.inserting(DeliveryHeader(stream: stream, sequence: sequence), into: numberedFrame(index))
        return TransportMessage(source: peer, bytes: bytes, arrival: .zero)
    }

    func ack(_ stream: UInt32, through: UInt64, received: [UInt8] = []) -> TransportMessage {
        TransportMessage(source: peer, bytes: DeliveryAck(stream: stream, through: through, received: received).frame(), arrival: .zero)
    }

    /// The numbers of the frames delivered, and the acknowledgements sent, among `outputs`.
    func summary(_ outputs: [DeliveryEngine.Output]) -> (delivered: [Int], acks: [DeliveryAck]) {
        var delivered: [Int] = []
        var acks: [DeliveryAck] = []
        for output in outputs {
            switch output {
            case .deliver(let message):
                delivered.append(frameNumber(try! FrameDecoder().decode(message.bytes).body))
            case .send(let bytes, _):
                if let frame = try? FrameDecoder().decode(bytes), frame.kind == .control, let ack = try? DeliveryAck(frame.body) {
                    acks.append(ack)
                }
            default:
                break
            }
        }
        return (delivered, acks)
    }

    @Test func inOrderFramesAreAcknowledgedEverySixteenthOrAtTheNextTick() {
        var engine = engine()
        var acks: [DeliveryAck] = []
        for sequence in 1...17 {
            let (delivered, sent) = summary(engine.receive(arriving(sequence, stream: 7, sequence: UInt64(sequence)), now: .zero))
            #expect(delivered == [sequence])
            acks += sent
        }
        #expect(acks == [DeliveryAck(stream: 7, through: 16)], "one acknowledgement for the first 16, none yet for the 17th")
        #expect(summary(engine.tick(now: .milliseconds(10))).acks == [DeliveryAck(stream: 7, through: 17)])
        #expect(summary(engine.tick(now: .milliseconds(20))).acks.isEmpty, "nothing owed")
        #expect(engine.statistics.acksSent == 2)
    }

    @Test func anAcknowledgementSaysWhichFramesAfterAHoleAreHeldAndOnlyTheHolesAreSentAgain() throws {
        var receiver = engine()
        _ = receiver.receive(arriving(1, stream: 7, sequence: 1), now: .zero)
        _ = receiver.receive(arriving(3, stream: 7, sequence: 3), now: .zero)
        let acks = summary(receiver.receive(arriving(5, stream: 7, sequence: 5), now: .zero)).acks
        // Through 1; held: 3 and 5 (bit i is sequence through + 2 + i).
        #expect(acks == [DeliveryAck(stream: 7, through: 1, received: [0b101])])

        var sender = engine()
        _ = sender.joined(peer, now: .zero)
        let stream = sender.outbound[peer]!.reliableStream
        _ = try sender.prepare((0..<6).map { numberedFrame($0) }, to: [peer], mode: .reliable, now: .zero, failWhenFull: false)
        // Frame 1's acknowledgement after 20 ms is the first sample: the longest likely round
        // trip is 20 + 4 × 10 ms, so holes sent 20 ms ago may still be on their way.
        #expect(sender.receive(ack(stream, through: 1, received: [0b101]), now: .milliseconds(20)).isEmpty)
        #expect(sender.receive(ack(stream, through: 1, received: [0b101]), now: .milliseconds(70)).isEmpty, "the first repeat")
        let resent = sender.receive(ack(stream, through: 1, received: [0b101]), now: .milliseconds(71))
        let sequences = resent.compactMap { output -> UInt64? in
            guard case .send(let bytes, _) = output else { return nil }
            return try? DeliveryFraming.peek(bytes).delivery?.sequence
        }
        #expect(sequences == [2, 4, 6], "every frame not held and sent longer ago than the round trip allows, not 3 and 5")
        #expect(sender.outbound[peer]!.pending.map(\.held) == [false, true, false, true, false])
        let timed = sender.tick(now: .milliseconds(400)).count
        #expect(timed == 3, "the timer resends 2, 4 and 6, never the held 3 and 5")
    }

    @Test func aGapIsAcknowledgedAtOnceAndFilledFramesAreDeliveredInOrder() {
        var engine = engine { $0.reorderWindow = 4 }
        var (delivered, acks) = summary(engine.receive(arriving(3, stream: 7, sequence: 3), now: .zero))
        #expect(delivered.isEmpty && acks == [DeliveryAck(stream: 7, through: 0, received: [0b10])])
        (delivered, acks) = summary(engine.receive(arriving(3, stream: 7, sequence: 3), now: .zero))
        #expect(delivered.isEmpty && acks == [DeliveryAck(stream: 7, through: 0, received: [0b10])], "a duplicate of a waiting frame")
        #expect(engine.statistics.duplicatesDropped == 1)
        (delivered, _) = summary(engine.receive(arriving(6, stream: 7, sequence: 6), now: .zero))
        #expect(delivered.isEmpty && engine.statistics.overflowDropped == 1, "5 ahead of the next expected: over the window of 4")
        (delivered, _) = summary(engine.receive(arriving(2, stream: 7, sequence: 2), now: .zero))
        #expect(delivered.isEmpty)
        (delivered, _) = summary(engine.receive(arriving(1, stream: 7, sequence: 1), now: .zero))
        #expect(delivered == [1, 2, 3])
        (delivered, acks) = summary(engine.receive(arriving(2, stream: 7, sequence: 2), now: .zero))
        #expect(delivered.isEmpty && acks == [DeliveryAck(stream: 7, through: 3)], "an old duplicate")
        #expect(engine.inbound[peer]?.reliable?.waiting.isEmpty == true)
    }

    @Test func aNewIncarnationEndsTheOldOneAndItsLateFramesAreDropped() {
        var engine = engine()
        #expect(summary(engine.receive(arriving(1, stream: 7, sequence: 1), now: .zero)).delivered == [1])
        #expect(summary(engine.receive(arriving(3, stream: 7, sequence: 3), now: .zero)).delivered.isEmpty)
        // The peer reconnected: incarnation 4 (stream 9) starts at sequence 1 again.
        #expect(summary(engine.receive(arriving(10, stream: 9, sequence: 1), now: .zero)).delivered == [10])
        #expect(summary(engine.receive(arriving(2, stream: 7, sequence: 2), now: .zero)).delivered.isEmpty)
        #expect(engine.statistics.staleDropped == 1)
        #expect(summary(engine.receive(arriving(11, stream: 9, sequence: 2), now: .zero)).delivered == [11])
        #expect(engine.inbound[peer]?.retired == [7])
    }

    @Test func framesOfAnIncarnationStillOnTheWayWhenItsSenderReconnectsAreDropped() {
        var engine = engine()
        _ = engine.joined(peer, now: .zero)
        #expect(summary(engine.receive(arriving(1, stream: 7, sequence: 1), now: .zero)).delivered == [1])
        #expect(engine.left(peer) == [.left(peer)])
        _ = engine.joined(peer, now: .zero)
        #expect(summary(engine.receive(arriving(10, stream: 9, sequence: 1), now: .zero)).delivered == [10])
        // Sequence 2 of the first connection arrives late: it must not end the new stream.
        #expect(summary(engine.receive(arriving(2, stream: 7, sequence: 2), now: .zero)).delivered.isEmpty)
        #expect(summary(engine.receive(arriving(11, stream: 9, sequence: 2), now: .zero)).delivered == [11])
        #expect(engine.statistics.staleDropped == 1)
    }

    @Test func aFrameThatCannotTakeAHeaderFailsTheSendAndChangesNothing() throws {
        var engine = engine()
        _ = engine.joined(peer, now: .zero)
        let broken = [UInt8](numberedFrame(1).dropLast())
        var kind: WireError.Kind?
        do {
            _ = try engine.prepare([numberedFrame(0), broken], to: [peer], mode: .reliable, now: .zero, failWhenFull: false)
        } catch {
            kind = error.kind
        }
        #expect(kind == .truncated)
        #expect(engine.isReachable(peer) && engine.outbound[peer]?.nextReliable == 1 && engine.statistics.bufferedBytes == 0)
    }

    @Test func unreliableFramesAreDeliveredOnceWithinTheWindowAndDroppedWhenOlder() {
        var engine = engine()
        #expect(summary(engine.receive(arriving(1, stream: 6, sequence: 2000), now: .zero)).delivered == [1])
        #expect(summary(engine.receive(arriving(2, stream: 6, sequence: 1990), now: .zero)).delivered == [2], "late but new")
        #expect(summary(engine.receive(arriving(2, stream: 6, sequence: 1990), now: .zero)).delivered.isEmpty)
        #expect(summary(engine.receive(arriving(3, stream: 6, sequence: 976), now: .zero)).delivered.isEmpty, "1,024 below the highest")
        #expect(summary(engine.receive(arriving(4, stream: 6, sequence: 977), now: .zero)).delivered == [4])
        #expect(engine.statistics.duplicatesDropped == 1 && engine.statistics.tooOldDropped == 1)
        #expect(summary(engine.tick(now: .seconds(1))).acks.isEmpty, "unreliable frames are not acknowledged")
    }

    @Test func theSenderRetransmitsWithBackoffAndAtOnceOnARepeatedAcknowledgement() throws {
        var engine = engine()
        _ = engine.joined(peer, now: .zero)
        let stream = engine.outbound[peer]!.reliableStream
        #expect(stream == 21 << 1 | 1)
        guard case .ready(let sent) = try engine.prepare([numberedFrame(0), numberedFrame(1)], to: [peer], mode: .reliable, now: .zero, failWhenFull: false) else {
            Issue.record("no room")
            return
        }
        #expect(sent.count == 2)
        #expect(engine.tick(now: .milliseconds(99)).isEmpty)
        #expect(engine.tick(now: .milliseconds(100)).count == 2, "both after 100 ms: the receiver said nothing of either")
        #expect(engine.tick(now: .milliseconds(299)).isEmpty)
        #expect(engine.tick(now: .milliseconds(300)).count == 2, "then after 200 ms more")
        // Frame 1 arrived, frame 2 did not: an acknowledgement through 1 leaves frame 2
        // first, sent at 300 ms, not yet a round trip ago (no sample yet: 100 + 10 ms).
        #expect(engine.receive(ack(stream, through: 1), now: .milliseconds(310)).isEmpty, "a partial acknowledgement, too soon")
        #expect(engine.outbound[peer]!.pending.map(\.sequence) == [2])
        #expect(engine.receive(ack(stream, through: 1), now: .milliseconds(311)).isEmpty, "the first repeat")
        #expect(engine.receive(ack(stream, through: 1), now: .milliseconds(312)).isEmpty,
                "a second repeat 12 ms after the frame was sent: it may just have been overtaken")
        let again = engine.receive(ack(stream, through: 1), now: .milliseconds(411))
        #expect(again.count == 1, "a repeat once a round trip has passed since the send: at once")
        #expect(engine.receive(ack(stream, through: 1), now: .milliseconds(412)).isEmpty, "and the count starts over")
        #expect(engine.statistics.retransmitted == 5)
        // Ignored: another stream and through going backwards are out of date; through
        // above what was sent is wrong.
        let (rejected, stale) = (engine.statistics.rejected, engine.statistics.staleAcks)
        #expect(engine.receive(ack(stream + 2, through: 2), now: .zero).isEmpty)
        #expect(engine.receive(ack(stream, through: 3), now: .zero).isEmpty)
        #expect(engine.receive(ack(stream, through: 0), now: .zero).isEmpty)
        #expect(engine.statistics.rejected == rejected + 1)
        #expect(engine.statistics.staleAcks == stale + 2)
        #expect(engine.outbound[peer]!.pending.count == 1)
        #expect(engine.receive(ack(stream, through: 2), now: .zero).isEmpty)
        #expect(engine.outbound[peer]!.pending.isEmpty && engine.statistics.bufferedBytes == 0)
    }

    @Test func aSenderKeepsAtMostTheReorderWindowOfFramesUnacknowledged() throws {
        var engine = engine { $0.reorderWindow = 4 }
        _ = engine.joined(peer, now: .zero)
        _ = try engine.prepare((0..<3).map { numberedFrame($0) }, to: [peer], mode: .reliable, now: .zero, failWhenFull: false)
        let two = [numberedFrame(3), numberedFrame(4)]
        guard case .needsRoom = try engine.prepare(two, to: [peer], mode: .reliable, now: .zero, failWhenFull: false) else {
            Issue.record("3 + 2 frames fit a window of 4")
            return
        }
        var kinds: [WireError.Kind] = []
        for (frames, fail) in [(two, true), ((0..<5).map { numberedFrame($0) }, false)] {
            do {
                _ = try engine.prepare(frames, to: [peer], mode: .reliable, now: .zero, failWhenFull: fail)
            } catch {
                kinds.append(error.kind)
            }
        }
        #expect(kinds == [.bufferFull, .bufferFull], "full now, and a message of 5 frames can never fit")
        guard case .ready(let sent) = try engine.prepare(two, to: [peer], mode: .unreliable, now: .zero, failWhenFull: true) else {
            Issue.record("unreliable frames are not kept, so the window does not hold them back")
            return
        }
        #expect(sent.count == 2 && engine.outbound[peer]?.pending.count == 3)
    }

    @Test func framesWithoutAHeaderPassAndBrokenOnesGoUpForTheMessengerToReject() {
        var engine = engine()
        let plain = TransportMessage(source: peer, bytes: numberedFrame(5), arrival: .zero)
        #expect(engine.receive(plain, now: .zero) == [.deliver(plain)])
        var corrupted = arriving(1, stream: 7, sequence: 1)
        corrupted = TransportMessage(source: peer, bytes: corrupted.bytes.enumerated().map { $0 == 5 ? $1 ^ 1 : $1 }, arrival: .zero)
        #expect(engine.receive(corrupted, now: .zero) == [.deliver(corrupted)])
        #expect(engine.statistics.rejected == 1)
        #expect(engine.inbound[peer]?.reliable == nil, "a frame failing its checksum changes no stream state")
    }
}
