import Foundation
import GroupWireFuzzChecks
import Testing

/// Replays every seed and saved crash input of the FuzzNATSParser target (Fuzz/corpus,
/// Fuzz/regressions) through the checks the target runs (Fuzz/Harnesses/NATSFuzzHarness.swift).
@Suite struct NATSFuzzReplayTests {
    static let inputs = fuzzReplayInputs(target: "FuzzNATSParser")

    @Test func theSeedCorpusIsCommitted() {
        #expect(Self.inputs.count >= 20, "seeds in Fuzz/corpus/FuzzNATSParser; run python3 Fuzz/make-corpus.py")
    }

    @Test(arguments: inputs)
    func everyStreamReadsTheSameWholeOrInPiecesAndReencodesToItself(_ url: URL) throws {
        #expect(natsParserFuzzViolations([UInt8](try Data(contentsOf: url))) == [], "\(url.lastPathComponent)")
    }
}
