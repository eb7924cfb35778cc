import Foundation
import GroupWire
import GroupWireInspection
import GroupWireSpec
import GroupWireTestSupport
import GroupWireTools
import Testing

@testable import GroupWireCapture

/// Inputs made by an attacker (issue 29): each is a typed problem with its offset, in every
/// tool that reads it, and none traps, hangs or expands into far more than it took.
@Suite(.heavy) struct HostileInputTests {
    static let spec = RepositoryPaths.path("Spec/Examples/DrawTogether.gwspec")

    /// A Simple Packet Block whose block length is 12, under its 16-byte minimum (it trapped:
    /// `min(original, length - 16)` went negative).
    static let simpleBlockOf12 =
        "0a0d0d0a1c0000004d3c2b1a01000000ffffffffffffffff1c0000000100000020000000930000000000000009000100"
        + "090000000000000020000000030000000c0000000c000000"
    /// A packet at whole seconds near the top of the range under a binary if_tsresol (2^-29):
    /// adding the fraction to the seconds overflowed.
    static let binaryResolutionAtTheTop =
        "0a0d0d0a1c0000004d3c2b1a01000000ffffffffffffffff1c000000010000002000000093000000000000000900"
        + "01009d0000000000000020000000060000002000000000000000415f708999999939000000000000000020000000"

    static func runTools(on bytes: [UInt8], name: String) throws -> [(tool: String, run: ChildProcess.Run)] {
        let folder = try RepositoryPaths.temporaryDirectory(prefix: "groupwire-hostile")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent(name).path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return try [
            ("validate", CLIRunner.run(["validate", "--spec", spec, path])),
            ("inspect", CLIRunner.run(["inspect", path])),
            ("decode", CLIRunner.run(["decode", "--spec", spec, path])),
        ]
    }

    @Test(arguments: [
        (
            "simple-block-12.pcapng", simpleBlockOf12,
            "byte 64: a simple packet block of 12 bytes is shorter than its 16-byte minimum"
        ),
        ("binary-tsresol.pcapng", binaryResolutionAtTheTop, "88: packet 1: bad pseudo-header"),
    ])
    func aCrashingCaptureIsACaptureProblemWithItsOffsetInEveryTool(name: String, hex: String, expected: String) throws {
        for (tool, run) in try Self.runTools(on: try Hex.bytes(hex), name: name) {
            #expect(run.status == 1 && !run.timedOut, "\(tool) exited \(run.status): \(run.errors)")
            #expect((run.outputText + run.errors).contains(expected), "\(tool): \(run.outputText) \(run.errors)")
        }
    }

    @Test func aBinaryResolutionTimestampAtTheTopIsClampedNotTrapped() throws {
        // 2^-29 seconds: the seconds alone fit, the seconds and the fraction together do not.
        let value: UInt64 = 0x8970_5F41_3999_9999
        #expect(CapturePacketReader.nanoseconds(value, resolution: 0x80 | 29) == .max)
        #expect(CapturePacketReader.nanoseconds(3 << 29 | 1 << 28, resolution: 0x80 | 29) == 3_500_000_000)
    }

    @Test func anInterfaceOptionRunningPastItsBlockIsNamedWithItsOffset() throws {
        // if_tsresol claiming 9 bytes in an interface block that ends right after the option header.
        let capture = try Hex.bytes(
            "0a0d0d0a1c0000004d3c2b1a01000000ffffffffffffffff1c000000"
                + "01000000180000009300000000000000" + "09000900" + "18000000")
        var reader = CapturePacketReader(format: .pcapng, path: "c.pcapng")
        reader.append(capture)
        reader.finish()
        #expect(throws: FrameFileError.self) { _ = try reader.next() }
        do {
            var again = CapturePacketReader(format: .pcapng, path: "c.pcapng")
            again.append(capture)
            again.finish()
            _ = try again.next()
        } catch {
            #expect(error.kind == .badCapture && error.offset == 46)
            #expect(error.message == "interface option 9 claims 9 bytes; only 0 are left in its block")
        }
    }

