import Foundation
import GroupWireFuzzChecks
import Testing

/// Replays every seed and saved crash input of the FuzzSpecCompiler target
/// (Fuzz/corpus/FuzzSpecCompiler, Fuzz/regressions/FuzzSpecCompiler) through `specCompilerFuzzViolations`,
/// the very check the target runs (Fuzz/Harnesses/SpecCompilerFuzzHarness.swift, in the _GroupWireFuzzChecks product), so a
/// fixed crash stays fixed without running the fuzzer.
@Suite struct SpecCompilerFuzzReplayTests {
    static let inputs = fuzzReplayInputs(target: "FuzzSpecCompiler")

    @Test func theSeedCorpusIsCommitted() {
        #expect(Self.inputs.count >= 5, "seeds in Fuzz/corpus/FuzzSpecCompiler; run python3 Fuzz/make-corpus.py")
    }

    @Test(arguments: inputs)
    func everyCorpusAndRegressionInputCompilesWithDiagnosticsInsideTheTextAndAStableFingerprint(_ url: URL) throws {
        let input = [UInt8](try Data(contentsOf: url))
        #expect(specCompilerFuzzViolations(input) == [], "\(url.lastPathComponent)")
    }
}
