import Foundation
import GroupWire
import GroupWireCompression
import GroupWireTestSupport
import Testing

@testable import GroupWireCapture
@testable import GroupWireInspection

@Suite struct InspectionReportTests {
    /// The three demo frames with one byte of the middle frame's body flipped.
    static func corruptedDemoBytes() throws -> (bytes: [UInt8], firstLength: Int, secondLength: Int) {
        var bytes = try FrameFileWriter().contents(of: SampleFrames.frames)
        let first = try FrameEncoder().encode(SampleFrames.frames[0].frame).count
        let second = try FrameEncoder().encode(SampleFrames.frames[1].frame).count
        bytes[first + 20] ^= 0x01
        return (bytes, first, second)
    }

    @Test func everyDemoFrameIsReportedWithItsHeaderFields() throws {
        let bytes = try FrameFileWriter().contents(of: SampleFrames.frames)
        let report = InspectionReport(contents: FrameFileContents(path: "demo.gwf", format: .raw, bytes: bytes))
        #expect(report.allValid)
        #expect(report.frameCount == 3)
        #expect(report.entries.map(\.frame?.typeID) == [1, 2, 10])
        let header = try #require(report.entries[0].header)
        #expect(header.version == 1)
        #expect(header.kindByte == 0x00)
        #expect(header.lengthField == UInt64(report.entries[0].length - 3))
        let stored = bytes[(report.entries[0].length - 4)..<report.entries[0].length]
        #expect(header.crc32c == stored.reversed().reduce(0) { $0 << 8 | UInt32($1) })
        #expect(report.entries[2].payload?.fields.first?.value == .string("Movie night"))
    }

    @Test func aCorruptedFrameInTheMiddleIsReportedAndTheFramesAfterItAreStillRead() throws {
        let (bytes, first, second) = try Self.corruptedDemoBytes()
        let report = InspectionReport(contents: FrameFileContents(path: "bad.gwf", format: .raw, bytes: bytes))
        #expect(!report.allValid)
        #expect(report.entries.count == 3)
        #expect(report.frameCount == 2)
        #expect(report.invalidCount == 1)
        let bad = report.entries[1]
        #expect(bad.offset == first)
        #expect(bad.length == second)
        #expect(bad.error?.kind == .checksumMismatch)
        #expect(bad.error?.offset == first + second - 4)
        #expect(report.entries[2].frame?.typeID == 10)
        #expect(
            report.diagnostic(for: bad)?.hasPrefix(
                "bad.gwf: error: invalid bytes \(first)..<\(first + second): checksumMismatch at offset \(first + second - 4)")
                == true)
    }

    @Test func theTextReportHasAHeadingFrameLinesPayloadsAndASummary() throws {
        let (bytes, first, _) = try Self.corruptedDemoBytes()
        let text = InspectionReport(contents: FrameFileContents(path: "bad.gwf", format: .raw, bytes: bytes)).renderText()
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.first == "bad.gwf: raw frame file")
        #expect(
            lines[1]
                == "frame 0 at byte 0, \(first) bytes: version 1, length \(first - 3), kind data (byte 0x00), flags none, type id 1, body 40 bytes, crc32c 0x8B91CC9D"
        )
        #expect(lines[2] == "  payload:")
        #expect(lines[3] == "    1: bytes[16] 6ba7b8109dad11d180b400c04fd430c8 (uuid 6BA7B810-9DAD-11D1-80B4-00C04FD430C8)")
        #expect(lines.contains { $0.hasPrefix("bad.gwf: error: invalid bytes \(first)..<") })
        #expect(lines.contains("    1: string \"Movie night\""))
        #expect(lines[lines.count - 2] == "summary: 2 valid frames, 1 invalid, \(bytes.count) bytes")
    }

    @Test func aCorruptCompressedBodyAndAFragmentBodyAreNotDumped() throws {
        let frames: [(frame: Frame, comment: String)] = [
            (Frame(typeID: 3, compression: CompressionInfo(contentSize: 9), body: [0x28, 0xB5]), "compressed"),
            (
                Frame(
                    kind: .fragment, typeID: 3,
                    fragment: FragmentInfo(messageID: 7, index: 1, count: 2, totalLength: 4, offset: 2), body: [1, 2]), "fragment"
            ),
        ]
        let bytes = try FrameFileWriter().contents(of: frames)
        let report = InspectionReport(contents: FrameFileContents(path: "x", format: .raw, bytes: bytes))
        #expect(report.entries.map(\.payloadNotShownReason) == ["compressed", "fragment"])
        #expect(report.entries.allSatisfy { $0.payload == nil })
        #expect(report.entries[0].decompressionError != nil)
        #expect(report.entries[1].decompressionError == nil)
        let text = report.renderText()
        #expect(text.contains("  compression: codec 1 (zstd), dictionary 0, content size 9\n"))
        #expect(text.contains("  fragment: message 7, index 1 of 2, offset 2, total length 4\n"))
        #expect(text.contains("  payload: not dumped (fragment body), body 0102\n"))
        #expect(text.contains("flags compressed"))
        #expect(text.contains("  payload: not dumped (compressed body: "))
    }

    @Test func aCompressedBodyIsDecompressedAndItsPayloadDumped() throws {
        // Forty PlaybackStates back to back: one payload whose fields repeat, so it compresses.
        let padded = (0..<40).flatMap { _ in SampleFrames.playbackState() }
        let compressor = try PayloadCompressor(policy: CompressionPolicy(threshold: 0))
        let frame = try compressor.makeFrame(typeID: 10, payload: padded)
        let info = try #require(frame.compression)
        let bytes = try FrameFileWriter().contents(of: [(frame, "compressed playback states")])
        let report = InspectionReport(contents: FrameFileContents(path: "z", format: .raw, bytes: bytes))
        let entry = try #require(report.entries.first)
        #expect(entry.decompressedLength == padded.count)
        #expect(UInt64(padded.count) == info.contentSize)
        #expect(entry.payloadNotShownReason == nil)
        #expect(entry.payload?.fields.first?.value == .string("Movie night"))
        #expect(entry.payload?.encodedBytes() == padded)
        #expect(report.renderText().contains("  payload (decompressed, \(padded.count) bytes):\n    1: string \"Movie night\"\n"))
    }

    @Test func theJSONReportFollowsTheDocumentedSchema() throws {
        let (bytes, first, second) = try Self.corruptedDemoBytes()
        let hex = try FrameFileWriter(format: .hex).contents(of: SampleFrames.frames)
        _ = hex
        let json = InspectionReport(contents: FrameFileContents(path: "bad.gwf", format: .raw, bytes: bytes)).renderJSON()
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        #expect(object["schema"] as? String == "groupwire.inspect/1")
        #expect(object["file"] as? String == "bad.gwf")
        #expect(object["format"] as? String == "raw")
        #expect(object["frameCount"] as? Int == 2)
        #expect(object["invalidCount"] as? Int == 1)
        let entries = try #require(object["entries"] as? [[String: Any]])
        #expect(entries.count == 3)
        #expect(
            Set(entries[0].keys) == [
                "offset", "length", "valid", "location", "frame", "payload", "decompressedLength", "payloadNotDumped",
                "decompressionError", "error",
            ])
        let frame = try #require(entries[0]["frame"] as? [String: Any])
        #expect(frame["typeID"] as? Int == 1)
        #expect(frame["kind"] as? String == "data")
        #expect(frame["crc32c"] as? String == "0x8B91CC9D")
        #expect(frame["bodyLength"] as? Int == 40)
        #expect(entries[1]["valid"] as? Bool == false)
        let error = try #require(entries[1]["error"] as? [String: Any])
        #expect(error["kind"] as? String == "checksumMismatch")
        #expect(error["offset"] as? Int == first + second - 4)
        let payload = try #require(entries[2]["payload"] as? [String: Any])
        let fields = try #require(payload["fields"] as? [[String: Any]])
        #expect(fields.first?["string"] as? String == "Movie night")
        // Entries come one a line as they are read (keys sorted); the counts follow them.
        #expect(
            json.hasPrefix(
                "{\n  \"schema\": \"groupwire.inspect/1\",\n  \"file\": \"bad.gwf\",\n  \"format\": \"raw\",\n  \"entries\": [\n    {\"decompressedLength\":null,"
            ))
        #expect(json.hasSuffix("\n  ],\n  \"byteCount\": \(bytes.count),\n  \"frameCount\": 2,\n  \"invalidCount\": 1\n}\n"))
        #expect(json.split(separator: "\n").count == 5 + 3 + 5)
    }

    @Test func hexFileErrorsPointAtTheLineAndColumnOfTheBadByte() throws {
        let (bytes, first, second) = try Self.corruptedDemoBytes()
        var text = "# corrupted demo\n"
        for start in stride(from: 0, to: bytes.count, by: 16) {
            text += Hex.string(bytes[start..<min(start + 16, bytes.count)], separator: " ") + "\n"
        }
        let contents = try FrameFileReader().parse(Array(text.utf8), path: "bad.hex")
        let report = InspectionReport(contents: contents)
        let crcOffset = first + second - 4
        let expected = HexDump.Location(line: 2 + crcOffset / 16, column: 1 + 3 * (crcOffset % 16))
        #expect(report.entries[1].errorLocation == expected)
        #expect(
            report.diagnostic(for: report.entries[1])?.hasPrefix("bad.hex:\(expected.line):\(expected.column): error: ") == true)
    }
}

