import Foundation
import GroupWire
import GroupWireTestSupport
import Testing

@testable import GroupWireCapture

/// pcapng and pcap captures: written by `CaptureWriter`, read back through
/// `FrameFileStream` with every record field, rotation, the environment settings, and
/// bad input reported after every good packet before it.
@Suite struct CaptureFileTests {
    static let alice = UUID("00000000-0000-4000-8000-00000000000A")
    static let bob = UUID("00000000-0000-4000-8000-00000000000B")

    /// Three records: a data frame alice sent to everyone, one bob received from alice in
    /// session 7, and a control frame alice sent to bob alone.
    static func records() throws -> [CaptureRecord] {
        let encoder = FrameEncoder()
        let data = try encoder.encode(SampleFrames.frames[0].frame)
        let inSession = try encoder.encode(Frame(kind: .data, typeID: 3, session: 7, body: [0x08, 0x01]))
        let control = try encoder.encode(Frame(kind: .control, typeID: 16, body: [0x0A, 0x00]))
        return [
            CaptureRecord(
                timestamp: 1_764_000_000_123_456_789, direction: .sent, local: alice, peer: nil, room: "sketch", frame: data),
            CaptureRecord(
                timestamp: 1_764_000_000_223_456_789, direction: .received, sessionID: 7, local: bob, peer: alice,
                room: "sketch", frame: inSession),
            CaptureRecord(
                timestamp: 1_764_000_001_000_000_000, direction: .sent, local: alice, peer: bob, room: "", frame: control),
        ]
    }

    static func readAll(_ bytes: [UInt8], path: String = "capture.pcapng") throws -> (
        events: [FrameFileEvent], error: FrameFileError?, format: FrameFileFormat
    ) {
        let stream = FrameFileStream(bytes: bytes, path: path)
        var events: [FrameFileEvent] = []
        do throws(FrameFileError) {
            while let event = try stream.next() { events.append(event) }
            return (events, nil, stream.format)
        } catch {
            return (events, error, stream.format)
        }
    }

    @Test func pcapngRoundTripKeepsEveryField() throws {
        let records = try Self.records()
        let bytes = CaptureWriter.pcapng(records)
        #expect(Array(bytes[0..<4]) == [0x0A, 0x0D, 0x0D, 0x0A])
        let (events, error, format) = try Self.readAll(bytes)
        #expect(error == nil)
        #expect(format == .pcapng)
        #expect(events.count == 3)
        for (index, event) in events.enumerated() {
            #expect(event.packet?.number == index + 1)
            #expect(event.packet?.record == records[index], "record \(index)")
            #expect(event.event.frame != nil, "frame \(index) decodes")
            #expect(event.event.length == records[index].frame.count)
            // The offset is where the frame's bytes lie in the file.
            let offset = event.event.offset
            #expect(Array(bytes[offset..<(offset + records[index].frame.count)]) == records[index].frame)
        }
        #expect(events[1].event.frame?.session == 7)
        #expect(events[2].event.frame?.kind == .control)
    }

    @Test func sessionIDIsReadFromTheFrame() throws {
        let records = try Self.records()
        #expect(FrameHeaderFields.sessionID(of: records[1].frame) == 7)
        #expect(FrameHeaderFields.sessionID(of: records[0].frame) == nil)
        #expect(FrameHeaderFields.sessionID(of: [0xC7, 0x01]) == nil)
        let fragment = try FrameEncoder().encode(
            Frame(
                kind: .fragment, typeID: 2, fragment: FragmentInfo(messageID: 5, index: 0, count: 2, totalLength: 6, offset: 0),
                session: 9, body: [1, 2, 3]))
        #expect(FrameHeaderFields.sessionID(of: fragment) == 9)
    }

    @Test func pcapInEitherByteOrderReadsTheSameRecords() throws {
        let records = try Self.records()
        for bigEndian in [false, true] {
            for nanoseconds in [false, true] {
                let bytes = Self.pcap(records, bigEndian: bigEndian, nanoseconds: nanoseconds)
                let (events, error, format) = try Self.readAll(bytes, path: "capture.pcap")
                #expect(error == nil)
                #expect(format == .pcap)
                #expect(events.count == 3)
                for (index, event) in events.enumerated() {
                    var expected = records[index]
                    if !nanoseconds { expected.timestamp = expected.timestamp / 1000 * 1000 }
                    #expect(event.packet?.record == expected, "record \(index), big-endian \(bigEndian)")
                }
            }
        }
    }

    @Test func aTruncatedCaptureReportsEveryPacketBeforeTheCut() throws {
        let bytes = CaptureWriter.pcapng(try Self.records())
        let cut = Array(bytes.dropLast(7))
        let (events, error, _) = try Self.readAll(cut)
        #expect(events.count == 2)
        #expect(events.allSatisfy { $0.event.frame != nil })
        #expect(error?.kind == .badCapture)
        #expect(error?.message.contains("the file ends") == true)
        #expect(error?.offset == bytes.count - CaptureWriter.packetBlock(try Self.records()[2]).count)
    }

