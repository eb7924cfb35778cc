import Foundation
import Testing

/// Replays every seed and saved crash input of the FuzzDynamicCodec target
/// (Fuzz/corpus/FuzzDynamicCodec, Fuzz/regressions/FuzzDynamicCodec) through `dynamicCodecFuzzViolations`,
/// the very check the target runs (Fuzz/Harnesses/DynamicCodecFuzzHarness.swift, linked here), so a
/// fixed crash stays fixed without running the fuzzer.
@Suite struct DynamicCodecFuzzReplayTests {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // Fuzz
        .deletingLastPathComponent()  // GroupWireDynamicTests
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()  // root

    static let inputs: [URL] = ["corpus", "regressions"].flatMap { folder -> [URL] in
        let url = root.appendingPathComponent("Fuzz/\(folder)/FuzzDynamicCodec")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []
        return names.filter { !$0.hasPrefix(".") }.sorted().map { url.appendingPathComponent($0) }
    }

    @Test func theSeedCorpusIsCommitted() {
        #expect(Self.inputs.count >= 4, "seeds in Fuzz/corpus/FuzzDynamicCodec; run python3 Fuzz/make-corpus.py")
    }

    @Test(arguments: inputs)
    func everyCorpusAndRegressionInputDecodesEncodesAndDecodesToTheSameJSON(_ url: URL) throws {
        let input = [UInt8](try Data(contentsOf: url))
        #expect(dynamicCodecFuzzViolations(input) == [], "\(url.lastPathComponent)")
    }
}
