import Foundation
import GroupWire
import GroupWireJSON
import Testing

@testable import GroupWireCapture

/// The one streaming frame-file reader every command uses: raw or hex, file, memory or
/// standard input, read a chunk at a time.
@Suite struct FrameFileStreamTests {
    static func events(_ stream: FrameFileStream) throws -> [FrameFileEvent] {
        var events: [FrameFileEvent] = []
        while let event = try stream.next() { events.append(event) }
        return events
    }

    static func hexText(_ bytes: [UInt8], perLine: Int = 16) -> String {
        var text = "# frames\n"
        for start in stride(from: 0, to: bytes.count, by: perLine) {
            text += Hex.string(bytes[start..<min(start + perLine, bytes.count)]) + "\n"
        }
        return text
    }

    @Test func aHexDumpFedInEveryTwoPiecesGivesTheSameBytesAndLocationsAsAWholeOne() throws {
        let text = Array("# c\n00000000  c7 01 0a 00  |....|\n*\n00000008  05 ff  |..|\n0000000a\n".utf8)
        let whole = try HexDump(parsing: text, path: "f.hex")
        #expect(whole.bytes == [0xC7, 0x01, 0x0A, 0x00, 0xC7, 0x01, 0x0A, 0x00, 0x05, 0xFF])
        for split in 0...text.count {
            var reader = HexDumpReader(path: "f.hex")
            try reader.append(text[..<split])
            try reader.append(text[split...])
            try reader.finish()
            #expect(reader.takeBytes() == whole.bytes)
            for offset in 0..<whole.bytes.count {
                #expect(reader.location(ofByte: offset) == whole.location(ofByte: offset))
            }
        }
    }

    @Test func aRepeatLineIsPassedOnAChunkAtATime() throws {
        var reader = HexDumpReader(path: "f.hex")
        try reader.append(Array("00000000  ab cd  |..|\n*\n00100000  ef  |.|\n".utf8))
        try reader.finish()
        var total: [UInt8] = []
        while reader.hasBytes {
            let part = reader.takeBytes(limit: 1000)
            #expect(part.count <= 1000)
            total += part
        }
        #expect(total.count == 0x100001)
        #expect(total.prefix(4) == [0xAB, 0xCD, 0xAB, 0xCD])
        #expect(total.last == 0xEF)
    }

    @Test func aHexFileStreamGivesTheEventsOfItsBytesWithLinesAndColumns() throws {
        var bytes = try FrameFileWriter().contents(of: SampleFrames.frames)
        bytes[60] ^= 0x01  // inside the second frame
        let text = Array(Self.hexText(bytes).utf8)
        let stream = FrameFileStream(bytes: text, path: "f.hex")
        #expect(stream.format == .hex)
        let events = try Self.events(stream)
        #expect(events.map(\.event) == FrameDecoder().decodeAll(bytes))
        #expect(stream.byteCount == bytes.count)
        let dump = try HexDump(parsing: text, path: "f.hex")
        for event in events {
            #expect(event.location == dump.location(ofByte: event.event.offset))
            if let offset = event.event.error?.offset {
                #expect(event.errorLocation == dump.location(ofByte: offset))
            }
        }
        #expect(events[0].location == HexDump.Location(line: 2, column: 1))
        #expect(events[0].header?.kindByte == 0x00)
    }

    @Test func aLargeRawFileIsReadInChunksWithEveryFrameAndHeader() throws {
        let frame = try FrameEncoder().encode(Frame(typeID: 3, body: [UInt8](repeating: 0xC7, count: 1_000)))
        let bytes = Array([[UInt8]](repeating: frame, count: 300).joined())
        let path = NSTemporaryDirectory() + "stream-\(UUID().uuidString).gwf"
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let stream = try FrameFileStream(path: path)
        var reads = 0
        stream.willRead = { reads += 1 }
        let events = try Self.events(stream)
        #expect(events.count == 300)
        #expect(events.allSatisfy { $0.event.frame?.typeID == 3 && $0.header?.lengthField == UInt64(frame.count - 4) })
        #expect(events.map(\.event.offset) == Array(stride(from: 0, to: bytes.count, by: frame.count)))
        #expect(reads >= bytes.count / FrameFileStream.chunkSize)
    }

    @Test func aMissingFileOrADirectoryIsAFrameFileError() {
        #expect(throws: FrameFileError.self) { try FrameFileStream(path: "/nonexistent/frames.gwf") }
        do {
            _ = try FrameFileStream(path: NSTemporaryDirectory())
            Issue.record("a directory opened as a frame file")
        } catch {
            #expect(error.kind == .unreadable)
        }
        do {
            _ = try FrameFileStream(path: "/nonexistent/frames.gwf")
        } catch {
            #expect(error.kind == .fileNotFound)
        }
    }

    @Test func aBadHexDigitStopsTheStreamAtItsLineAfterTheFramesBeforeIt() throws {
        let frame = try FrameEncoder().encode(Frame(typeID: 1, body: []))
        let text = Array((Self.hexText(frame) + "zz\n").utf8)
        let stream = FrameFileStream(bytes: text, path: "f.hex")
        #expect(try stream.next()?.event.frame?.typeID == 1)
        do {
            _ = try stream.next()
            Issue.record("bad hex was read")
        } catch {
            #expect(error.kind == .badHexDigit)
            #expect(error.line == 3)
            #expect(error.column == 1)
        }
    }

    @Test func detectingFromAPrefixCutInsideACharacterStillSeesText() {
        let text = Array("# é\nc7 01".utf8)
        #expect(FrameFileFormat.detect(prefix: Array(text[..<3])) == .hex)  // "# " + first byte of é
        #expect(FrameFileFormat.detect(Array(text[..<3])) == .raw)
        #expect(FrameFileFormat.detect(prefix: [0xC7, 0x01]) == .raw)
    }
}
