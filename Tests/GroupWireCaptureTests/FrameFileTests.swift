import Foundation
import GroupWire
import Testing

@testable import GroupWireCapture

@Suite struct FrameFileTests {
    @Test func formatDetectionFollowsTheDocumentedRule() {
        #expect(FrameFileFormat.detect([0xC7, 0x01, 0x05]) == .raw)
        #expect(FrameFileFormat.detect(Array("c7 01 05\n# café\n".utf8)) == .hex)
        #expect(FrameFileFormat.detect([0x00, 0x01]) == .raw)
        #expect(FrameFileFormat.detect([0xFF, 0xFE]) == .raw)
        #expect(FrameFileFormat.detect([]) == .raw)
    }

    @Test func aHexFileWrittenByTheWriterReadsBackAsTheSameFrames() throws {
        let frames = SampleFrames.frames
        let raw = try FrameFileWriter(format: .raw).contents(of: frames)
        let hex = try FrameFileWriter(format: .hex, bytesPerHexLine: 16).contents(of: frames)
        let text = String(decoding: hex, as: UTF8.self)
        #expect(text.hasPrefix("# GroupWire frames, hex: 3 frames\n# frame 0: UpsertStroke (type 1)"))
        let contents = try FrameFileReader().parse(hex, path: "demo.hex")
        #expect(contents.format == .hex)
        #expect(contents.bytes == raw)
        #expect(contents.location(ofByte: 0) == HexDump.Location(line: 3, column: 1))
        #expect(contents.location(ofByte: 17) == HexDump.Location(line: 4, column: 3))
        let decoded = FrameDecoder().decodeAll(raw).compactMap(\.frame)
        #expect(decoded == frames.map(\.frame))
    }

    @Test func readingAMissingFileIsAFileNotFoundError() {
        do {
            _ = try FrameFileReader().read(path: "/nonexistent/frames.gwf")
            Issue.record("expected an error")
        } catch {
            #expect(error.kind == .fileNotFound)
            #expect(error.description == "/nonexistent/frames.gwf: error: no such file")
        }
    }

    @Test func readingADirectoryIsAnUnreadableError() {
        do {
            _ = try FrameFileReader().read(path: NSTemporaryDirectory())
            Issue.record("expected an error")
        } catch {
            #expect(error.kind == .unreadable)
        }
    }

    @Test func aFileOverTheSizeLimitIsRejectedBeforeItIsRead() throws {
        let path = NSTemporaryDirectory() + "groupwire-large-\(UUID().uuidString).gwf"
        try FrameFileWriter.write([UInt8](repeating: 0xC7, count: 100), toPath: path)
        defer { try? FileManager.default.removeItem(atPath: path) }
        do {
            _ = try FrameFileReader(maxFileSize: 99).read(path: path)
            Issue.record("expected an error")
        } catch {
            #expect(error.kind == .fileTooLarge)
        }
        #expect(try FrameFileReader(maxFileSize: 100).read(path: path).bytes.count == 100)
    }
}
