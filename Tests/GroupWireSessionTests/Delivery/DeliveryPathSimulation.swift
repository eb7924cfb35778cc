import GroupWire
import GroupWireTesting
import Testing

@testable import GroupWireSession

/// Two engines on a path like the delivery benchmark's paced rows, in simulated time.
extension DeliveryEngineTests {
    /// What one run of ``pacedPath(seed:loss:)`` did.
    struct PacedPathRun {
        var sender: DeliveryEngine
        var receiver: DeliveryEngine
        /// The message numbers delivered, in order of delivery.
        var delivered: [Int] = []
        /// Each delivered message's time from its send to its delivery, in order of delivery.
        var latencies: [Duration] = []
        /// Copies the path dropped, data and acknowledgements, and of those the data.
        var dropped = 0
        var droppedData = 0
        /// The most copies of one frame the path dropped, the first included.
        var mostCopiesLostOfOneFrame = 0
        /// The sender's reordering tolerance at each tick, every 10 ms.
        var tolerances: [Duration] = []

        /// The latency `fraction` of the messages delivered are within.
        func percentile(_ fraction: Double) -> Duration {
            let sorted = latencies.sorted()
            return sorted.isEmpty ? .zero : sorted[min(sorted.count - 1, Int(Double(sorted.count) * fraction))]
        }
    }

    /// `perMillisecond` messages each millisecond for `sendFor` milliseconds, run for
    /// `runFor` (a message the sender has no room for waits for it); every
    /// copy, data or acknowledgement, is lost with probability `loss` or else delayed by
    /// `delay` microseconds (by default 1 ... 20 ms), each on its own (so the path also
    /// reorders), and 50 ms more with probability `held` if sent before `heldUntil`; with
    /// probability `duplicate` a second copy goes with a delay of its own (so a held copy's
    /// duplicate may arrive on time); both engines tick every 10 ms.
    func pacedPath(
        seed: UInt64, loss: Double, held: Double = 0, heldUntil: Duration = .seconds(3), duplicate: Double = 0,
        delay: ClosedRange<Int64> = 1000...20_000, perMillisecond: Int = 1, sendFor: Int = 2000, runFor: Int = 3000
    ) throws -> PacedPathRun {
        var run = PacedPathRun(sender: engine(), receiver: engine())
        let me = ParticipantID.numbered(1)
        _ = run.sender.joined(peer, now: .zero)
        var random = SeededRandom(seed: seed)
        struct Copy {
            let due: Duration
            let order: Int
            let toReceiver: Bool
            let bytes: [UInt8]
        }
        var wire: [Copy] = []
        var order = 0
        var copiesLost: [[UInt8]: Int] = [:]
        func transmit(_ outputs: [DeliveryEngine.Output], toReceiver: Bool, at now: Duration) {
            for case .send(let bytes, _) in outputs {
                if random.chance(loss) {
                    run.dropped += 1
                    if toReceiver {
                        run.droppedData += 1
                        // Every copy of a frame has the same bytes.
                        copiesLost[bytes, default: 0] += 1
                        run.mostCopiesLostOfOneFrame = max(run.mostCopiesLostOfOneFrame, copiesLost[bytes] ?? 0)
                    }
                    continue
                }
                let span = UInt64(delay.upperBound - delay.lowerBound) + 1
                var wait = Duration.microseconds(delay.lowerBound + Int64(random.next() % span))
                if held > 0, random.chance(held), now < heldUntil { wait += .milliseconds(50) }
                wire.append(Copy(due: now + wait, order: order, toReceiver: toReceiver, bytes: bytes))
                order += 1
                if duplicate > 0, random.chance(duplicate) {
                    let again = Duration.microseconds(delay.lowerBound + Int64(random.next() % span))
                    wire.append(Copy(due: now + again, order: order, toReceiver: toReceiver, bytes: bytes))
                    order += 1
                }
            }
        }
        var nextMessage = 0
        for millisecond in 0..<runFor {
            let now = Duration.milliseconds(millisecond)
            // What arrives by now, in order of arrival.
            while let next = wire.indices.filter({ wire[$0].due <= now }).min(by: {
                (wire[$0].due, wire[$0].order) < (wire[$1].due, wire[$1].order)
            }) {
                let copy = wire.remove(at: next)
                if copy.toReceiver {
                    let outputs = run.receiver.receive(
                        TransportMessage(source: me, bytes: copy.bytes, arrival: copy.due), now: copy.due)
                    for index in summary(outputs).delivered {
                        run.delivered.append(index)
                        run.latencies.append(copy.due - .milliseconds(index / perMillisecond))
                    }
                    transmit(outputs, toReceiver: false, at: copy.due)
                } else {
                    transmit(
                        run.sender.receive(TransportMessage(source: peer, bytes: copy.bytes, arrival: copy.due), now: copy.due),
                        toReceiver: true, at: copy.due)
                }
            }
            // The messages due by now, in order; one the sender has no room for waits, and the
            // ones after it with it, as an application's send waits for room.
            while nextMessage < min((millisecond + 1) * perMillisecond, sendFor * perMillisecond),
                case .ready(let outputs) = try run.sender.prepare(
                    [numberedFrame(nextMessage)], to: [peer], mode: .reliable, now: now, failWhenFull: false)
            {
                transmit(outputs, toReceiver: true, at: now)
                nextMessage += 1
            }
            if millisecond % 10 == 0 {
                run.tolerances.append(run.sender.paths[peer]?.reorderingTolerance ?? .zero)
                transmit(run.sender.tick(now: now), toReceiver: true, at: now)
                transmit(run.receiver.tick(now: now), toReceiver: false, at: now)
            }
        }
        return run
    }

