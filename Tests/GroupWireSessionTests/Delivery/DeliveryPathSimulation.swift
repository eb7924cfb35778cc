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
        /// Copies the path dropped, data and acknowledgements.
        var dropped = 0
        /// The most copies of one frame the path dropped, the first included.
        var mostCopiesLostOfOneFrame = 0

        /// The latency `fraction` of the messages delivered are within.
        func percentile(_ fraction: Double) -> Duration {
            let sorted = latencies.sorted()
            return sorted.isEmpty ? .zero : sorted[min(sorted.count - 1, Int(Double(sorted.count) * fraction))]
        }
    }

    /// One message per millisecond for two seconds, run for three; every copy, data or
    /// acknowledgement, is lost with probability `loss` or else delayed 1 ... 20 ms, each on
    /// its own (so the path also reorders); both engines tick every 10 ms.
    func pacedPath(seed: UInt64, loss: Double) throws -> PacedPathRun {
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
                        // Every copy of a frame has the same bytes.
                        copiesLost[bytes, default: 0] += 1
                        run.mostCopiesLostOfOneFrame = max(run.mostCopiesLostOfOneFrame, copiesLost[bytes] ?? 0)
                    }
                    continue
                }
                let delay = Duration.microseconds(1000 + Int64(random.next() % 19_001))
                wire.append(Copy(due: now + delay, order: order, toReceiver: toReceiver, bytes: bytes))
                order += 1
            }
        }
        for millisecond in 0..<3000 {
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
                        run.latencies.append(copy.due - .milliseconds(index))
                    }
                    transmit(outputs, toReceiver: false, at: copy.due)
                } else {
                    transmit(
                        run.sender.receive(TransportMessage(source: peer, bytes: copy.bytes, arrival: copy.due), now: copy.due),
                        toReceiver: true, at: copy.due)
                }
            }
            if millisecond < 2000,
                case .ready(let outputs) = try run.sender.prepare(
                    [numberedFrame(millisecond)], to: [peer], mode: .reliable, now: now, failWhenFull: false)
            {
                transmit(outputs, toReceiver: true, at: now)
            }
            if millisecond % 10 == 0 {
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
}
