import Foundation
import GroupWireFuzzChecks
import Testing

/// Replays every seed and saved crash input of the FuzzFrameFile target
/// (Fuzz/corpus/FuzzFrameFile, Fuzz/regressions/FuzzFrameFile) through `frameFileFuzzViolations`,
/// the very check the target runs (Fuzz/Harnesses/FrameFileFuzzHarness.swift, in the _GroupWireFuzzChecks product), so a
/// fixed crash stays fixed without running the fuzzer.
@Suite struct FrameFileFuzzReplayTests {
    static let inputs = fuzzReplayInputs(target: "FuzzFrameFile")

    @Test func theSeedCorpusIsCommitted() {
        #expect(Self.inputs.count >= 6, "seeds in Fuzz/corpus/FuzzFrameFile; run python3 Fuzz/make-corpus.py")
    }

    @Test(arguments: inputs)
    func everyCorpusAndRegressionInputReadsWithLocationsInsideTheText(_ url: URL) throws {
        let input = [UInt8](try Data(contentsOf: url))
        #expect(frameFileFuzzViolations(input) == [], "\(url.lastPathComponent)")
    }
}
