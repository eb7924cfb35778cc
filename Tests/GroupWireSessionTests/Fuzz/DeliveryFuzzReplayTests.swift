import Foundation
import GroupWire
import GroupWireFuzzChecks
import Testing

@testable import GroupWireSession

/// Replays every seed and saved crash input of the FuzzDelivery target
/// (Fuzz/corpus/FuzzDelivery, Fuzz/regressions/FuzzDelivery) through
/// `deliveryFuzzViolations`, the very check the target runs
/// (Fuzz/Harnesses/DeliveryFuzzHarness.swift, in the _GroupWireFuzzChecks product).
@Suite struct DeliveryFuzzReplayTests {
    static let inputs = fuzzReplayInputs(target: "FuzzDelivery")

    @Test func theSeedCorpusIsCommitted() {
        #expect(Self.inputs.count >= 12, "seeds in Fuzz/corpus/FuzzDelivery; run python3 Fuzz/make-corpus.py")
    }

    @Test(arguments: inputs)
    func noCorpusInputDeliversTwiceOrOutOfOrderOrGrowsABufferPastItsBound(_ url: URL) throws {
        let input = [UInt8](try Data(contentsOf: url))
        #expect(deliveryFuzzViolations(input) == [], "\(url.lastPathComponent)")
    }

    /// The checker catches what it looks for: a frame delivered twice, a reliable stream
    /// out of order, a frame from a removed peer.
    @Test func theCheckerReportsADoubleDeliveryAGapAndARemovedSender() throws {
        let peer = ParticipantID.numbered(2)
        func delivered(_ sequence: UInt64) throws -> DeliveryEngine.Output {
            let frame = try FrameEncoder().encode(
                Frame(typeID: 1, delivery: DeliveryHeader(stream: 3, sequence: sequence), body: []))
            return .deliver(TransportMessage(source: peer, bytes: frame, arrival: .zero))
        }
        let engine = DeliveryEngine(configuration: DeliveryConfiguration(clock: TimerClock(ContinuousClock())))
        var checker = DeliveryFuzzing.Checker()
        checker.check([try delivered(1), try delivered(1)], engine: engine, wasRemoved: nil)
        #expect(checker.violations.count == 2, "twice, and 1 after 1")
        checker.check([try delivered(3)], engine: engine, wasRemoved: peer)
        #expect(checker.violations.count == 4, "2 skipped, and its sender was removed")
        #expect(checker.violations[0].contains("twice") && checker.violations[3].contains("after 1"))
        // A removed peer heard again is taken back in the same step: its frame may go up then.
        checker.check([.joined(peer), try delivered(4)], engine: engine, wasRemoved: peer)
        #expect(checker.violations.count == 4)
    }

    /// A crafted run through every drop path (a duplicate, overflow beyond the reorder
    /// window, a stale incarnation, an unreliable frame too old) breaks no invariant.
    @Test func aCraftedRunThroughEveryDropPathBreaksNoInvariant() throws {
        // op, a, b, n: a reliable frame of incarnation 1 has a = 4 | 1.
        var input: [UInt8] = []
        func frame(_ sequence: UInt8, incarnation: UInt8 = 1, reliable: Bool = true) {
            input += [0, (reliable ? 4 : 0) | incarnation, sequence - 1, 0]
        }
        frame(1); frame(1)  // duplicate
        frame(40)  // beyond the window of 16
        frame(1, incarnation: 2); frame(2)  // incarnation 2 replaces 1; 1's frame is stale
        frame(250, reliable: false); input += [0, 8, 0, 0]  // unreliable 250, then 2^64-1
        frame(200, reliable: false)  // now more than 1,024 below the highest
        #expect(deliveryFuzzViolations(input) == [])
    }
}