    @Test func aHugeBlockLengthIsRefusedWithoutReadingIt() throws {
        var bytes = CaptureWriter.pcapng(Array(try Self.records().prefix(1)))
        let second = bytes.count
        bytes += [6, 0, 0, 0, 0xF0, 0xFF, 0xFF, 0x7F] + [UInt8](repeating: 0, count: 64)
        let (events, error, _) = try Self.readAll(bytes)
        #expect(events.count == 1)
        #expect(error?.kind == .badCapture)
        #expect(error?.offset == second + 4)
        #expect(error?.description.contains("block length 2147483632 is over") == true)
        // A length that is not a multiple of four.
        var odd = CaptureWriter.pcapng([])
        odd += [6, 0, 0, 0, 13, 0, 0, 0] + [UInt8](repeating: 0, count: 8)
        #expect(try Self.readAll(odd).error?.message.contains("not a multiple of 4") == true)
    }

    @Test func anEthernetCaptureNamesItsLinkTypeAndTheTsharkRecipe() throws {
        var bytes = CaptureWriter.pcapng([])
        // The interface description block's link type, at offset 8 of the second block.
        let interface = Int(bytes[4]) | Int(bytes[5]) << 8  // the section header's length
        #expect(bytes[interface] == 1)  // block type 1: an interface description
        bytes[interface + 8] = 1
        bytes += CaptureWriter.packetBlock(try Self.records()[0])
        let (events, error, _) = try Self.readAll(bytes)
        #expect(events.isEmpty)
        #expect(error?.kind == .unknownLinkType)
        #expect(error?.message.contains("link type 1 (Ethernet)") == true)
        #expect(error?.message.contains("-e data.data") == true)
    }

    @Test func aBadPseudoHeaderIsOnePacketsProblem() throws {
        var records = try Self.records()
        var bytes = CaptureWriter.fileHeader()
        bytes += CaptureWriter.packetBlock(records[0])
        var bad = CaptureWriter.packetBlock(records[1])
        bad[28] = 9  // pseudo-header version
        bytes += bad
        bytes += CaptureWriter.packetBlock(records[2])
        let (events, error, _) = try Self.readAll(bytes)
        #expect(error == nil)
        #expect(events.count == 3)
        #expect(events[1].event.error?.kind == .invalidValue)
        #expect(events[1].event.error?.context.contains("packet 2: bad pseudo-header: pseudo-header version 9") == true)
        records[2].room = ""
        #expect(events[2].packet?.record == records[2])
    }

    @Test func rotationKeepsTheNewestFiles() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("gw-rotate-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("trace.pcapng").path
        let record = try Self.records()[0]
        let blockSize = CaptureWriter.packetBlock(record).count
        let headerSize = CaptureWriter.fileHeader().count
        // Two records per file, three files kept, seven records written.
        let writer = try CaptureWriter(path: path, rotation: .init(maxFileBytes: headerSize + 2 * blockSize, maxFiles: 3))
        for index in 0..<7 {
            var numbered = record
            numbered.timestamp = UInt64(index)
            writer.write(numbered)
        }
        writer.close()
        #expect(writer.recordCount == 7)
        #expect(writer.failure == nil)
        let names = writer.paths.map { URL(fileURLWithPath: $0).lastPathComponent }
        // Files 0, 1, 2, then 0 again (records 6): the oldest kept is file 1.
        #expect(names == ["trace-1.pcapng", "trace-2.pcapng", "trace-0.pcapng"])
        var timestamps: [UInt64] = []
        for file in writer.paths {
            let stream = try FrameFileStream(path: file)
            while let event = try stream.next() { timestamps.append(event.packet?.record?.timestamp ?? 999) }
        }
        #expect(timestamps == [2, 3, 4, 5, 6])
    }

