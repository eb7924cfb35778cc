// Shared by every harness-based fuzz target and its replay test (both depend on the
// GroupWireFuzzChecks product): finding repository files, listing a target's inputs,
// running a check.
import Foundation

/// `relativePath` under the repository root: the nearest folder above this source file
/// that holds `Spec/`.
public func fuzzRepositoryFile(_ relativePath: String) -> URL {
    var folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    while folder.path != "/" {
        if FileManager.default.fileExists(atPath: folder.appendingPathComponent("Spec").path) {
            return folder.appendingPathComponent(relativePath)
        }
        folder.deleteLastPathComponent()
    }
    return URL(fileURLWithPath: relativePath)
}

/// The files a replay test runs for `target`: `Fuzz/corpus/TARGET`, then
/// `Fuzz/regressions/TARGET`, each sorted by name, without hidden files.
public func fuzzReplayInputs(target: String) -> [URL] {
    ["corpus", "regressions"].flatMap { folder -> [URL] in
        let url = fuzzRepositoryFile("Fuzz/\(folder)/\(target)")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []
        return names.filter { !$0.hasPrefix(".") }.sorted().map { url.appendingPathComponent($0) }
    }
}

/// Runs `check` on libFuzzer's input and traps with what it reports, which libFuzzer
/// records as a crash: the body of every harness target's `LLVMFuzzerTestOneInput`.
public func runFuzzCheck(_ data: UnsafePointer<UInt8>?, _ size: Int, _ check: ([UInt8]) -> [String]) -> CInt {
    let input = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    let violations = check(input)
    precondition(violations.isEmpty, violations.joined(separator: "; "))
    return 0
}