    /// A Simple Packet Block cut at its interface's snap length holds padding after the
    /// packet's bytes: the packet is the bytes up to the snap length, not the padding too.
    @Test func aSimplePacketCutAtTheSnapLengthEndsThereNotAtItsPadding() throws {
        // A record whose length is not a multiple of 4, so its block holds padding after it.
        let records = try (1...4).map { size in
            CaptureRecord(
                timestamp: 0, direction: .sent, sessionID: nil, local: UUID(), peer: nil, room: "r",
                frame: try FrameEncoder().encode(Frame(typeID: 1, body: [UInt8](repeating: 7, count: size)))
            ).packetData
        }
        let data = try #require(records.first { $0.count % 4 != 0 })
        let pad = 4 - data.count % 4
        func u32(_ value: Int) -> [UInt8] { withUnsafeBytes(of: UInt32(value).littleEndian, Array.init) }
        func u16(_ value: Int) -> [UInt8] { withUnsafeBytes(of: UInt16(value).littleEndian, Array.init) }
        let section =
            u32(0x0A0D_0D0A) + u32(28) + u32(0x1A2B_3C4D) + u16(1) + u16(0) + [UInt8](repeating: 0xFF, count: 8) + u32(28)
        // The interface's snap length is the record's length; the packet was 5 bytes longer.
        let interface = u32(1) + u32(20) + u16(147) + u16(0) + u32(data.count) + u32(20)
        let blockLength = 16 + data.count + pad
        let simple =
            u32(3) + u32(blockLength) + u32(data.count + 5) + data + [UInt8](repeating: 0xAB, count: pad) + u32(blockLength)
        var reader = CapturePacketReader(format: .pcapng, path: "c.pcapng")
        reader.append(section + interface + simple)
        reader.finish()
        let packet = try #require(try reader.next())
        // Read to the snap length, the record parses and its frame is whole; the padding is not read.
        #expect(packet.problem == "packet 1 was captured cut to \(data.count) of its \(data.count + 5) bytes")
        #expect(packet.problemOffset == 28 + 20 + 12 + data.count)
        #expect(packet.record?.packetData == data)
    }

    @Test func aPcapLinkTypeWithReservedBitsSetIsNotGroupWires() throws {
        // 0x00010093: link type 147 in the low 16 bits, a reserved bit above them.
        let header = try Hex.bytes("d4c3b2a1020004000000000000000000ffff0000" + "93000100")
        var reader = CapturePacketReader(format: .pcap, path: "c.pcap")
        reader.append(header)
        reader.finish()
        do {
            _ = try reader.next()
            Issue.record("a link type with reserved bits was accepted")
        } catch {
            #expect(error.kind == .unknownLinkType && error.offset == 20)
        }
    }

