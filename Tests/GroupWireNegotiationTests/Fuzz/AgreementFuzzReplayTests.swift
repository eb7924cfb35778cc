import Foundation
import GroupWireFuzzChecks
import Testing

/// Replays every seed and saved crash input of the FuzzAgreement target
/// (Fuzz/corpus/FuzzAgreement, Fuzz/regressions/FuzzAgreement) through
/// `agreementFuzzViolations`, the very check the target runs
/// (Fuzz/Harnesses/AgreementFuzzHarness.swift, in the _GroupWireFuzzChecks product).
@Suite struct AgreementFuzzReplayTests {
    static let inputs = fuzzReplayInputs(target: "FuzzAgreement")

    @Test func theSeedCorpusIsCommitted() {
        #expect(Self.inputs.count >= 50, "seeds in Fuzz/corpus/FuzzAgreement; run python3 Fuzz/make-corpus.py")
    }

    @Test(arguments: inputs)
    func everyPairAgreesAsItsMirrorAndTheEngineFollowsTheSteps(_ url: URL) throws {
        let input = [UInt8](try Data(contentsOf: url))
        #expect(agreementFuzzViolations(input) == [], "\(url.lastPathComponent)")
    }
}