    @Test func randomLossOnAPathWhoseDelayVariesIsRepairedWithoutCuttingTheWindow() throws {
        let run = try pacedPath(seed: 31, loss: 0.05)
        #expect(run.delivered == Array(0..<2000), "everything, in order, exactly once")
        #expect(run.dropped > 80 && run.sender.statistics.framesLost >= 80, "about 5% of 2,000 frames and their acknowledgements")
        #expect(run.sender.statistics.congestionEvents == 0, "no queue and no burst of loss: nothing to slow down for")
        #expect(run.sender.outbound[peer]!.congestion.slowStartThreshold == Int.max)
        #expect(run.sender.statistics.spuriousLosses <= run.sender.statistics.framesLost / 10)
    }

    @Test(arguments: 1...10)
    func aFrameLostTwiceCostsTheStreamNoThirdRoundOfLossDetection(seed: UInt64) throws {
        // Loss detection here takes about 55 ms a round (the path reorders by up to 19 ms and
        // acknowledgements wait up to a tick). A message behind a frame lost twice waits two
        // rounds, about 110–130 ms; behind one lost three times, three: before repairs after
        // a second loss went twice, seeds 4, 5, 7 and 8 lost a frame three times, and 4, 5
        // and 7 had a p99 of 163–194 ms.
        let run = try pacedPath(seed: seed, loss: 0.05)
        #expect(run.delivered == Array(0..<2000))
        let statistics = run.sender.statistics
        #expect(statistics.doubledRepairs > 0 && statistics.doubledRepairs <= statistics.framesLost / 10)
        // Unless one frame lost four copies (1 in 10 of these runs), p99 is within the
        // issue's 150 ms: the third copy and its double are both lost 1 time in 400.
        if run.mostCopiesLostOfOneFrame < 4 {
            #expect(run.percentile(0.99) <= .milliseconds(150))
        } else {
            // Three rounds, then: still within what one round more costs.
            #expect(run.percentile(0.99) <= .milliseconds(200))
        }
        let lossFree = try pacedPath(seed: seed, loss: 0)
        #expect(lossFree.percentile(0.99) <= .milliseconds(20) && lossFree.sender.statistics.doubledRepairs == 0)
    }

