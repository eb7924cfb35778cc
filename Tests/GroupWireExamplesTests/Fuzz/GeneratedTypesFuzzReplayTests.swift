import Foundation
import GroupWireFuzzChecks
import Testing

/// Replays every seed and saved crash input of the FuzzGeneratedTypes target
/// (Fuzz/corpus/FuzzGeneratedTypes, Fuzz/regressions/FuzzGeneratedTypes) through `generatedTypesFuzzViolations`,
/// the very check the target runs (Fuzz/Harnesses/GeneratedTypesFuzzHarness.swift, in the _GroupWireFuzzChecks product), so a
/// fixed crash stays fixed without running the fuzzer.
@Suite struct GeneratedTypesFuzzReplayTests {
    static let inputs = fuzzReplayInputs(target: "FuzzGeneratedTypes")

    @Test func theSeedCorpusIsCommitted() {
        #expect(Self.inputs.count >= 6, "seeds in Fuzz/corpus/FuzzGeneratedTypes; run python3 Fuzz/make-corpus.py")
    }

    @Test(arguments: inputs)
    func everyCorpusAndRegressionInputDecodesReencodesAndDecodesToAnEqualValue(_ url: URL) throws {
        let input = [UInt8](try Data(contentsOf: url))
        #expect(generatedTypesFuzzViolations(input) == [], "\(url.lastPathComponent)")
    }
}
