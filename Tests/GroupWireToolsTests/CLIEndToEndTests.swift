import Foundation
import GroupWire
import GroupWireCompression
import GroupWireDynamic
import GroupWireSpec
import GroupWireTestSupport
import Testing

/// Every command run as the built binary: exit codes, output and error lines.
@Suite(.serialized, .heavy) struct CLIEndToEndTests {
    static let draw = "Spec/Examples/DrawTogether.gwspec"
    static let watch = "Spec/Examples/WatchTogether.gwspec"

    @Test(arguments: [
        ("UpsertStroke", draw), ("CanvasSnapshot", draw), ("PlaybackState", watch), ("ReadyState", watch),
    ])
    func everySampleSurvivesEncodeThenDecode(message: String, spec: String) throws {
        let sample = try CLIRunner.file("Spec/Examples/Samples/\(message).json")
        let encoded = try CLIRunner.run(["encode", "--spec", spec, "--type", message], input: sample)
        #expect(encoded.status == 0, "\(encoded.errors)")
        #expect(encoded.output.first == 0xC7)
        let decoded = try CLIRunner.run(["decode", "--spec", spec, "--pretty"], input: encoded.output)
        #expect(decoded.status == 0, "\(decoded.errors)")
        #expect(decoded.output == sample)
    }

