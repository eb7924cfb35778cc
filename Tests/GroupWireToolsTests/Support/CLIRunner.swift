import Foundation
import Testing

/// Runs the built `groupwire` binary, as a user would.
enum CLIRunner {
    /// The repository root, found from this file's path.
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The binary next to the test bundle (`swift build` puts both in one folder), else
    /// `.build/debug/groupwire` under the repository root.
    static let binary: URL? = {
        var candidates: [URL] = []
        if let first = CommandLine.arguments.first {
            var folder = URL(fileURLWithPath: first).deletingLastPathComponent()
            // macOS runs tests from inside the .xctest bundle.
            while folder.path.contains(".xctest") { folder.deleteLastPathComponent() }
            candidates.append(folder.appendingPathComponent("groupwire"))
        }
        candidates.append(root.appendingPathComponent(".build/debug/groupwire"))
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }()

    /// What a run produced.
    struct Run {
        var status: Int32
        var output: [UInt8]
        var errors: String
        var outputText: String { String(decoding: output, as: UTF8.self) }
    }

    /// Runs `groupwire arguments...` in `directory` (default: the repository root) with
    /// `input` on standard input.
    static func run(_ arguments: [String], input: [UInt8] = [], in directory: URL? = nil) throws -> Run {
        let binary = try #require(binary, "build the groupwire product first (swift build)")
        let folder = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let inputURL = folder.appendingPathComponent("stdin")
        let outputURL = folder.appendingPathComponent("stdout")
        let errorURL = folder.appendingPathComponent("stderr")
        try Data(input).write(to: inputURL)
        _ = FileManager.default.createFile(atPath: outputURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errorURL.path, contents: nil)
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        process.currentDirectoryURL = directory ?? root
        // Files instead of pipes: no deadlock however much either stream holds.
        process.standardInput = try FileHandle(forReadingFrom: inputURL)
        process.standardOutput = try FileHandle(forWritingTo: outputURL)
        process.standardError = try FileHandle(forWritingTo: errorURL)
        try process.run()
        process.waitUntilExit()
        return Run(status: process.terminationStatus,
                   output: [UInt8](try Data(contentsOf: outputURL)),
                   errors: String(decoding: try Data(contentsOf: errorURL), as: UTF8.self))
    }

    /// A fresh empty folder.
    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("groupwire-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// The bytes of a file under the repository root.
    static func file(_ path: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: root.appendingPathComponent(path)))
    }
}