    @Test(arguments: [(31, 4, 2000), (32, 4, 2000), (33, 4, 2000), (31, 20, 500), (32, 20, 500)] as [(UInt64, Int, Int)])
    func aPathThatHoldsATenthOfItsCopiesFarBeyondItsRoundTripIsWaitedOutNotResent(
        seed: UInt64, perMillisecond: Int, sendFor: Int
    ) throws {
        // The delivery benchmark's mixed row in simulated time: a path of 0.2–0.8 ms that
        // loses 5% of the copies, holds 10% back 50 ms and sends 5% twice, 8,000 or 10,000
        // messages at 4 or 20 a millisecond (at 20, faster than the path lets through while
        // the sender may keep only 1,024 frames unacknowledged, so sends wait). A frame missing
        // after a round trip is twice as likely held as lost; sending each such frame again
        // cost 2.9 copies per copy lost (seed 31, 4 a millisecond, before the late arrivals
        // counted). At 20 a millisecond, the path's own variation (acknowledgements wait up
        // to a tick) overtakes far more frames than the held ones: counting those in the
        // percentile took it to a few milliseconds half the time, and 1.9 copies per loss.
        let run = try pacedPath(
            seed: seed, loss: 0.05, held: 0.1, duplicate: 0.05, delay: 200...800, perMillisecond: perMillisecond,
            sendFor: sendFor)
        let messages = perMillisecond * sendFor
        #expect(run.delivered == Array(0..<messages), "everything, in order, exactly once")
        let statistics = run.sender.statistics
        #expect(Double(run.droppedData) > Double(messages) * 0.045, "about 5% of the frames and their repairs")
        // The target: at most 1.5 copies sent again per copy lost (1.08–1.14 at 4 a
        // millisecond, 1.27 at 20, where the first 50 ms, before any held copy arrived, weigh
        // more in a shorter run).
        #expect(
            Double(statistics.retransmitted) <= 1.5 * Double(run.droppedData),
            "\(statistics.retransmitted) copies sent again for \(run.droppedData) lost")
        // The held frames, 50 ms beyond a round trip under a millisecond, are waited for:
        // 9/8 of the 95th percentile of how late they arrived (their acknowledgement can
        // wait up to a tick, and a few are held twice): 64–78 ms in these runs.
        let path = try #require(run.sender.paths[peer])
        #expect(path.reorderingTolerance >= .milliseconds(50) && path.reorderingTolerance <= .milliseconds(100))
        #expect(path.minRTT < .milliseconds(1), "the path itself is under a millisecond")
    }

    @Test func theToleranceFallsBackOnceThePathStopsHoldingFramesBack() throws {
        // Held copies for the first 0.8 s, then none: the tolerance waits for them while the
        // path holds, and falls back once the samples of then stop counting (4,096 frames
        // acknowledged later at the latest, or sooner as newer samples replace them).
        let run = try pacedPath(
            seed: 31, loss: 0.05, held: 0.1, heldUntil: .milliseconds(800), delay: 200...800, perMillisecond: 4)
        #expect(run.delivered == Array(0..<8000))
        let whileHeld = run.tolerances[30..<80]
        #expect(whileHeld.allSatisfy { $0 >= .milliseconds(50) }, "from 0.3 s to 0.8 s: \(whileHeld)")
        let path = try #require(run.sender.paths[peer])
        #expect(path.reorderingTolerance < .milliseconds(10))
        #expect(Double(run.sender.statistics.retransmitted) <= 1.3 * Double(run.droppedData))
    }

    @Test func aPathThatOnlyReordersWithinItsRoundTripKeepsTheToleranceOfItsRoundTrip() throws {
        // The same fast path, losing 5% but holding nothing back: a loss is repaired within
        // about a round trip plus the tolerance of its variation, not 50 ms later.
        let run = try pacedPath(seed: 31, loss: 0.05, delay: 200...800, perMillisecond: 4)
        #expect(run.delivered == Array(0..<8000))
        let path = try #require(run.sender.paths[peer])
        #expect(path.reorderingTolerance < .milliseconds(10))
        #expect(run.percentile(0.99) < .milliseconds(40))
    }
}
