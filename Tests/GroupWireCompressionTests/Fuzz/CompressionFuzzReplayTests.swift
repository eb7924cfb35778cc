import Foundation
import GroupWireFuzzChecks
import Testing

/// Replays every seed and saved crash input of the FuzzCompression target
/// (Fuzz/corpus/FuzzCompression, Fuzz/regressions/FuzzCompression) through `compressionFuzzViolations`,
/// the very check the target runs (Fuzz/Harnesses/CompressionFuzzHarness.swift, in the _GroupWireFuzzChecks product), so a
/// fixed crash stays fixed without running the fuzzer.
@Suite struct CompressionFuzzReplayTests {
    static let inputs = fuzzReplayInputs(target: "FuzzCompression")

    @Test func theSeedCorpusIsCommitted() {
        #expect(Self.inputs.count >= 20, "seeds in Fuzz/corpus/FuzzCompression; run python3 Fuzz/make-corpus.py")
    }

    @Test(arguments: inputs)
    func everyCorpusAndRegressionInputDecompressesRecompressesAndStaysWithinTheLimit(_ url: URL) throws {
        let input = [UInt8](try Data(contentsOf: url))
        #expect(compressionFuzzViolations(input) == [], "\(url.lastPathComponent)")
    }
}
