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
    func arriving(_ index: Int, stream: UInt32, sequence: UInt64, size: Int? = nil) -> TransportMessage {
        do {
            let bytes = try DeliveryFraming.inserting(
                DeliveryHeader(stream: stream, sequence: sequence),
                into: size.map { numberedFrame(index, size: $0) } ?? numberedFrame(index))
            return TransportMessage(source: peer, bytes: bytes, arrival: .zero)
        } catch {
            Issue.record(error, "frame \(index) got no delivery header")
            return TransportMessage(source: peer, bytes: [], arrival: .zero)
        }
    }

    func ack(_ stream: UInt32, through: UInt64, received: [UInt8] = [], duplicate: UInt64 = 0) -> TransportMessage {
        TransportMessage(
            source: peer, bytes: DeliveryAck(stream: stream, through: through, received: received, duplicate: duplicate).frame(),
            arrival: .zero)
    }

    /// The numbers of the frames delivered, and the acknowledgements sent, among `outputs`.
    func summary(_ outputs: [DeliveryEngine.Output]) -> (delivered: [Int], acks: [DeliveryAck]) {
        var delivered: [Int] = []
        var acks: [DeliveryAck] = []
        for output in outputs {
            switch output {
            case .deliver(let message):
                do {
                    delivered.append(frameNumber(try FrameDecoder().decode(message.bytes).body))
                } catch {
                    Issue.record(error, "a delivered message is not a frame")
                }
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

    @Test func inOrderFramesAreAcknowledgedEverySixtyFourthOrAtTheNextTick() {
        var engine = engine()
        var acks: [DeliveryAck] = []
        // 65 frames of about 16 bytes with the header: about 1,000, under the 2,400 that would count first.
        for sequence in 1...65 {
            let (delivered, sent) = summary(engine.receive(arriving(sequence, stream: 7, sequence: UInt64(sequence)), now: .zero))
            #expect(delivered == [sequence])
            acks += sent
        }
        #expect(acks == [DeliveryAck(stream: 7, through: 64)], "one acknowledgement for the first 64, none yet for the 65th")
        #expect(
            summary(engine.tick(now: .milliseconds(10))).acks == [DeliveryAck(stream: 7, through: 65, delayMicroseconds: 10_000)],
            "the 65th at the next tick, saying it was held back 10 ms")
        #expect(summary(engine.tick(now: .milliseconds(20))).acks.isEmpty, "nothing owed")
        #expect(engine.statistics.acksSent == 2)
    }

    /// `ackEvery` at `Int.max` acknowledges by bytes and time alone; the in-order count,
    /// four times it, saturates instead of trapping.
    @Test func anAckEveryOfIntMaxAcknowledgesByBytesAndTimeAlone() {
        var engine = engine { $0.ackEvery = .max }
        for sequence in 1...100 {
            #expect(summary(engine.receive(arriving(sequence, stream: 7, sequence: UInt64(sequence)), now: .zero)).acks.isEmpty)
        }
        #expect(
            summary(engine.receive(arriving(101, stream: 7, sequence: 101, size: 2400), now: .zero)).acks == [
                DeliveryAck(stream: 7, through: 101)
            ], "2,400 bytes since the last acknowledgement")
        #expect(summary(engine.receive(arriving(102, stream: 7, sequence: 102), now: .zero)).acks.isEmpty)
        #expect(
            summary(engine.tick(now: .milliseconds(10))).acks == [DeliveryAck(stream: 7, through: 102, delayMicroseconds: 10_000)]
        )
    }

    /// A receiver that holds frames behind a missing one acknowledges every 16th, not every
    /// 64th: its sender finds losses from what the acknowledgements say is held.
    @Test func framesHeldBehindAGapAreAcknowledgedEverySixteenth() {
        var engine = engine()
        #expect(summary(engine.receive(arriving(1, stream: 7, sequence: 1), now: .zero)).acks.isEmpty)
        // 2 is missing; 3 ... 18 wait behind it.
        var acks: [DeliveryAck] = []
        for sequence in 3...18 {
            let (delivered, sent) = summary(engine.receive(arriving(sequence, stream: 7, sequence: UInt64(sequence)), now: .zero))
            #expect(delivered.isEmpty)
            acks += sent
        }
        // With 1 (never acknowledged), 17 makes the 16th frame to acknowledge: 3 ... 17 held.
        #expect(acks == [DeliveryAck(stream: 7, through: 1, received: [0xFF, 0x7F])], "\(acks)")
        #expect(engine.statistics.acksSent == 1)
    }

    @Test func framesAreAcknowledgedAtOnceWhenTheirBytesReachTheSendersSmallestWindow() {
        var engine = engine()
        // 1,002 bytes with the delivery header: the third frame since an acknowledgement
        // brings 2,400 bytes or more, long before the sixteenth.
        var acks: [[DeliveryAck]] = []
        for sequence in 1...7 {
            acks.append(
                summary(engine.receive(arriving(sequence, stream: 7, sequence: UInt64(sequence), size: 1000), now: .zero)).acks)
        }
        #expect(acks == [[], [], [DeliveryAck(stream: 7, through: 3)], [], [], [DeliveryAck(stream: 7, through: 6)], []])
        // Held frames count their bytes too: 7 (not yet acknowledged), then 9 and 10 behind
        // the missing 8; and the arrival of 8 counts the three frames it lets out.
        #expect(summary(engine.receive(arriving(9, stream: 7, sequence: 9, size: 1000), now: .zero)).acks.isEmpty)
        #expect(
            summary(engine.receive(arriving(10, stream: 7, sequence: 10, size: 1000), now: .zero)).acks == [
                DeliveryAck(stream: 7, through: 7, received: [0b11])
            ])
        let filled = summary(engine.receive(arriving(8, stream: 7, sequence: 8, size: 1000), now: .zero))
        #expect(filled.delivered == [8, 9, 10] && filled.acks == [DeliveryAck(stream: 7, through: 10)])
        #expect(summary(engine.tick(now: .milliseconds(10))).acks.isEmpty, "nothing owed")
        #expect(engine.statistics.acksSent == 4)
    }

    /// The sequences of the data frames sent among `outputs`.
    func sentSequences(_ outputs: [DeliveryEngine.Output]) -> [UInt64] {
        outputs.compactMap { output -> UInt64? in
            guard case .send(let bytes, _) = output else { return nil }
            return try? DeliveryFraming.peek(bytes).delivery?.sequence
        }
    }

    @Test func aFrameIsLostOnceTheTimeThresholdPassesAfterALaterOneArrivedAndHeldFramesAreNeverSentAgain() throws {
        var receiver = engine()
        _ = receiver.receive(arriving(1, stream: 7, sequence: 1), now: .zero)
        _ = receiver.receive(arriving(3, stream: 7, sequence: 3), now: .zero)
        #expect(summary(receiver.receive(arriving(5, stream: 7, sequence: 5), now: .milliseconds(2))).acks.isEmpty)
        // At the tick: through 1; held: 3 and 5 (bit i is sequence through + 2 + i); 5, the
        // highest, arrived 8 ms before.
        #expect(
            summary(receiver.tick(now: .milliseconds(10))).acks == [
                DeliveryAck(stream: 7, through: 1, received: [0b101], delayMicroseconds: 8000)
            ])

        var sender = engine()
        _ = sender.joined(peer, now: .zero)
        let stream = sender.outbound[peer]!.reliableStream
        guard
            case .ready(let first) = try sender.prepare(
                (0..<6).map { numberedFrame($0) }, to: [peer], mode: .reliable, now: .zero,
                failWhenFull: false)
        else {
            Issue.record("no room")
            return
        }
        #expect(sentSequences(first) == [1, 2, 3, 4, 5, 6], "six small frames fit the initial window and the pacer's burst")
        // At 20 ms, 3 and 5 are held: the first sample (20 ms, varying by 10) makes the time
        // threshold 9/8 × (20 + 4 × 10 ms); sent together, 2 and 4 are not passed by frames sent
        // later, so the packet threshold does not count.
        #expect(sender.receive(ack(stream, through: 1, received: [0b101]), now: .milliseconds(20)).isEmpty)
        let path = sender.outbound[peer]!
        #expect(path.rtt.smoothed == .milliseconds(20) && path.lossTime == .microseconds(67_500))
        #expect(path.pending.map(\.held) == [false, true, false, true, false])
        #expect(sentSequences(sender.tick(now: .microseconds(67_499))).isEmpty)
        #expect(sentSequences(sender.tick(now: .microseconds(67_500))) == [2, 4], "the time threshold")
        #expect(sender.statistics.framesLost == 2 && sender.statistics.retransmitted == 2)
        // Nothing more is acknowledged: the probe timeout (20 + 4 × 10 + 10 ms after the last
        // send) sends the oldest frame in flight again; 3 and 5 are held, never.
        #expect(sentSequences(sender.tick(now: .microseconds(137_499))).isEmpty)
        #expect(sentSequences(sender.tick(now: .microseconds(137_500))) == [2])
        #expect(sender.statistics.probeTimeouts == 1)
        // Everything arrives: the buffer empties and the bytes in flight are zero again.
        _ = sender.receive(ack(stream, through: 6), now: .milliseconds(140))
        #expect(sender.outbound[peer]!.pending.isEmpty && sender.outbound[peer]!.congestion.bytesInFlight == 0)
        #expect(sender.statistics.bufferedBytes == 0 && sender.outbound[peer]!.probeCount == 0)
    }

    @Test func aLossThatTurnsOutSpuriousWidensTheReorderingTheSenderTolerates() throws {
        var sender = engine()
        _ = sender.joined(peer, now: .zero)
        let stream = sender.outbound[peer]!.reliableStream
        _ = try sender.prepare([numberedFrame(0)], to: [peer], mode: .reliable, now: .zero, failWhenFull: false)
        _ = try sender.prepare(
            (1..<5).map { numberedFrame($0) }, to: [peer], mode: .reliable, now: .milliseconds(20), failWhenFull: false)
        // 2 ... 5 held at 30 ms (a 10 ms round trip): frame 1 is four copies and 20 ms behind
        // them and goes again at once.
        #expect(sentSequences(sender.receive(ack(stream, through: 0, received: [0b1111]), now: .milliseconds(30))) == [1])
        // The receiver then reports frame 1 twice: the first copy had only been overtaken.
        #expect(sender.receive(ack(stream, through: 5, duplicate: 1), now: .milliseconds(50)).isEmpty)
        #expect(sender.statistics.spuriousLosses == 1)
        let path = sender.outbound[peer]!
        #expect(path.packetThreshold == 5, "copy 1 was passed by copy 5: a threshold of 5 would have waited")
        #expect(path.reordering == .milliseconds(40), "it took 50 ms where the round trip is 10 ms")
        #expect(
            path.rtt.lossDelay(reordering: path.reordering, lateArrivals: path.lateArrivals.delay) == .microseconds(45_000),
            "the time threshold waits 9/8 of at most a retransmission timeout (10 + 10 + 4 × 5 ms), not of 10 + 40 ms")
        // A report of a frame never declared lost (a lost acknowledgement's) changes nothing.
        _ = try sender.prepare([numberedFrame(6)], to: [peer], mode: .reliable, now: .milliseconds(50), failWhenFull: false)
        _ = sender.receive(ack(stream, through: 6, duplicate: 6), now: .milliseconds(60))
        #expect(sender.statistics.spuriousLosses == 1 && sender.outbound[peer]!.packetThreshold == 5)
    }

    /// A sender whose frame 1 was declared lost twice, and the third copy it sent of it.
    func frameLostTwice() throws -> (sender: DeliveryEngine, stream: UInt32, third: [DeliveryEngine.Output]) {
        var sender = engine()
        _ = sender.joined(peer, now: .zero)
        let stream = try #require(sender.outbound[peer]).reliableStream
        _ = try sender.prepare([numberedFrame(0)], to: [peer], mode: .reliable, now: .zero, failWhenFull: false)
        _ = try sender.prepare(
            (1..<5).map { numberedFrame($0) }, to: [peer], mode: .reliable, now: .milliseconds(20), failWhenFull: false)
        // 2 ... 5 held at 30 ms: frame 1, four copies and 20 ms behind them, goes again.
        #expect(sentSequences(sender.receive(ack(stream, through: 0, received: [0b1111]), now: .milliseconds(30))) == [1])
        _ = try sender.prepare(
            (5..<9).map { numberedFrame($0) }, to: [peer], mode: .reliable, now: .milliseconds(60), failWhenFull: false)
        // 6 ... 9, sent 30 ms after that copy, held at 70 ms: it was lost too.
        let third = sender.receive(ack(stream, through: 0, received: [0b1111_1111]), now: .milliseconds(70))
        #expect(sentSequences(third) == [1])
        #expect(sender.statistics.framesLost == 2 && sender.statistics.retransmitted == 2)
        return (sender, stream, third)
    }

    @Test func aFrameLostTwiceIsRepairedTwiceUnlessItsRepairArrivesBeforeTheNextTick() throws {
        var (sender, stream, third) = try frameLostTwice()
        // Nothing before the tick; at it, the same copy once more, outside the window.
        let thresholdBefore = sender.outbound[peer]!.packetThreshold
        let again = sender.tick(now: .milliseconds(80))
        #expect(sentSequences(again) == [1])
        guard case .send(let repeated, _) = again.first, case .send(let original, _) = third.first else {
            Issue.record("no copies")
            return
        }
        #expect(repeated == original, "the same copy: same header, same bytes")
        #expect(sender.statistics.retransmitted == 3 && sender.statistics.doubledRepairs == 1)
        #expect(sentSequences(sender.tick(now: .milliseconds(90))).isEmpty, "once")
        // The receiver got both and says so: not a sign that a loss was spurious.
        _ = sender.receive(ack(stream, through: 9, duplicate: 1), now: .milliseconds(95))
        #expect(sender.statistics.spuriousLosses == 0)
        #expect(sender.outbound[peer]!.packetThreshold == thresholdBefore)
        #expect(sender.outbound[peer]!.pending.isEmpty && sender.outbound[peer]!.congestion.bytesInFlight == 0)

        // A third copy acknowledged before the tick is not sent again.
        var acknowledged = try frameLostTwice().sender
        _ = acknowledged.receive(ack(stream, through: 9), now: .milliseconds(75))
        #expect(sentSequences(acknowledged.tick(now: .milliseconds(80))).isEmpty)
        #expect(acknowledged.statistics.doubledRepairs == 0 && acknowledged.statistics.retransmitted == 2)
        // A frame lost once is repaired once.
        var once = engine()
        _ = once.joined(peer, now: .zero)
        _ = try once.prepare([numberedFrame(0)], to: [peer], mode: .reliable, now: .zero, failWhenFull: false)
        _ = try once.prepare(
            (1..<5).map { numberedFrame($0) }, to: [peer], mode: .reliable, now: .milliseconds(20), failWhenFull: false)
        #expect(sentSequences(once.receive(ack(stream, through: 0, received: [0b1111]), now: .milliseconds(30))) == [1])
        #expect(sentSequences(once.tick(now: .milliseconds(40))).isEmpty && once.statistics.doubledRepairs == 0)
    }

    @Test func aProbeCountsAsARepeatSoTheRepairAfterItGoesTwice() throws {
        var sender = engine()
        _ = sender.joined(peer, now: .zero)
        let stream = sender.outbound[peer]!.reliableStream
        _ = try sender.prepare([numberedFrame(0)], to: [peer], mode: .reliable, now: .zero, failWhenFull: false)
        // No sample yet: the probe timeout is 100 + 4 × 50 + 10 ms.
        #expect(sentSequences(sender.tick(now: .milliseconds(310))) == [1])
        #expect(sender.statistics.probeTimeouts == 1)
        _ = try sender.prepare(
            (1..<5).map { numberedFrame($0) }, to: [peer], mode: .reliable, now: .milliseconds(320), failWhenFull: false)
        // 2 ... 5 held at 330 ms (a 10 ms sample): the probe is lost at 9/8 × (10 + 4 × 5) ms
        // after it went, by the loss timer, and its repair is the frame's third copy.
        _ = sender.receive(ack(stream, through: 0, received: [0b1111]), now: .milliseconds(330))
        #expect(sender.outbound[peer]!.lossTime == .microseconds(343_750))
        #expect(sentSequences(sender.tick(now: .microseconds(343_750))) == [1])
        #expect(sentSequences(sender.tick(now: .microseconds(353_750))) == [1])
        #expect(sender.statistics.framesLost == 1 && sender.statistics.doubledRepairs == 1)
        #expect(sender.statistics.retransmitted == 3, "the probe, the repair and its second copy")
    }

    @Test func aFrameOvertakenWithoutBeingDeclaredLostWidensTheTimeThresholdBeforeItCostsACopy() throws {
        var sender = engine()
        _ = sender.joined(peer, now: .zero)
        let stream = sender.outbound[peer]!.reliableStream
        _ = try sender.prepare((0..<5).map { numberedFrame($0) }, to: [peer], mode: .reliable, now: .zero, failWhenFull: false)
        // 4 arrives before 2 and 3: two copies past 2, under the packet threshold; the
        // first sample is 10 ms.
        #expect(sender.receive(ack(stream, through: 1, received: [0b10]), now: .milliseconds(10)).isEmpty)
        // 2, 3 and 5 arrive at 16 ms (no timer tick came between): 2 and 3 took 16 ms where
        // the round trip was 10, so 6 ms more are tolerated from now on, before any copy.
        #expect(sender.receive(ack(stream, through: 5), now: .milliseconds(16)).isEmpty)
        let path = sender.outbound[peer]!
        #expect(path.reordering == .milliseconds(6) && path.packetThreshold == 3)
        #expect(sender.statistics.framesLost == 0 && sender.statistics.retransmitted == 0)
    }

    @Test func aFrameAsLateAsOthersThatArrivedRecentlyIsNotLostThoughTheRoundTripSamplesAreShort() throws {
        var sender = engine()
        _ = sender.joined(peer, now: .zero)
        let stream = sender.outbound[peer]!.reliableStream
        _ = try sender.prepare((0..<6).map { numberedFrame($0) }, to: [peer], mode: .reliable, now: .zero, failWhenFull: false)
        // 5 and 6 arrive first (the first sample, 5 ms); 7 and 8, sent at 10 ms, arrive 2 ms
        // later and are the highest, so the samples stay short (and 10 ms of spacing is
        // under four variations: the packet threshold does not count yet).
        #expect(sender.receive(ack(stream, through: 0, received: [0b11000]), now: .milliseconds(5)).isEmpty)
        _ = try sender.prepare(
            (6..<8).map { numberedFrame($0) }, to: [peer], mode: .reliable, now: .milliseconds(10), failWhenFull: false)
        #expect(sender.receive(ack(stream, through: 0, received: [0b111_1000]), now: .milliseconds(12)).isEmpty)
        var path = sender.outbound[peer]!
        #expect(path.rtt.smoothed == .microseconds(4625) && path.rtt.variation == .microseconds(2625))
        // 1 ... 4 arrive at 25 ms (no timer tick came between): 25 ms, longer than a
        // retransmission timeout of these samples (4.625 + 4 × 2.625 ms) allows.
        #expect(sender.receive(ack(stream, through: 8), now: .milliseconds(25)).isEmpty)
        path = sender.outbound[peer]!
        #expect(path.rtt.recentMaximum == .milliseconds(25) && path.reordering == .microseconds(20_375))
        #expect(path.rtt.smoothed + path.rtt.variation * 4 < .milliseconds(25))
        // The time threshold now waits 9/8 of what they took: a frame as late is only late.
        #expect(path.rtt.lossDelay(reordering: path.reordering, lateArrivals: path.lateArrivals.delay) == .microseconds(28_125))
        #expect(sender.statistics.framesLost == 0 && sender.statistics.retransmitted == 0)
    }

    @Test func gapsAndDuplicatesAreAcknowledgedWithinTheAckDelay() {
        var engine = engine { $0.reorderWindow = 4 }
        var (delivered, acks) = summary(engine.receive(arriving(3, stream: 7, sequence: 3), now: .zero))
        #expect(delivered.isEmpty && acks.isEmpty, "a gap: owed, the sender's thresholds need later frames anyway")
        (delivered, acks) = summary(engine.receive(arriving(3, stream: 7, sequence: 3), now: .zero))
        #expect(delivered.isEmpty && acks.isEmpty, "a duplicate of a waiting frame: owed")
        #expect(engine.statistics.duplicatesDropped == 1)
        (delivered, acks) = summary(engine.receive(arriving(6, stream: 7, sequence: 6), now: .zero))
        #expect(
            delivered.isEmpty && acks.isEmpty && engine.statistics.overflowDropped == 1,
            "5 ahead of the next expected: over the window of 4")
        (delivered, _) = summary(engine.receive(arriving(2, stream: 7, sequence: 2), now: .milliseconds(1)))
        #expect(delivered.isEmpty)
        (delivered, acks) = summary(engine.receive(arriving(1, stream: 7, sequence: 1), now: .milliseconds(1)))
        #expect(delivered == [1, 2, 3] && acks.isEmpty, "five frames to acknowledge: under 16")
        (delivered, acks) = summary(engine.receive(arriving(2, stream: 7, sequence: 2), now: .milliseconds(2)))
        #expect(delivered.isEmpty && acks.isEmpty, "an old duplicate")
        #expect(
            summary(engine.tick(now: .milliseconds(10))).acks == [
                DeliveryAck(stream: 7, through: 3, delayMicroseconds: 10_000, duplicate: 3)
            ],
            "one acknowledgement at the tick: 3, the highest, arrived 10 ms ago; 3 the highest duplicate")
        #expect(engine.inbound[peer]?.reliable?.waiting.isEmpty == true)
    }

    /// The arrival that fills a gap counts one frame, however many it lets out of the
    /// reorder buffer; their bytes count, so a fill behind 2,400 bytes of held frames is
    /// acknowledged at once and a fill behind a few small ones waits like any arrival.
    @Test func aFillCountsAsOneArrivalAndItsBytesWithThoseItLetsOut() {
        // Nine small frames (about 16 bytes) held behind a missing one, then the missing
        // one: ten arrivals, under 16, and about 300 bytes.
        var engine = engine()
        for sequence in 2...10 {
            #expect(summary(engine.receive(arriving(sequence, stream: 9, sequence: UInt64(sequence)), now: .zero)).acks.isEmpty)
        }
        var (delivered, acks) = summary(engine.receive(arriving(1, stream: 9, sequence: 1), now: .milliseconds(3)))
        #expect(delivered == Array(1...10) && acks.isEmpty, "a fill behind nine small frames: owed, \(acks)")
        #expect(
            summary(engine.tick(now: .milliseconds(10))).acks == [DeliveryAck(stream: 9, through: 10, delayMicroseconds: 10_000)],
            "at the tick, 10 ms after 10, the highest, arrived")

        // Frames of about 600 bytes: the fourth held one makes 2,400 bytes to acknowledge,
        // and the fill lets those 2,400 out, so it is acknowledged at once too.
        var other = self.engine()
        for sequence in 2...4 {
            #expect(
                summary(other.receive(arriving(sequence, stream: 9, sequence: UInt64(sequence), size: 600), now: .zero)).acks
                    .isEmpty)
        }
        (delivered, acks) = summary(other.receive(arriving(5, stream: 9, sequence: 5, size: 600), now: .zero))
        #expect(delivered.isEmpty && acks == [DeliveryAck(stream: 9, through: 0, received: [0x0F])], "\(acks)")
        (delivered, acks) = summary(other.receive(arriving(1, stream: 9, sequence: 1, size: 600), now: .milliseconds(3)))
        #expect(delivered == Array(1...5) && acks == [DeliveryAck(stream: 9, through: 5, delayMicroseconds: 3000)], "\(acks)")
        #expect(other.statistics.acksSent == 2)
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
        #expect(
            summary(engine.receive(arriving(3, stream: 6, sequence: 976), now: .zero)).delivered.isEmpty,
            "1,024 below the highest")
        #expect(summary(engine.receive(arriving(4, stream: 6, sequence: 977), now: .zero)).delivered == [4])
        #expect(engine.statistics.duplicatesDropped == 1 && engine.statistics.tooOldDropped == 1)
        #expect(summary(engine.tick(now: .seconds(1))).acks.isEmpty, "unreliable frames are not acknowledged")
    }

    @Test func probesBackOffAndThreeInARowCollapseTheWindow() throws {
        var engine = engine()
        _ = engine.joined(peer, now: .zero)
        let stream = engine.outbound[peer]!.reliableStream
        #expect(stream == 21 << 1 | 1)
        guard
            case .ready(let sent) = try engine.prepare(
                [numberedFrame(0), numberedFrame(1)], to: [peer], mode: .reliable, now: .zero, failWhenFull: false)
        else {
            Issue.record("no room")
            return
        }
        #expect(sent.count == 2)
        // No sample yet: the probe timeout is 100 + 4 × 50 + 10 ms, doubled per probe.
        #expect(engine.tick(now: .milliseconds(309)).isEmpty)
        #expect(sentSequences(engine.tick(now: .milliseconds(310))) == [1], "one probe: the oldest frame in flight")
        #expect(engine.tick(now: .milliseconds(929)).isEmpty)
        #expect(sentSequences(engine.tick(now: .milliseconds(930))) == [1])
        #expect(engine.outbound[peer]!.congestion.window == CongestionControl.initialWindow)
        #expect(sentSequences(engine.tick(now: .milliseconds(930 + 1240))) == [1])
        #expect(
            engine.outbound[peer]!.congestion.window == CongestionControl.minimumWindow,
            "three probes unanswered: persistent congestion")
        #expect(engine.statistics.probeTimeouts == 3 && engine.statistics.congestionEvents == 1)
        #expect(sentSequences(engine.tick(now: .milliseconds(2170 + 1599))).isEmpty, "at most the 1.6 s maximum between probes")
        #expect(sentSequences(engine.tick(now: .milliseconds(2170 + 1600))) == [1])
        // Frame 1's latest copy arrives: frame 2, sent long before it, is lost at once.
        #expect(sentSequences(engine.receive(ack(stream, through: 1), now: .milliseconds(3780))) == [2])
        #expect(engine.outbound[peer]!.probeCount == 0 && engine.statistics.retransmitted == 5)
        // Ignored: another stream and through going backwards are out of date; through
        // above what was sent is wrong.
        let (rejected, stale) = (engine.statistics.rejected, engine.statistics.staleAcks)
        #expect(engine.receive(ack(stream + 2, through: 2), now: .zero).isEmpty)
        #expect(engine.receive(ack(stream, through: 3), now: .zero).isEmpty)
        #expect(engine.receive(ack(stream, through: 0), now: .zero).isEmpty)
        #expect(engine.statistics.rejected == rejected + 1)
        #expect(engine.statistics.staleAcks == stale + 2)
        #expect(engine.outbound[peer]!.pending.count == 1)
        #expect(engine.receive(ack(stream, through: 2), now: .milliseconds(3790)).isEmpty)
        #expect(engine.outbound[peer]!.pending.isEmpty && engine.statistics.bufferedBytes == 0)
    }

    @Test func theWindowGrowsInSlowStartAndShrinksOnlyForLossWithAQueue() throws {
        var engine = engine {
            $0.maxBufferedBytes = 1 << 22; $0.reorderWindow = 4096
        }
        _ = engine.joined(peer, now: .zero)
        let stream = engine.outbound[peer]!.reliableStream
        let frames = (0..<40).map { numberedFrame($0, size: 1198) }
        _ = try engine.prepare(frames, to: [peer], mode: .reliable, now: .zero, failWhenFull: false)
        #expect(engine.outbound[peer]!.pending.allSatisfy { $0.bytes.count == 1200 }, "1,200 bytes with the delivery header")
        #expect(engine.outbound[peer]!.unsent == 30, "ten 1,200-byte frames fill the initial window")
        _ = engine.receive(ack(stream, through: 10), now: .milliseconds(50))
        var path = engine.outbound[peer]!
        #expect(path.congestion.window == 24_000, "slow start: the window grows by what was acknowledged")
        #expect(path.unsent == 20, "the pacer's burst (12,000 bytes) lets ten out at once, though the window has room for 20")
        #expect(engine.paths[peer]?.framesNotSent == 20 && engine.paths[peer]?.congestionWindow == 24_000)
        _ = engine.tick(now: .milliseconds(60))
        #expect(engine.outbound[peer]!.unsent == 20 - 5, "10 ms at 1.25 × 24,000 bytes per 50 ms round trip: 6,000 bytes")
        // 12, 13 and 14 arrive, 11 not: with a round trip of 50 ms varying by 18.75, 11 is
        // lost once 9/8 × (50 + 4 × 18.75) ms passed since it was sent (at 50 ms), on a path
        // without a queue: repaired, and the window stays (growing by what was acknowledged).
        _ = engine.receive(ack(stream, through: 10, received: [0b111]), now: .milliseconds(100))
        #expect(engine.outbound[peer]!.lossTime == .microseconds(190_625))
        #expect(sentSequences(engine.tick(now: .microseconds(190_625))).first == 11)
        path = engine.outbound[peer]!
        #expect(engine.statistics.framesLost == 1 && engine.statistics.congestionEvents == 0)
        #expect(path.congestion.window == 24_000 + 3 * 1200)
        // From 300 ms the copy of 11 sent at 190.625 ms and 13 ... 27 arrive, one more each
        // millisecond: eight samples, 206 ... 250 ms against a minimum of 50 (13 ... 25 were
        // sent at 50 and 60 ms, 26 ... 35 at 100). A round still under way is no queue yet;
        // at 600 ms 28 and 30 arrive, 29 not, closing a round of eight samples whose smallest
        // was 206 ms: a queue. By 1.3 s 29 is lost, and 31 ... 35, sent before the copy of 11
        // that arrived; this loss, with a queue, takes the window to 0.7 of itself.
        func held(through last: Int, except missing: Int? = nil) -> [UInt8] {
            var bits = [UInt8](repeating: 0, count: (last - 13) / 8 + 1)
            for sequence in 13...last where sequence != missing {
                bits[(sequence - 13) / 8] |= 1 << ((sequence - 13) % 8)
            }
            return bits
        }
        _ = engine.receive(ack(stream, through: 11, received: held(through: 20)), now: .milliseconds(300))
        #expect(!engine.outbound[peer]!.rtt.showsQueueing)
        for (offset, last) in (21...27).enumerated() {
            _ = engine.receive(ack(stream, through: 11, received: held(through: last)), now: .milliseconds(301 + offset))
        }
        #expect(!engine.outbound[peer]!.rtt.showsQueueing, "the round of eight late samples is still under way")
        _ = engine.receive(ack(stream, through: 11, received: held(through: 30, except: 29)), now: .milliseconds(600))
        path = engine.outbound[peer]!
        #expect(
            path.rtt.showsQueueing && path.rtt.lastRoundMinimum == .milliseconds(206) && engine.statistics.congestionEvents == 0)
        let before = path.congestion.window
        #expect(sentSequences(engine.tick(now: .milliseconds(1300))) == [29, 31, 32, 33, 34, 35])
        path = engine.outbound[peer]!
        #expect(engine.statistics.framesLost == 7 && engine.statistics.congestionEvents == 1)
        #expect(path.congestion.window == before * 7 / 10 && path.congestion.slowStartThreshold == path.congestion.window)
    }

    @Test func aRoundTripOfFewSamplesSaysNothingOfAQueue() {
        // RFC 9406's N_RTT_SAMPLE: a round's smallest sample counts only from 8 samples. On a
        // path whose delay varies, one late sample per round is no queue; a round of eight
        // late ones is.
        var rtt = RoundTripEstimate(initial: .milliseconds(100))
        rtt.add(.milliseconds(2), ackDelay: .zero, now: .zero)
        rtt.add(.milliseconds(30), ackDelay: .zero, now: .milliseconds(100))
        rtt.add(.milliseconds(30), ackDelay: .zero, now: .milliseconds(200))
        #expect(rtt.lastRoundMinimum == nil && !rtt.showsQueueing, "rounds of one sample each")
        for offset in 1...7 {
            rtt.add(.milliseconds(30), ackDelay: .zero, now: .milliseconds(200 + offset))
        }
        #expect(!rtt.showsQueueing, "the round of eight is not over yet")
        rtt.add(.milliseconds(30), ackDelay: .zero, now: .milliseconds(300))
        #expect(rtt.lastRoundMinimum == .milliseconds(30) && rtt.showsQueueing, "8 samples, the smallest 28 ms over 2")
    }

    /// 400 small frames sent at once, then one acknowledgement at 50 ms holding all but every
    /// `gap`-th: the missing ones pass the time threshold together at one tick, 168.75 ms
    /// after they were sent (9/8 × (50 + 4 × 25) ms: one sample, no reordering seen).
    func lossesDeclaredAtOneTick(everyNth gap: Int) throws -> DeliveryEngine {
        var engine = engine {
            $0.maxBufferedBytes = 1 << 22; $0.reorderWindow = 4096
        }
        _ = engine.joined(peer, now: .zero)
        let stream = try #require(engine.outbound[peer]).reliableStream
        _ = try engine.prepare((1...400).map { numberedFrame($0) }, to: [peer], mode: .reliable, now: .zero, failWhenFull: false)
        #expect(try #require(engine.outbound[peer]).unsent == 0, "400 frames of about 20 bytes fit the initial window and burst")
        // Through gap - 1; bit i is sequence gap + 1 + i, set unless it is a multiple of gap.
        var received = [UInt8](repeating: 0, count: (400 - gap) / 8 + 1)
        for sequence in (gap + 1)...400 where sequence % gap != 0 {
            received[(sequence - gap - 1) / 8] |= 1 << ((sequence - gap - 1) % 8)
        }
        _ = engine.receive(ack(stream, through: UInt64(gap - 1), received: received), now: .milliseconds(50))
        #expect(try engine.statistics.framesLost == 0 && #require(engine.outbound[peer]).lossTime == .microseconds(168_750))
        _ = engine.tick(now: .milliseconds(169))
        // 400 is missing too, but is the last sent: nothing later arrived to show it lost.
        #expect(engine.statistics.framesLost == 400 / gap - 1, "every missing frame below 399 is declared at this tick")
        return engine
    }

    @Test func lossesDeclaredTogetherCountAsAShareOfTheCopiesSentNotAsABurst() throws {
        // 5%: of the 128 copies sent up to the last one declared lost (253 ... 380), 7 were.
        // An average moved per event in the order booked read 19 losses in a row as 26%.
        let random = try lossesDeclaredAtOneTick(everyNth: 20)
        #expect(random.statistics.congestionEvents == 0)
        #expect(random.outbound[peer]!.congestion.slowStartThreshold == Int.max)
        #expect(!random.outbound[peer]!.rtt.showsQueueing)
        // 25%: 32 of the 128 up to 396, over an eighth: congestion, without any queue seen.
        let heavy = try lossesDeclaredAtOneTick(everyNth: 4)
        #expect(!heavy.outbound[peer]!.rtt.showsQueueing)
        #expect(heavy.statistics.congestionEvents == 1)
        let window = heavy.outbound[peer]!.congestion.window
        #expect(heavy.outbound[peer]!.congestion.slowStartThreshold == window)
    }

    @Test func theLossHistoryCountsBySendNumberAcrossItsRingAndForgetsWhatWasOverwritten() {
        // A reorder window of 64: 2 × 128 copies of history, a ring of 256 bits.
        var history = LossHistory(reorderWindow: 64)
        for transmission in UInt64(0)..<300 { history.sent(transmission) }
        for lost: UInt64 in [200, 255, 256, 290, 299] { history.mark(lost, lost: true, next: 300) }
        // 172 ... 299 wraps the ring (slots 172 ... 255, then 0 ... 43): all five count.
        #expect(history.rate(through: 299, next: 300) == 5.0 / 128)
        #expect(history.rate(through: 254, next: 300) == 1.0 / 128, "127 ... 254 holds only 200")
        #expect(history.rate(through: 100, next: 300) == nil, "copies 0 ... 100 were overwritten by 256 ... 299")
        history.mark(290, lost: false, next: 300)
        history.mark(40, lost: true, next: 300)
        #expect(
            history.rate(through: 299, next: 300) == 4.0 / 128,
            "a loss shown spurious no longer counts; too old a mark is ignored")
        // A copy sent again takes a clear bit.
        history.sent(300)
        #expect(history.rate(through: 300, next: 301) == 4.0 / 128)
    }

    @Test func lateArrivalsAreThe95thPercentileOfRecentSamplesOnceThereAreEight() {
        var late = LateArrivals()
        for sample in 1...7 { late.add(.milliseconds(sample), acknowledged: 100) }
        #expect(late.delay == .zero, "seven samples say too little: a frame or two held is not a path that holds")
        late.add(.milliseconds(8), acknowledged: 100)
        #expect(late.delay == .milliseconds(8), "of eight, the 95th percentile is the largest")
        // 64 samples of 50 ms and, among the last of them, three held twice as long: the
        // percentile stays at what most of them took.
        for _ in 0..<61 { late.add(.milliseconds(50), acknowledged: 200) }
        for _ in 0..<3 { late.add(.milliseconds(100), acknowledged: 200) }
        #expect(late.delay == .milliseconds(50), "index 60 of 64, sorted: the three outliers sit above it")
        late.add(.milliseconds(100), acknowledged: 200)
        #expect(late.delay == .milliseconds(100), "four of 64 are above the 95th percentile's place")
        // A sample counts while the next 4,096 frames are acknowledged, then the percentile falls back.
        late.refresh(acknowledged: 4296)
        #expect(late.delay == .milliseconds(100))
        late.refresh(acknowledged: 4297)
        #expect(late.delay == .zero, "every sample was taken more than 4,096 frames ago")
        for _ in 0..<8 { late.add(.milliseconds(20), acknowledged: 4297) }
        #expect(late.delay == .milliseconds(20))
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
        guard case .ready(let sent) = try engine.prepare(two, to: [peer], mode: .unreliable, now: .zero, failWhenFull: true)
        else {
            Issue.record("unreliable frames are not kept, so the window does not hold them back")
            return
        }
        #expect(sent.count == 2 && engine.outbound[peer]?.pending.count == 3)
    }

    /// A snapshot's four 51 KB fragments on a fresh stream, 200 µs round trip. The first
    /// fragment fills the initial window and leaves the pacer 39 KB in debt (its burst is
    /// 12,000 bytes). A tick three quarters of a round trip later tops the pacer up at the
    /// initial rate (nothing yet) and restarts its clock, so when the acknowledgement
    /// comes the pacer is still in debt, with nothing in flight: no acknowledgement is on
    /// its way to release the next fragment, which would wait for the next tick, 10 ms.
    @Test func thePacerNeverHoldsAFrameBackWhileNothingIsInFlight() throws {
        var engine = engine()
        _ = engine.joined(peer, now: .zero)
        let stream = engine.outbound[peer]!.reliableStream
        let frames = (0..<4).map { numberedFrame($0, size: 51_000) }
        guard case .ready(let first) = try engine.prepare(frames, to: [peer], mode: .reliable, now: .zero, failWhenFull: false)
        else {
            Issue.record("four 51 KB frames fit a 1 MiB buffer")
            return
        }
        #expect(sentSequences(first) == [1], "one frame fills the initial window")
        #expect(sentSequences(engine.tick(now: .microseconds(150))).isEmpty, "frame 1 is still in flight")
        #expect(sentSequences(engine.receive(ack(stream, through: 1), now: .microseconds(200))) == [2])
        #expect(engine.outbound[peer]!.congestion.bytesInFlight > 0, "frame 2 is in flight; its acknowledgement releases more")
        #expect(sentSequences(engine.receive(ack(stream, through: 2), now: .microseconds(400))) == [3, 4])
    }

    @Test func eachMessageIsReadBeforeTheLockAsTheEngineThenHandlesIt() throws {
        let reliable = arriving(1, stream: 7, sequence: 3)
        let unreliable = arriving(2, stream: 8, sequence: 4)
        let acknowledgement = ack(7, through: 2, received: [0b101])
        // An acknowledgement without stream or through (field 1 and 2 missing).
        let emptyAck = TransportMessage(
            source: peer, bytes: try FrameEncoder().encode(Frame(kind: .control, typeID: DeliveryAck.controlID, body: [])),
            arrival: .zero)
        let plain = TransportMessage(source: peer, bytes: numberedFrame(5), arrival: .zero)
        let cut = TransportMessage(source: peer, bytes: Array(reliable.bytes.dropLast()), arrival: .zero)
        #expect(DeliveryEngine.read(reliable) == .framed(DeliveryHeader(stream: 7, sequence: 3)))
        #expect(DeliveryEngine.read(unreliable) == .framed(DeliveryHeader(stream: 8, sequence: 4)))
        #expect(
            DeliveryEngine.read(acknowledgement) == .acknowledgement(DeliveryAck(stream: 7, through: 2, received: [0b101])))
        #expect(DeliveryEngine.read(emptyAck) == .acknowledgement(nil))
        #expect(DeliveryEngine.read(plain) == .plain)
        #expect(DeliveryEngine.read(cut) == .unreadable)
        // What was read is what the engine acts on: the malformed acknowledgement is
        // rejected and changes nothing kept for the peer.
        var engine = engine()
        _ = engine.joined(peer, now: .zero)
        guard case .ready = try engine.prepare([numberedFrame(1)], to: [peer], mode: .reliable, now: .zero, failWhenFull: true)
        else {
            Issue.record("a frame into an empty buffer must be ready")
            return
        }
        let kept = engine.outbound[peer]!.pending.count
        #expect(engine.receive(emptyAck, now: .milliseconds(1)).isEmpty)
        #expect(engine.statistics.rejected == 1 && engine.statistics.staleAcks == 0)
        #expect(engine.outbound[peer]!.pending.count == kept && kept == 1)
        #expect(engine.receive(cut, now: .milliseconds(1)) == [.deliver(cut)])
        #expect(engine.statistics.rejected == 2)
    }

    @Test func framesWithoutAHeaderPassAndBrokenOnesGoUpForTheMessengerToReject() {
        var engine = engine()
        let plain = TransportMessage(source: peer, bytes: numberedFrame(5), arrival: .zero)
        #expect(engine.receive(plain, now: .zero) == [.deliver(plain)])
        var corrupted = arriving(1, stream: 7, sequence: 1)
        corrupted = TransportMessage(
            source: peer, bytes: corrupted.bytes.enumerated().map { $0 == 5 ? $1 ^ 1 : $1 }, arrival: .zero)
        #expect(engine.receive(corrupted, now: .zero) == [.deliver(corrupted)])
        #expect(engine.statistics.rejected == 1)
        #expect(engine.inbound[peer]?.reliable == nil, "a frame failing its checksum changes no stream state")
    }
}
