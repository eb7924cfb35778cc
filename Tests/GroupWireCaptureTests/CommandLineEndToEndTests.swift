import Foundation
import Testing

@testable import GroupWireCapture

/// Runs the built `groupwire` executable, as a user would, and checks exit statuses and
/// key output lines.
@Suite struct CommandLineEndToEndTests {
    struct Run {
        let status: Int32
        let standardOutput: String
        let standardError: String
    }

    /// The `groupwire` binary: next to the test bundle (the products directory), else in
    /// the package's `.build/debug`.
    static func executable() throws -> URL {
        var candidates: [URL] = []
        if let first = CommandLine.arguments.first {
            candidates.append(URL(fileURLWithPath: first).deletingLastPathComponent().appendingPathComponent("groupwire"))
        }
        candidates.append(Bundle.main.bundleURL.appendingPathComponent("groupwire"))
        candidates.append(Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent("groupwire"))
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        candidates.append(root.appendingPathComponent(".build/debug/groupwire"))
        guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) else {
            throw ExecutableNotFound(searched: candidates.map(\.path))
        }
        return found
    }

    struct ExecutableNotFound: Error, CustomStringConvertible {
        let searched: [String]
        var description: String {
            "the groupwire executable was not found (run `swift build` first); looked in: " + searched.joined(separator: ", ")
        }
    }

    static func run(_ arguments: [String]) throws -> Run {
        let process = Process()
        process.executableURL = try executable()
        process.arguments = arguments
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        // Drain stderr on another thread so neither pipe can fill up and block the child.
        let errData = ErrorBox()
        let group = DispatchGroup()
        group.enter()
        DispatchQueue.global().async {
            errData.set(err.fileHandleForReading.readDataToEndOfFile())
            group.leave()
        }
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        return Run(
            status: process.terminationStatus,
            standardOutput: String(decoding: outData, as: UTF8.self),
            standardError: String(decoding: errData.get(), as: UTF8.self))
    }

    final class ErrorBox: @unchecked Sendable {  // safe because: guarded by `lock`.
        private let lock = NSLock()
        private var data = Data()
        func set(_ value: Data) { lock.withLock { data = value } }
        func get() -> Data { lock.withLock { data } }
    }

    private func temporaryPath(_ name: String) -> String {
        NSTemporaryDirectory() + "groupwire-e2e-\(UUID().uuidString)-\(name)"
    }

    @Test func theDemoFileInspectsCleanlyWithExitStatusZero() throws {
        let path = temporaryPath("demo.gwf")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let demo = try Self.run(["demo", "--output", path])
        #expect(demo.status == 0)
        #expect(demo.standardOutput == "wrote 3 frames (224 bytes, raw) to \(path)\n")
        let inspect = try Self.run(["inspect", path])
        #expect(inspect.status == 0)
        #expect(inspect.standardError == "")
        let lines = inspect.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.first == "\(path): raw frame file, 224 bytes")
        #expect(
            lines.contains {
                $0.hasPrefix("frame 2 at byte 164, 60 bytes: version 1, length 57, kind data (byte 0x00), flags none, type id 10")
            })
        #expect(lines.contains("    1: string \"Movie night\""))
        #expect(lines.last == "summary: 3 valid frames, 0 invalid")
    }

    @Test func aCorruptedFrameInTheMiddleGivesExitStatusOneAndTheNextFrameIsStillShown() throws {
        let path = temporaryPath("bad.gwf")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let (bytes, first, second) = try InspectionReportTests.corruptedDemoBytes()
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let inspect = try Self.run(["inspect", path])
        #expect(inspect.status == 1)
        let lines = inspect.standardOutput.split(separator: "\n").map(String.init)
        let errorLine = try #require(
            lines.firstIndex { $0.hasPrefix("\(path): error: invalid bytes \(first)..<\(first + second): checksumMismatch") })
        let after = try #require(lines.firstIndex { $0.hasPrefix("frame 2 at byte \(first + second),") })
        #expect(errorLine < after)
        #expect(lines.contains("    1: string \"Movie night\""))
        #expect(lines.last == "summary: 2 valid frames, 1 invalid")

        let json = try Self.run(["inspect", path, "--format", "json"])
        #expect(json.status == 1)
        #expect(json.standardError.hasPrefix("\(path): error: invalid bytes \(first)..<"))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any])
        #expect(object["invalidCount"] as? Int == 1)
        #expect((object["entries"] as? [[String: Any]])?.map { $0["valid"] as? Bool } == [true, false, true])
    }

    @Test func anXxdHexDumpIsDetectedAndInspected() throws {
        let path = temporaryPath("demo.xxd")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let bytes = try FrameFileWriter().contents(of: DemoMessages.frames)
        var text = "# xxd of the demo frames\n"
        for start in stride(from: 0, to: bytes.count, by: 16) {
            let row = Array(bytes[start..<min(start + 16, bytes.count)])
            var groups: [String] = []
            for pair in stride(from: 0, to: row.count, by: 2) {
                groups.append(row[pair..<min(pair + 2, row.count)].map { String(format: "%02x", $0) }.joined())
            }
            text += String(format: "%08x: ", start) + groups.joined(separator: " ") + "  ................\n"
        }
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        let inspect = try Self.run(["inspect", path, "--format", "json"])
        #expect(inspect.status == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(inspect.standardOutput.utf8)) as? [String: Any])
        #expect(object["format"] as? String == "hex")
        #expect(object["frameCount"] as? Int == 3)
        let entries = try #require(object["entries"] as? [[String: Any]])
        #expect(entries[0]["location"] as? [String: Int] == ["line": 2, "column": 11])
    }

    @Test func unreadableInputAndBadUsageGiveExitStatusTwo() throws {
        let missing = try Self.run(["inspect", "/nonexistent/none.gwf"])
        #expect(missing.status == 2)
        #expect(missing.standardError == "groupwire: error: /nonexistent/none.gwf: no such file\n")

        let noFile = try Self.run(["inspect"])
        #expect(noFile.status == 2)
        #expect(noFile.standardError.hasPrefix("groupwire: error: Missing expected argument '<file>'"))

        let badFormat = try Self.run(["inspect", "x.gwf", "--format", "xml"])
        #expect(badFormat.status == 2)

        let bothInputs = try Self.run(["inspect", "x.gwf", "--hex", "--raw"])
        #expect(bothInputs.status == 2)

        let path = temporaryPath("bad.hex")
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data("c7 01\n0a 0x 05\n".utf8).write(to: URL(fileURLWithPath: path))
        let badHex = try Self.run(["inspect", path])
        #expect(badHex.status == 2)
        #expect(badHex.standardError == "\(path):2:4: error: '0x' must be followed by hex digits\n")
    }

    @Test func helpExitsWithZero() throws {
        let help = try Self.run(["inspect", "--help"])
        #expect(help.status == 0)
        #expect(help.standardOutput.contains("--format <format>"))
    }
}
