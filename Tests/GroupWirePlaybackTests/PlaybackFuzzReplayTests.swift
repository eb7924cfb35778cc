import Foundation
import GroupWireFuzzChecks
import Testing

/// Replays every seed and saved crash input of the FuzzPlayback target (Fuzz/corpus,
/// Fuzz/regressions) through the checks the target runs
/// (Fuzz/Harnesses/PlaybackFuzzHarness.swift).
@Suite struct PlaybackFuzzReplayTests {
    static let inputs = fuzzReplayInputs(target: "FuzzPlayback")

    @Test func theSeedCorpusIsCommittedAndReachesEveryMessage() {
        #expect(Self.inputs.count >= 15, "seeds in Fuzz/corpus/FuzzPlayback; run python3 Fuzz/make-corpus.py")
        let selectors = Set(Self.inputs.compactMap { (try? Data(contentsOf: $0))?.first.map { Int($0) % 6 } })
        #expect(selectors == Set(0..<6))
    }

    @Test(arguments: inputs)
    func everyInputReadsAndReencodesOrFailsInside(_ url: URL) throws {
        #expect(playbackFuzzViolations([UInt8](try Data(contentsOf: url))) == [], "\(url.lastPathComponent)")
    }

    /// The harness finds what it looks for: a run of exchanges out of order is refused, and
    /// the checks see it (an estimate that took one would be a violation).
    @Test func theHarnessRejectsWhatItShould() {
        var exchange: [UInt8] = [5]
        for value: Int64 in [10, 5, 4, 9] { exchange += withUnsafeBytes(of: value.littleEndian, Array.init) }
        #expect(playbackFuzzViolations(exchange) == [])
        #expect(playbackFuzzViolations([0, 0x11, 0, 0, 0, 0, 0, 0, 0xF0, 0x7F]).isEmpty)
    }
}
