import Foundation
import GroupWireCapture
import GroupWireTestSupport
import GroupWireTools
import Testing

/// Runs the built `groupwire` executable's `demo`, `inspect` and `decode`, as a user would, and
/// checks exit statuses and key output lines.
@Suite(.heavy) struct InspectDemoEndToEndTests {
    @Test func theDemoFileInspectsCleanlyWithExitStatusZero() throws {
        let path = DemoFixtures.temporaryPath("demo.gwf")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let demo = try CLIRunner.run(["demo", "--output", path])
        #expect(demo.status == 0)
        let size = try Data(contentsOf: URL(fileURLWithPath: path)).count
        let fragmentCount = try DemoMessages.frames().count - 3
        #expect(fragmentCount >= 2)
        #expect(demo.outputText == "wrote \(fragmentCount + 3) frames (\(size) bytes, raw) to \(path)\n")
        let inspect = try CLIRunner.run(["inspect", path])
        #expect(inspect.status == 0)
        #expect(inspect.errors == "")
        let lines = inspect.outputText.split(separator: "\n").map(String.init)
        #expect(lines.first == "\(path): raw frame file")
        #expect(
            lines.contains {
                $0.hasPrefix(
                    "frame 0 at byte 0, 49 bytes: version 1, length 46, kind data (byte 0x00), flags none, type id 1, body 40 bytes"
                )
            })
        #expect(
            lines.contains {
                $0.hasPrefix(
                    "frame 1 at byte 49, 258 bytes: version 1, length 254, kind data (byte 0x00), flags none, type id 2, body 248 bytes"
                )
            })
        #expect(
            lines.contains {
                $0.hasPrefix(
                    "frame 2 at byte 307, 149 bytes: version 1, length 145, kind data (byte 0x00), flags none, type id 10")
            })
        // PlaybackState: title is field 3, contentID field 5, position field 6 (WatchTogether.gwspec).
        #expect(lines.contains("    3: string \"Movie night\""))
        #expect(lines.contains("    5: bytes[16] c0ffee001234456789abcdef01234567 (uuid C0FFEE00-1234-4567-89AB-CDEF01234567)"))
        #expect(lines.contains("    6: fixed64 4631178160564600832 (double 42.5)"))
        // The large snapshot: compressed fragments of one message.
        let fragmentHeaders = lines.filter { $0.contains("kind fragment (byte 0x12), flags compressed, type id 2") }
        #expect(fragmentHeaders.count == fragmentCount)
        #expect(
            lines.filter { $0.hasPrefix("  compression: codec 1 (zstd), dictionary 0, content size ") }.count == fragmentCount)
        #expect(lines.contains { $0.hasPrefix("  fragment: message 1, index 0 of \(fragmentCount), offset 0, total length ") })
        #expect(lines.last == "summary: \(fragmentCount + 3) valid frames, 0 invalid, \(size) bytes")
    }

    @Test func theDemoFileDecodesToJSONWithTheExampleSpecs() throws {
        let path = DemoFixtures.temporaryPath("demo.gwf")
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(try CLIRunner.run(["demo", "--output", path]).status == 0)
        let decode = try CLIRunner.run(["decode", "--spec", "Spec/Examples/Demo.gwspec", "--envelope", path])
        #expect(decode.status == 0)
        #expect(decode.errors == "")
        let documents = try decode.outputText.split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        #expect(documents.map { $0["type"] as? String } == ["UpsertStroke", "CanvasSnapshot", "PlaybackState", "CanvasSnapshot"])
        #expect(documents.map { $0["typeID"] as? Int } == [1, 2, 10, 2])
        #expect(documents.prefix(3).map { $0["offset"] as? Int } == [0, 49, 307])
        let stroke = try #require(documents[0]["value"] as? [String: Any])
        #expect(stroke["color"] as? String == "red")
        #expect(stroke["point"] as? [String: Double] == ["x": 10.5, "y": 20.25])
        let small = try #require(documents[1]["value"] as? [String: Any])
        #expect(small["pointCount"] as? Int == 9)
        #expect((small["strokes"] as? [[String: Any]])?.map { $0["color"] as? String } == ["red", "blue", "green"])
        let state = try #require(documents[2]["value"] as? [String: Any])
        #expect(state["title"] as? String == "Movie night")
        #expect(state["contentID"] as? String == "C0FFEE00-1234-4567-89AB-CDEF01234567")
        #expect(state["position"] as? Double == 42.5)
        #expect(state["isPlaying"] as? Bool == true)
        #expect(state["event"] as? String == "play")
        #expect((state["changedBy"] as? [String: Any])?["displayName"] as? String == "Ada")
        let large = try #require(documents[3]["value"] as? [String: Any])
        #expect(large["pointCount"] as? Int == 10_000)
        let strokes = try #require(large["strokes"] as? [[String: Any]])
        #expect(strokes.count == 200)
        #expect(strokes.allSatisfy { ($0["points"] as? [Any])?.count == 50 })
    }

    @Test func aCorruptedFrameInTheMiddleGivesExitStatusOneAndTheNextFrameIsStillShown() throws {
        let path = DemoFixtures.temporaryPath("bad.gwf")
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
        #expect(lines.contains("    3: string \"Movie night\""))
        let frameCount = try DemoMessages.frames().count
        #expect(lines.last?.hasPrefix("summary: \(frameCount - 1) valid frames, 1 invalid, ") == true)

        let json = try CLIRunner.run(["inspect", path, "--format", "json"])
        #expect(json.status == 1)
        #expect(json.errors.hasPrefix("\(path): error: invalid bytes \(first)..<"))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.outputText.utf8)) as? [String: Any])
        #expect(object["invalidCount"] as? Int == 1)
        #expect(
            (object["entries"] as? [[String: Any]])?.map { $0["valid"] as? Bool } == [true, false]
                + Array(repeating: true, count: frameCount - 2))
    }

    @Test func anXxdHexDumpIsDetectedAndInspected() throws {
        let path = DemoFixtures.temporaryPath("demo.xxd")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let bytes = try FrameFileWriter().contents(of: DemoMessages.frames())
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
        #expect(object["frameCount"] as? Int == (try DemoMessages.frames().count))
        let entries = try #require(object["entries"] as? [[String: Any]])
        #expect(entries[0]["location"] as? [String: Int] == ["line": 2, "column": 11])
    }

    @Test func unreadableInputAndBadUsageGiveExitStatusTwo() throws {
        let missing = try CLIRunner.run(["inspect", "/nonexistent/none.gwf"])
        #expect(missing.status == 2)
        #expect(missing.errors == "groupwire: error: /nonexistent/none.gwf: no such file\n")

        let tooMany = try CLIRunner.run(["inspect", "a.gwf", "b.gwf"])
        #expect(tooMany.status == 2)
        #expect(tooMany.errors.hasPrefix("groupwire: error: Unexpected argument 'b.gwf'"))

        let badFormat = try CLIRunner.run(["inspect", "x.gwf", "--format", "xml"])
        #expect(badFormat.status == 2)

        let bothInputs = try CLIRunner.run(["inspect", "x.gwf", "--hex", "--raw"])
        #expect(bothInputs.status == 2)

        let path = DemoFixtures.temporaryPath("bad.hex")
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
