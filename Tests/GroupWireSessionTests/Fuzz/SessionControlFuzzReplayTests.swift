import Foundation
import GroupWireFuzzChecks
import Testing

/// Replays every seed and saved crash input of the FuzzSessionControl target
/// (Fuzz/corpus/FuzzSessionControl, Fuzz/regressions/FuzzSessionControl) through
/// `sessionControlFuzzViolations`, the very check the target runs
/// (Fuzz/Harnesses/SessionControlFuzzHarness.swift, in the _GroupWireFuzzChecks product).
@Suite struct SessionControlFuzzReplayTests {
    static let inputs = fuzzReplayInputs(target: "FuzzSessionControl")

    @Test func theSeedCorpusIsCommitted() {
        #expect(Self.inputs.count >= 12, "seeds in Fuzz/corpus/FuzzSessionControl; run python3 Fuzz/make-corpus.py")
    }

    @Test(arguments: inputs)
    func everyCorpusInputSurvivesReencodingAndKeepsTheEngineWithinItsBounds(_ url: URL) throws {
        let input = [UInt8](try Data(contentsOf: url))
        #expect(sessionControlFuzzViolations(input) == [], "\(url.lastPathComponent)")
    }

    @Test func fortyJoinsForUnannouncedSessionsStayWithinTheHeldBound() {
        // Joins for 40 sessions never announced: the engine holds at most 16 of them.
        let joins = (0..<40).flatMap { index -> [UInt8] in [2, 2, 0x08, UInt8(index + 1)] }
        #expect(sessionControlFuzzViolations(joins) == [])
    }
}