    /// Reliable stream 3 jumping to sequence 2^40: the validator reports the hole as ranges
    /// computed from what it holds; it walked (and filtered) every missing sequence before.
    @Test func aSequenceJumpOfTwoToTheFortyIsReportedAtOnce() throws {
        var validator = CaptureValidator(specs: [try SpecLoading.load(Self.spec).spec])
        let frame = try FrameEncoder().encode(
            Frame(kind: .data, typeID: 1, delivery: DeliveryHeader(stream: 3, sequence: 1 << 40), body: []))
        let stream = FrameFileStream(bytes: frame, path: "jump.gw")
        var problems: [ValidationProblem] = []
        while let event = try stream.next() { problems += validator.check(event) }
        problems += validator.finish()
        let reasons = problems.map(\.reason)
        #expect(
            reasons.contains { $0.contains("moved 4096 sequences past sequences 1-\((1 << 40) - 4096) without them") },
            "\(reasons)")
    }

    /// Unreliable frames at the very top of the sequence range: moving past the last one
    /// used to add 1 to UInt64.max.
    @Test func unreliableSequencesAtTheTopOfTheRangeDoNotOverflow() throws {
        var validator = CaptureValidator(specs: [try SpecLoading.load(Self.spec).spec])
        var bytes: [UInt8] = []
        let top = UInt64.max
        for sequence in (top - 4_100)...top {
            bytes += try FrameEncoder().encode(
                Frame(kind: .data, typeID: 1, delivery: DeliveryHeader(stream: 2, sequence: sequence), body: []))
        }
        let stream = FrameFileStream(bytes: bytes, path: "top.gw")
        var problems: [ValidationProblem] = []
        while let event = try stream.next() { problems += validator.check(event) }
        problems += validator.finish()
        #expect(validator.summary.frames == 4_101)
        #expect(!problems.contains { $0.reason.contains("repeats sequence") }, "\(problems.prefix(3).map(\.reason))")
    }

    /// A 35-byte hex dump whose `*` line stands for 2^60 bytes: the stream stops at the
    /// dump's limit instead of producing zeros for ever.
    @Test func aHexDumpRepetitionPastTheLimitIsRefused() throws {
        let text = Array("00000000  00 |.|\n*\nfffffffffffffff\n".utf8)
        let stream = FrameFileStream(bytes: text, path: "star.txt")
        #expect(stream.format == .hex)
        do {
            while try stream.next() != nil {}
            Issue.record("the dump expanded without a limit")
        } catch {
            #expect(error.kind == .badRepeat, "\(error)")
        }
    }

    /// The demo's frames (`groupwire demo --output`), in `folder`.
    static func demoFrames(in folder: URL) throws -> String {
        let path = folder.appendingPathComponent("demo.gwf").path
        let made = try CLIRunner.run(["demo", "--output", path])
        try #require(made.status == 0, "\(made.errors)")
        return path
    }

    @Test func aRawFrameFileWithJunkInFrontValidatesItsFrames() throws {
        let folder = try RepositoryPaths.temporaryDirectory(prefix: "groupwire-junk")
        defer { try? FileManager.default.removeItem(at: folder) }
        let frames = [UInt8](try Data(contentsOf: URL(fileURLWithPath: try Self.demoFrames(in: folder))))
        let junk = folder.appendingPathComponent("junk.gwf").path
        try Data(Array("a".utf8) + frames).write(to: URL(fileURLWithPath: junk))
        let demoSpec = RepositoryPaths.path("Spec/Examples/Demo.gwspec")
        let run = try CLIRunner.run(["validate", "--spec", demoSpec, junk])
        #expect(run.status == 1, "\(run.errors)")
        let lines = run.outputText.split(separator: "\n").map(String.init)
        #expect(
            lines.first
                == "\(junk): error: frame 1, byte 0: badMagic: 1 byte before the next frame are not a frame (no magic byte 0xC7) [envelope]"
        )
        #expect(
            lines.contains("  4 messages decoded (1 compressed): CanvasSnapshot 2, PlaybackState 1, UpsertStroke 1"), "\(lines)")
        // Bytes in which no frame is found at all are still not a frame file (exit 2).
        let text = folder.appendingPathComponent("text.bin").path
        try Data([0x01, 0x02, 0x03] + Array(repeating: 0x41, count: 100)).write(to: URL(fileURLWithPath: text))
        let none = try CLIRunner.run(["validate", "--spec", demoSpec, text])
        #expect(
            none.status == 2 && none.errors.contains("no frame found in 103 bytes: not a capture or frame file"), "\(none.errors)"
        )
    }

    /// Detection on a stream reads until the bytes decide the format: one text byte first
    /// (a short first read of a pipe) no longer makes the whole stream a hex dump.
    @Test func aStreamWhoseFirstReadLooksLikeTextIsDetectedAsTheSameBytesInAFile() throws {
        #expect(!FrameFileFormat.decides(prefix: Array("a".utf8)) && !FrameFileFormat.decides(prefix: [0x0A]))
        #expect(!FrameFileFormat.decides(prefix: [0x0A, 0x0D]), "the start of the pcapng magic waits for the rest")
        #expect(
            FrameFileFormat.decides(prefix: [0xC7])
                && FrameFileFormat.decides(prefix: [0x61, 0xC7, 0x01, 0x00, 0x05, 0x06, 0x07, 0x08]))
        let folder = try RepositoryPaths.temporaryDirectory(prefix: "groupwire-chunks")
        defer { try? FileManager.default.removeItem(at: folder) }
        let frames = try Self.demoFrames(in: folder)
        let demoSpec = RepositoryPaths.path("Spec/Examples/Demo.gwspec")
        let binary = try #require(CLIRunner.binary).path
        // The pause only makes the short first read likely; the result is the same either way.
        let run = try ChildProcess.run(
            URL(fileURLWithPath: "/bin/sh"),
            [
                "-c", "{ printf a; sleep 0.3; cat '\(frames)'; } | '\(binary)' decode --spec '\(demoSpec)' -",
            ])
        #expect(run.status == 1)
        #expect(
            run.errors.contains("frame at offset 0: badMagic at offset 0: 1 byte before the next frame are not a frame"),
            "\(run.errors)")
        #expect(run.outputText.split(separator: "\n").count == 4, "every message decodes: \(run.outputText.prefix(300))")
    }

    @Test func emptyWhitespaceAndPacketlessInputsExitAsDocumented() throws {
        let folder = try RepositoryPaths.temporaryDirectory(prefix: "groupwire-empty")
        defer { try? FileManager.default.removeItem(at: folder) }
        let newline = folder.appendingPathComponent("newline.txt").path
        try Data([0x0A]).write(to: URL(fileURLWithPath: newline))
        let validated = try CLIRunner.run(["validate", "--spec", Self.spec, newline])
        #expect(
            validated.status == 2 && validated.errors.contains("a hex dump of no bytes: not a capture or frame file"),
            "\(validated.errors)")
        // A capture with a section and an interface but no packet.
        let packetless = folder.appendingPathComponent("none.pcapng").path
        try Data(
            try Hex.bytes(
                "0a0d0d0a1c0000004d3c2b1a01000000ffffffffffffffff1c000000" + "01000000140000009300000000000000" + "14000000")
        )
        .write(to: URL(fileURLWithPath: packetless))
        let decoded = try CLIRunner.run(["decode", "--spec", Self.spec, packetless])
        #expect(decoded.status == 1 && decoded.errors.contains("none.pcapng holds no frames"), "\(decoded.errors)")
    }
}