    @Test func encodeWritesHexAndDecodeReadsItBack() throws {
        let sample = try CLIRunner.file("Spec/Examples/Samples/UpsertStroke.json")
        let encoded = try CLIRunner.run(["encode", "--spec", Self.draw, "--type", "UpsertStroke", "--hex"], input: sample)
        #expect(encoded.status == 0)
        #expect(
            encoded.outputText
                == "c7012e00010a106f1c2a9e4b7d4e0f8a3b5c6d7e8f9a0b10021a12090000000000002940110000000000000ac04a5d4612\n")
        let decoded = try CLIRunner.run(["decode", "--spec", Self.draw, "--envelope"], input: encoded.output)
        #expect(
            decoded.outputText
                == #"{"offset":0,"type":"UpsertStroke","typeID":1,"value":{"color":"green","id":"6F1C2A9E-4B7D-4E0F-8A3B-5C6D7E8F9A0B","point":{"x":12.5,"y":-3.25}}}"#
                + "\n")
    }

    @Test func encodeReportsTheJSONPathOfBadInputAndExitsOne() throws {
        let run = try CLIRunner.run(
            ["encode", "--spec", Self.draw, "--type", "UpsertStroke"],
            input: Array(#"{"point": {"x": "left"}}"#.utf8))
        #expect(run.status == 1)
        #expect(run.output.isEmpty)
        #expect(
            run.errors
                == #"groupwire: error: $.point.x: "left" is not a number; only "NaN", "Infinity" and "-Infinity" may be strings"#
                + "\n")
        let syntax = try CLIRunner.run(
            ["encode", "--spec", Self.draw, "--type", "UpsertStroke"], input: Array("{\n\"id\": }".utf8))
        #expect(syntax.status == 1)
        #expect(syntax.errors.hasPrefix("groupwire: error: invalid JSON at line 2, column 7:"))
    }

    @Test func encodeOfAMessageTheSpecLacksIsAUsageErrorExitingTwo() throws {
        let run = try CLIRunner.run(["encode", "--spec", Self.draw, "--type", "Nothing"], input: Array("{}".utf8))
        #expect(run.status == 2)
        #expect(run.errors.contains("declares no message named Nothing; its messages are UpsertStroke, CanvasSnapshot"))
    }

    @Test func jsonLinesBecomeOneFramePerLine() throws {
        let input = "{\"isReady\": true}\n\n{\"bufferedAhead\": 1.5}\n"
        let run = try CLIRunner.run(
            ["encode", "--spec", Self.watch, "--type", "ReadyState", "--lines", "--hex"], input: Array(input.utf8))
        #expect(run.status == 0, "\(run.errors)")
        let lines = run.outputText.split(separator: "\n").map(String.init)
        #expect(lines.count == 2)
        let decoded = try CLIRunner.run(["decode", "--spec", Self.watch], input: Array(run.output))
        #expect(
            decoded.outputText == """
                {"bufferedAhead":0,"isReady":true,"participant":"00000000-0000-0000-0000-000000000000"}
                {"bufferedAhead":1.5,"isReady":false,"participant":"00000000-0000-0000-0000-000000000000"}

                """)
    }

    @Test func decodeReportsACorruptFrameWithItsOffsetAndKeepsTheOthers() throws {
        let good = "c7012e00010a106f1c2a9e4b7d4e0f8a3b5c6d7e8f9a0b10021a12090000000000002940110000000000000ac04a5d4612"
        var corrupt = Array(good)
        corrupt[40] = corrupt[40] == "0" ? "1" : "0"
        let folder = try CLIRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("frames.hex")
        try Data((good + "\n" + String(corrupt) + "\n" + good + "\n").utf8).write(to: file)
        let run = try CLIRunner.run(["decode", "--spec", Self.draw, file.path])
        #expect(run.status == 1)
        #expect(run.outputText.split(separator: "\n").count == 2)
        // Frames are 49 bytes: the second starts at 49, its checksum at 49 + 45.
        #expect(
            run.errors
                == "groupwire: error: frame at offset 49: checksumMismatch at offset 94: stored crc32c 0x12465D4A but the 45 bytes it covers give 0x4F61BC0D\n"
        )
    }

    @Test func decodeReportsPayloadErrorsAtTheirOffsetInTheInput() throws {
        // The default point is written even when only the colour is set.
        let spec = try Examples.draw()
        let frame = try DynamicCodec(spec: spec).encodeFrame(["color": "red"], message: "UpsertStroke")
        #expect(HexTextForTests.encode(frame) == "c7010a00011001" + "1a00" + "030d982d")
        // A valid frame (type 1) whose payload holds field 2 (color) with wire type fixed64:
        // the body starts at offset 5, and the mismatch is reported at the key.
        let broken = try FrameHex.frame(typeID: 1, body: [0x11, 0, 0, 0, 0, 0, 0, 0, 0])
        let run = try CLIRunner.run(["decode", "--spec", Self.draw, "--input", "raw"], input: broken)
        #expect(run.status == 1)
        #expect(run.errors.hasPrefix("groupwire: error: frame at offset 0 (type id 1): typeMismatch at offset 5:"))
    }

    @Test func unknownFieldsPassThroughDecodeAndEncodeWhenKept() throws {
        // ReadyState with isReady (field 2) and a field 9 this spec does not declare.
        let frame = try FrameHex.frame(typeID: 11, body: [0x10, 0x01, 0x48, 0x2A])
        let skipped = try CLIRunner.run(["decode", "--spec", Self.watch], input: frame)
        #expect(
            skipped.outputText == #"{"bufferedAhead":0,"isReady":true,"participant":"00000000-0000-0000-0000-000000000000"}"#
                + "\n")
        let kept = try CLIRunner.run(["decode", "--spec", Self.watch, "--keep-unknown"], input: frame)
        #expect(kept.outputText.contains(#""$unknownFields":"SCo=""#))
        let encoded = try CLIRunner.run(
            ["encode", "--spec", Self.watch, "--type", "ReadyState", "--keep-unknown"], input: kept.output)
        #expect(encoded.status == 0, "\(encoded.errors)")
        #expect(encoded.output == frame)
    }

    @Test func compressedFramesAreDecompressedBeforeDecoding() throws {
        let sample = try CLIRunner.file("Spec/Examples/Samples/CanvasSnapshot.json")
        let codec = DynamicCodec(spec: try Examples.draw())
        let payload = try codec.encode(try JSONParser().parse(sample), as: "CanvasSnapshot")
        let body = try #require(try PayloadCompressor(policy: CompressionPolicy(threshold: 0)).compress(payload))
        #expect(body.bytes.count < payload.count)
        let frame = try FrameEncoder().encode(Frame(kind: .data, typeID: 2, compression: body.info, body: body.bytes))
        let run = try CLIRunner.run(["decode", "--spec", Self.draw, "--pretty"], input: frame)
        #expect(run.status == 0, "\(run.errors)")
        #expect(run.output == sample)
    }

    @Test func decodePrintsBothMessagesOfAValidFrameThreeStrayBytesAndAValidFrame() throws {
        let first = try FrameHex.frame(typeID: 2, body: [0x10, 0x05])
        let second = try FrameHex.frame(typeID: 2, body: [0x10, 0x07])
        let run = try CLIRunner.run(["decode", "--spec", Self.draw], input: first + [0xC7, 0x01, 0x30] + second)
        #expect(run.outputText == "{\"pointCount\":5,\"strokes\":[]}\n{\"pointCount\":7,\"strokes\":[]}\n")
        #expect(run.status == 1)
        #expect(run.errors.hasPrefix("groupwire: error: frame at offset \(first.count): truncated at offset \(first.count): "))
    }

    @Test(arguments: [["inspect", "-"], ["inspect", "--format", "json"], ["decode", "--spec", draw]])
    func aCommandPrintsTheFirstFrameWhileItsInputIsStillOpen(arguments: [String]) throws {
        let binary = try #require(CLIRunner.binary, "build the groupwire product first (swift build)")
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        process.currentDirectoryURL = CLIRunner.root
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Bounded: if nothing is printed, the process is killed and its output ends.
        let pid = process.processIdentifier
        let watchdog = DispatchWorkItem { kill(pid, SIGKILL) }
        DispatchQueue.global().asyncAfter(deadline: .now() + 30, execute: watchdog)
        defer {
            watchdog.cancel()
            if process.isRunning { kill(pid, SIGKILL) }
            process.waitUntilExit()
        }
        input.fileHandleForWriting.write(Data(try FrameHex.frame(typeID: 2, body: [0x10, 0x05])))
        var text = ""
        while !text.contains("\n    {"), !text.contains("frame 0 at byte 0"), !text.contains("pointCount") {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            text += String(decoding: chunk, as: UTF8.self)
        }
        #expect(process.isRunning, "the command should still wait for more input")
        #expect(
            text.contains("frame 0 at byte 0, 11 bytes") || text.contains("\"offset\":0")
                || text == "{\"pointCount\":5,\"strokes\":[]}\n",
            "\(text)")
        try input.fileHandleForWriting.close()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
    }

    @Test func decodeOfAnUnknownTypeIDOrGarbageExitsOne() throws {
        let unknown = try FrameHex.frame(typeID: 99, body: [])
        let run = try CLIRunner.run(["decode", "--spec", Self.draw], input: unknown)
        #expect(run.status == 1)
        #expect(run.errors.contains("unknownType"))
        let garbage = try CLIRunner.run(["decode", "--spec", Self.draw, "--input", "hex"], input: Array("c7 01 zz".utf8))
        #expect(garbage.status == 1)
        #expect(garbage.errors == "standard input:1:7: error: 'z' is not a hex digit\n")
    }

    @Test func specCheckPrintsCompilerStyleDiagnosticsAndExitsTwoOnErrors() throws {
        let clean = try CLIRunner.run(["spec", "check", Self.draw, Self.watch])
        #expect(clean.status == 0)
        #expect(clean.outputText == "\(Self.draw): ok, 2 messages, 0 warnings\n\(Self.watch): ok, 2 messages, 0 warnings\n")
        let folder = try CLIRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let bad = folder.appendingPathComponent("Bad.gwspec")
        try Data("package bad version 1\n\nmessage M @ 1 {\n    1 x: Nope\n}\n".utf8).write(to: bad)
        let run = try CLIRunner.run(["spec", "check", bad.path])
        #expect(run.status == 2)
        #expect(run.errors.contains("\(bad.path):4:10: error:"))
        #expect(run.outputText.contains("1 error"))
        let missing = try CLIRunner.run(["spec", "check", "no/such.gwspec"])
        #expect(missing.status == 2)
        #expect(missing.errors.hasPrefix("groupwire: error:"))
    }

    @Test func specFingerprintMatchesTheLibrary() throws {
        let spec = try Examples.draw()
        let run = try CLIRunner.run(["spec", "fingerprint", Self.draw])
        #expect(run.status == 0)
        let upsert = try #require(spec.fingerprint(ofMessage: "UpsertStroke"))
        #expect(run.outputText.hasPrefix("\(spec.fingerprint)  \(Self.draw)  draw.together version 1\n"))
        #expect(run.outputText.contains("  \(upsert)  UpsertStroke @ 1\n"))
        let json = try CLIRunner.run(["spec", "fingerprint", "--format", "json", Self.draw, Self.watch])
        let parsed = try JSONParser().parse(json.output)
        #expect(parsed.arrayValue?.count == 2)
        #expect(parsed.arrayValue?.first?["fingerprint"] == .string(spec.fingerprint.description))
    }

    @Test func specDiffOfTheExampleVersionsIsCompatible() throws {
        for (old, new) in [
            ("DrawTogether.gwspec", "Versions/DrawTogether-v2.gwspec"),
            ("Versions/DrawTogether-v2.gwspec", "Versions/DrawTogether-v3.gwspec"),
        ] {
            let run = try CLIRunner.run(["spec", "diff", "Spec/Examples/" + old, "Spec/Examples/" + new])
            #expect(run.status == 0, "\(old) -> \(new): \(run.outputText)")
            #expect(run.outputText.contains("verdict: compatible"))
        }
        let json = try CLIRunner.run([
            "spec", "diff", "--format", "json", Self.draw, "Spec/Examples/Versions/DrawTogether-v3.gwspec",
        ])
        #expect(try JSONParser().parse(json.output)["verdict"] == "compatible")
    }

    @Test func specDiffOfABreakingEditExitsOneAndABrokenSpecTwo() throws {
        let folder = try CLIRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let original = String(decoding: try CLIRunner.file(Self.draw), as: UTF8.self)
        let edited = original.replacingOccurrences(of: "2 pointCount: UInt64", with: "2 pointCount: String")
        #expect(edited != original)
        let new = folder.appendingPathComponent("DrawTogether.gwspec")
        try Data(edited.utf8).write(to: new)
        let run = try CLIRunner.run(["spec", "diff", Self.draw, new.path])
        #expect(run.status == 1)
        #expect(run.outputText.contains("CanvasSnapshot.pointCount"))
        #expect(run.outputText.contains("verdict: breaking"))
        let broken = folder.appendingPathComponent("Broken.gwspec")
        try Data("package x version 1\nmessage {".utf8).write(to: broken)
        let failed = try CLIRunner.run(["spec", "diff", Self.draw, broken.path])
        #expect(failed.status == 2)
        #expect(failed.errors.contains("groupwire: error: \(broken.path): the spec has errors"))
    }

    @Test func generateWritesSwiftOnlyWhenItChanged() throws {
        let folder = try CLIRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let first = try CLIRunner.run(["generate", Self.watch, "--output", folder.path, "--access-level", "internal"])
        #expect(first.status == 0, "\(first.errors)")
        #expect(first.outputText == "wrote \(folder.path)/WatchTogether.gwspec.swift\nwrote \(folder.path)/Common.gwspec.swift\n")
        let text = String(
            decoding: try Data(contentsOf: folder.appendingPathComponent("WatchTogether.gwspec.swift")), as: UTF8.self)
        #expect(text.hasPrefix("// DO NOT EDIT"))
        #expect(text.contains("struct PlaybackState"))
        #expect(!text.contains("public struct PlaybackState"))
        let second = try CLIRunner.run(["generate", Self.watch, "--output", folder.path, "--access-level", "internal"])
        #expect(
            second.outputText
                == "unchanged \(folder.path)/WatchTogether.gwspec.swift\nunchanged \(folder.path)/Common.gwspec.swift\n")
    }

    @Test func usageErrorsExitTwoWithAGroupwireErrorLine() throws {
        let run = try CLIRunner.run(["encode", "--spec", Self.draw])
        #expect(run.status == 2)
        #expect(run.errors.hasPrefix("groupwire: error: Missing expected argument '--type <type>'"))
        let bogus = try CLIRunner.run(["frobnicate"])
        #expect(bogus.status == 2)
        let help = try CLIRunner.run(["--help"])
        #expect(help.status == 0)
        #expect(help.outputText.contains("generate"))
    }
}
