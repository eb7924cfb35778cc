import Foundation
import GroupWireFuzzChecks
import Testing

/// Replays every seed and saved crash input of the FuzzDynamicCodec target
/// (Fuzz/corpus/FuzzDynamicCodec, Fuzz/regressions/FuzzDynamicCodec) through `dynamicCodecFuzzViolations`,
/// the very check the target runs (Fuzz/Harnesses/DynamicCodecFuzzHarness.swift, in the _GroupWireFuzzChecks product), so a
/// fixed crash stays fixed without running the fuzzer.
@Suite struct DynamicCodecFuzzReplayTests {
    static let inputs = fuzzReplayInputs(target: "FuzzDynamicCodec")

    @Test func theSeedCorpusIsCommitted() {
        #expect(Self.inputs.count >= 4, "seeds in Fuzz/corpus/FuzzDynamicCodec; run python3 Fuzz/make-corpus.py")
    }

    @Test(arguments: inputs)
    func everyCorpusAndRegressionInputDecodesEncodesAndDecodesToTheSameJSON(_ url: URL) throws {
        let input = [UInt8](try Data(contentsOf: url))
        #expect(dynamicCodecFuzzViolations(input) == [], "\(url.lastPathComponent)")
    }
}
