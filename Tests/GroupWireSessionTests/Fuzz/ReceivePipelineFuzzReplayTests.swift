import Foundation
import GroupWireFuzzChecks
import Testing

/// Replays every seed and saved crash input of the FuzzReceivePipeline target
/// (Fuzz/corpus/FuzzReceivePipeline, Fuzz/regressions/FuzzReceivePipeline) through
/// `receivePipelineFuzzViolations`, the very check the target runs
/// (Fuzz/Harnesses/ReceivePipelineFuzzHarness.swift, in the _GroupWireFuzzChecks product).
@Suite struct ReceivePipelineFuzzReplayTests {
    static let inputs = fuzzReplayInputs(target: "FuzzReceivePipeline")

    @Test func theSeedCorpusIsCommitted() {
        #expect(Self.inputs.count >= 5, "seeds in Fuzz/corpus/FuzzReceivePipeline; run python3 Fuzz/make-corpus.py")
    }

    @Test(arguments: inputs)
    func everyCorpusAndRegressionInputKeepsMessagesAndPartialsWithinTheLimits(_ url: URL) throws {
        let input = [UInt8](try Data(contentsOf: url))
        #expect(receivePipelineFuzzViolations(input) == [], "\(url.lastPathComponent)")
    }
}