@Suite struct SessionHeaderInspectionTests {
    @Test func aSessionFrameShowsItsFlagAndSessionIdInTextAndJSON() throws {
        let bytes = try FrameEncoder().encode(Frame(typeID: 1, session: 42, body: [0x10, 0x02]))
        let report = InspectionReport(contents: FrameFileContents(path: "s.gwf", format: .raw, bytes: bytes))
        #expect(report.allValid)
        #expect(report.entries.first?.frame?.session == 42)
        let lines = report.renderText().split(separator: "\n").map(String.init)
        #expect(lines[1].contains("kind data (byte 0x20), flags session, type id 1"))
        #expect(lines[2] == "  session: 42")
        let json = report.renderJSON()
        #expect(json.contains(#""flags":["session"]"#))
        #expect(json.contains(#""kindByte":32"#))
        #expect(json.contains(#""session":42"#))
    }
}

@Suite struct DeliveryHeaderInspectionTests {
    @Test func aNumberedFrameShowsItsDeliveryHeaderInTextAndJSON() throws {
        let header = DeliveryHeader(incarnation: 5, isReliable: true, sequence: 300)
        let bytes = try FrameEncoder().encode(Frame(typeID: 1, session: 42, delivery: header, body: [0x10, 0x02]))
        let report = InspectionReport(contents: FrameFileContents(path: "d.gwf", format: .raw, bytes: bytes))
        #expect(report.allValid)
        let lines = report.renderText().split(separator: "\n").map(String.init)
        #expect(lines[1].contains("kind data (byte 0x60), flags session+delivery, type id 1"))
        #expect(lines[2] == "  delivery: reliable stream 11 (incarnation 5), sequence 300")
        #expect(lines[3] == "  session: 42")
        let json = report.renderJSON()
        #expect(json.contains(#""delivery":{"reliable":true,"sequence":300,"stream":11}"#))
        #expect(json.contains(#""flags":["session","delivery"]"#))
    }
}