    @Test func environmentSettings() throws {
        let directory = FileManager.default.temporaryDirectory.path
        func settings(_ environment: [String: String]) -> Result<
            (path: String, rotation: CaptureWriter.Rotation?), CaptureEnvironment.SettingsProblem
        >? {
            CaptureEnvironment.settings(environment, processID: 4242, programName: "relay")
        }
        #expect(settings([:]) == nil)
        #expect(settings(["GROUPWIRE_CAPTURE": ""]) == nil)
        #expect(try settings(["GROUPWIRE_CAPTURE": "/tmp/gw-%n-%p.pcapng"])?.get().path == "/tmp/gw-relay-4242.pcapng")
        #expect(
            try settings(["GROUPWIRE_CAPTURE": directory])?.get().path == directory + (directory.hasSuffix("/") ? "" : "/")
                + "relay-4242.pcapng")
        #expect(try settings(["GROUPWIRE_CAPTURE": "/nowhere/yet/"])?.get().path == "/nowhere/yet/relay-4242.pcapng")
        let rotated = try settings([
            "GROUPWIRE_CAPTURE": "x.pcapng", "GROUPWIRE_CAPTURE_FILE_SIZE": "2M", "GROUPWIRE_CAPTURE_FILE_COUNT": "4",
        ])?.get()
        #expect(rotated?.rotation == CaptureWriter.Rotation(maxFileBytes: 2 << 20, maxFiles: 4))
        let badSize = settings(["GROUPWIRE_CAPTURE": "x", "GROUPWIRE_CAPTURE_FILE_SIZE": "lots"])
        #expect(throws: CaptureEnvironment.SettingsProblem.self) { try badSize?.get() }
        let countAlone = settings(["GROUPWIRE_CAPTURE": "x", "GROUPWIRE_CAPTURE_FILE_COUNT": "3"])
        if case .failure(let problem) = countAlone {
            #expect(problem.description.contains("needs GROUPWIRE_CAPTURE_FILE_SIZE"))
        } else {
            Issue.record("a file count without a size is refused")
        }
        #expect(CaptureEnvironment.byteCount("10k") == 10_240)
        #expect(CaptureEnvironment.byteCount("9223372036854775807G") == nil)
        #expect(CaptureWriter.filePath("a/b.c.pcapng", index: 3, rotation: .init(maxFileBytes: 1)) == "a/b.c-3.pcapng")
        #expect(CaptureWriter.filePath("trace", index: 1, rotation: .init(maxFileBytes: 1)) == "trace-1")
        #expect(CaptureWriter.filePath("trace.pcapng", index: 1, rotation: nil) == "trace.pcapng")
    }

    static let tshark = ["/usr/bin/tshark", "/usr/local/bin/tshark", "/opt/homebrew/bin/tshark"]
        .first { FileManager.default.isExecutableFile(atPath: $0) }

    /// Wireshark's own reader takes the file: every packet, its length and its time.
    @Test(.enabled(if: tshark != nil, "tshark is not installed (make setup installs it)"))
    func tsharkReadsTheCapture() throws {
        let records = try Self.records()
        let folder = try RepositoryPaths.temporaryDirectory(prefix: "groupwire-capture")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("three.pcapng").path
        let writer = try CaptureWriter(path: path)
        for record in records { writer.write(record) }
        writer.close()
        let run = try ChildProcess.run(
            URL(fileURLWithPath: Self.tshark!),
            [
                "-r", path, "-T", "fields", "-E", "separator=,", "-e", "frame.number", "-e", "frame.len", "-e",
                "frame.time_epoch",
            ], timeLimit: .seconds(60))
        #expect(run.status == 0, "\(run.errors)")
        let lines = run.outputText.split(separator: "\n").map(String.init)
        let expected = records.enumerated().map { index, record in
            "\(index + 1),\(record.packetData.count),\(record.timestamp / 1_000_000_000).\(String(format: "%09llu", record.timestamp % 1_000_000_000))"
        }
        #expect(lines == expected)
    }

    @Test func anUnwritableCaptureFileIsATypedError() {
        #expect(throws: FrameFileError.self) { try CaptureWriter(path: "/nonexistent-dir/x.pcapng") }
    }

    @Test func aLongRoomNameIsCutOnACharacterBoundary() throws {
        let room = String(repeating: "é", count: 200)  // 400 bytes
        let record = CaptureRecord(
            timestamp: 0, direction: .sent, local: Self.alice, peer: nil, room: room, frame: try Self.records()[0].frame)
        let (events, _, _) = try Self.readAll(CaptureWriter.pcapng([record]))
        #expect(events.first?.packet?.record?.room == String(repeating: "é", count: 127))
    }

    /// A classic pcap file of `records`.
    static func pcap(_ records: [CaptureRecord], bigEndian: Bool, nanoseconds: Bool) -> [UInt8] {
        func u32(_ value: UInt32) -> [UInt8] {
            let little = (0..<4).map { UInt8(truncatingIfNeeded: value >> UInt32(8 * $0)) }
            return bigEndian ? little.reversed() : little
        }
        func u16(_ value: UInt16) -> [UInt8] {
            let little = [UInt8(truncatingIfNeeded: value), UInt8(truncatingIfNeeded: value >> 8)]
            return bigEndian ? little.reversed() : little
        }
        var bytes = u32(nanoseconds ? 0xA1B2_3C4D : 0xA1B2_C3D4) + u16(2) + u16(4) + u32(0) + u32(0) + u32(262_144) + u32(147)
        for record in records {
            let data = record.packetData
            let fraction = nanoseconds ? record.timestamp % 1_000_000_000 : record.timestamp % 1_000_000_000 / 1000
            bytes +=
                u32(UInt32(record.timestamp / 1_000_000_000)) + u32(UInt32(fraction)) + u32(UInt32(data.count))
                + u32(UInt32(data.count))
            bytes += data
        }
        return bytes
    }
}
