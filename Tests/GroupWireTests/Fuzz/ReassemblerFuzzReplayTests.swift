import Foundation
import GroupWireFuzzChecks
import Testing

/// Replays every seed and saved crash input of the FuzzReassembler target
/// (Fuzz/corpus/FuzzReassembler, Fuzz/regressions/FuzzReassembler) through `reassemblerFuzzViolations`,
/// the very check the target runs (Fuzz/Harnesses/ReassemblerFuzzHarness.swift, in the _GroupWireFuzzChecks product), so a
/// fixed crash stays fixed without running the fuzzer.
@Suite struct ReassemblerFuzzReplayTests {
    static let inputs = fuzzReplayInputs(target: "FuzzReassembler")

    @Test func theSeedCorpusIsCommitted() {
        #expect(Self.inputs.count >= 10, "seeds in Fuzz/corpus/FuzzReassembler; run python3 Fuzz/make-corpus.py")
    }

    @Test(arguments: inputs)
    func everyCorpusAndRegressionInputKeepsTheBudgetAndCompletesMessagesAtTheirDeclaredLength(_ url: URL) throws {
        let input = [UInt8](try Data(contentsOf: url))
        #expect(reassemblerFuzzViolations(input) == [], "\(url.lastPathComponent)")
    }
}
