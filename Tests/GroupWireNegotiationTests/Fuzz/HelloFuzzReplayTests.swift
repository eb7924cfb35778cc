import Foundation
import GroupWireFuzzChecks
import Testing

/// Replays every seed and saved crash input of the FuzzHello target (Fuzz/corpus/FuzzHello,
/// Fuzz/regressions/FuzzHello) through `helloFuzzViolations`, the very check the target
/// runs (Fuzz/Harnesses/HelloFuzzHarness.swift, in the _GroupWireFuzzChecks product).
@Suite struct HelloFuzzReplayTests {
    static let inputs = fuzzReplayInputs(target: "FuzzHello")

    @Test func theSeedCorpusIsCommitted() {
        #expect(Self.inputs.count >= 10, "seeds in Fuzz/corpus/FuzzHello; run python3 Fuzz/make-corpus.py")
    }

    @Test(arguments: inputs)
    func everyCorpusInputDecodesToAHelloThatSurvivesReencodingOrFailsWithAnOffsetInside(_ url: URL) throws {
        let input = [UInt8](try Data(contentsOf: url))
        #expect(helloFuzzViolations(input) == [], "\(url.lastPathComponent)")
    }
}
