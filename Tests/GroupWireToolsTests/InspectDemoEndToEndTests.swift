import Foundation
import GroupWireCapture
import GroupWireTools
import Testing

/// Runs the built `groupwire` executable's `demo` and `inspect`, as a user would, and
/// checks exit statuses and key output lines.
@Suite struct InspectDemoEndToEndTests {
    private func temporaryPath(_ name: String) -> String {
        NSTemporaryDirectory() + "groupwire-e2e-\(UUID().uuidString)-\(name)"
    }

    @Test func theDemoFileInspectsCleanlyWithExitStatusZero() throws {
        let path = temporaryPath("demo.gwf")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let demo = try CLIRunner.run(["demo", "--output", path])
        #expect(demo.status == 0)
        #expect(demo.outputText == "wrote 3 frames (224 bytes, raw) to \(path)\n")
        let inspect = try CLIRunner.run(["inspect", path])
        #expect(inspect.status == 0)
        #expect(inspect.errors == "")
        let lines = inspect.outputText.split(separator: "\n").map(String.init)
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
        let (bytes, first, second) = try DemoFixtures.corruptedDemoBytes()
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let inspect = try CLIRunner.run(["inspect", path])
        #expect(inspect.status == 1)
        let lines = inspect.outputText.split(separator: "\n").map(String.init)
        let errorLine = try #require(
            lines.firstIndex { $0.hasPrefix("\(path): error: invalid bytes \(first)..<\(first + second): checksumMismatch") })
        let after = try #require(lines.firstIndex { $0.hasPrefix("frame 2 at byte \(first + second),") })
        #expect(errorLine < after)
        #expect(lines.contains("    1: string \"Movie night\""))
        #expect(lines.last == "summary: 2 valid frames, 1 invalid")

        let json = try CLIRunner.run(["inspect", path, "--format", "json"])
        #expect(json.status == 1)
        #expect(json.errors.hasPrefix("\(path): error: invalid bytes \(first)..<"))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.outputText.utf8)) as? [String: Any])
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
        let inspect = try CLIRunner.run(["inspect", path, "--format", "json"])
        #expect(inspect.status == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(inspect.outputText.utf8)) as? [String: Any])
        #expect(object["format"] as? String == "hex")
        #expect(object["frameCount"] as? Int == 3)
        let entries = try #require(object["entries"] as? [[String: Any]])
        #expect(entries[0]["location"] as? [String: Int] == ["line": 2, "column": 11])
    }

    @Test func unreadableInputAndBadUsageGiveExitStatusTwo() throws {
        let missing = try CLIRunner.run(["inspect", "/nonexistent/none.gwf"])
        #expect(missing.status == 2)
        #expect(missing.errors == "groupwire: error: /nonexistent/none.gwf: no such file\n")

        let noFile = try CLIRunner.run(["inspect"])
        #expect(noFile.status == 2)
        #expect(noFile.errors.hasPrefix("groupwire: error: Missing expected argument '<file>'"))

        let badFormat = try CLIRunner.run(["inspect", "x.gwf", "--format", "xml"])
        #expect(badFormat.status == 2)

        let bothInputs = try CLIRunner.run(["inspect", "x.gwf", "--hex", "--raw"])
        #expect(bothInputs.status == 2)

        let path = temporaryPath("bad.hex")
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data("c7 01\n0a 0x 05\n".utf8).write(to: URL(fileURLWithPath: path))
        let badHex = try CLIRunner.run(["inspect", path])
        #expect(badHex.status == 2)
        #expect(badHex.errors == "\(path):2:4: error: '0x' must be followed by hex digits\n")
    }

    @Test func helpExitsWithZero() throws {
        let help = try CLIRunner.run(["inspect", "--help"])
        #expect(help.status == 0)
        #expect(help.outputText.contains("--format <format>"))
    }
}
