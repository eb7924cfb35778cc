import Foundation
import GroupWireFuzzChecks
import Testing

/// Replays every seed and saved crash input of the FuzzCaptureReader and FuzzValidate
/// targets (Fuzz/corpus, Fuzz/regressions) through the very checks the targets run
/// (Fuzz/Harnesses/CaptureFuzzHarness.swift), so a fixed crash stays fixed without the fuzzer.
@Suite struct CaptureFuzzReplayTests {
    static let readerInputs = fuzzReplayInputs(target: "FuzzCaptureReader")
    static let validateInputs = fuzzReplayInputs(target: "FuzzValidate")

    @Test func theSeedCorporaAreCommitted() {
        #expect(Self.readerInputs.count >= 6, "seeds in Fuzz/corpus/FuzzCaptureReader; run python3 Fuzz/make-corpus.py")
        #expect(Self.validateInputs.count >= 6, "seeds in Fuzz/corpus/FuzzValidate; run python3 Fuzz/make-corpus.py")
    }

    @Test(arguments: readerInputs)
    func everyCaptureReaderInputKeepsTheReadersInvariants(_ url: URL) throws {
        let input = [UInt8](try Data(contentsOf: url))
        #expect(captureReaderFuzzViolations(input) == [], "\(url.lastPathComponent)")
    }

    @Test(arguments: validateInputs)
    func everyValidateInputKeepsTheValidatorsInvariants(_ url: URL) throws {
        let input = [UInt8](try Data(contentsOf: url))
        #expect(validateFuzzViolations(input) == [], "\(url.lastPathComponent)")
    }
}
