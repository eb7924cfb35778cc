import Foundation
import GroupWire
import GroupWireCapture
import GroupWireCompression
import GroupWireExamples
import GroupWireInspection
import GroupWireJSON
import GroupWireNegotiation
import GroupWireSession
import GroupWireSpec
import GroupWireTestSupport
import GroupWireTools
import Testing

/// `groupwire validate` on captures made for each check: what a valid exchange looks like,
/// and each kind of problem reported with its frame, byte offset and reason.
@Suite struct ValidateToolTests {
    static let ana = UUID("00000000-0000-4000-8000-0000000000A1")
    static let ben = UUID("00000000-0000-4000-8000-0000000000B2")
    static let specPath = RepositoryPaths.root.appendingPathComponent("Spec/Examples/DrawTogether.gwspec").path
    static let stroke = UpsertStroke(
        id: UUID("5E1F0000-0000-4000-8000-00000000000A"), color: .green,
        point: Point(x: 1.5, y: -2))

    static func hello(codecs: [HelloCodec] = [HelloCodec(codec: 1)]) throws -> [UInt8] {
        let spec = try SpecLoading.load(specPath).spec
        return try FrameEncoder().encode(
            Frame(
                kind: .control, typeID: Hello.controlID,
                body: try Hello(codecs: codecs, schema: try HelloSchema(spec: spec)).payload()))
    }

    static func strokeFrame(delivery: DeliveryHeader? = nil) throws -> [UInt8] {
        try FrameEncoder().encode(
            Frame(
                kind: .data, typeID: UInt64(UpsertStroke.wireTypeID), delivery: delivery,
                body: stroke.wirePayload()))
    }

    /// Ben's view: ana's hello, ben's hello to ana, then `frames` from ana.
    static func bensCapture(
        _ frames: [[UInt8]], anaCodecs: [HelloCodec] = [HelloCodec(codec: 1)], benCodecs: [HelloCodec] = [HelloCodec(codec: 1)]
    )
        throws -> [CaptureRecord]
    {
        var time: UInt64 = 1_764_000_000_000_000_000
        func next() -> UInt64 {
            time += 1_000_000
            return time
        }
        var records = [
            CaptureRecord(
                timestamp: next(), direction: .received, local: ben, peer: ana, room: "r", frame: try hello(codecs: anaCodecs)),
            CaptureRecord(
                timestamp: next(), direction: .sent, local: ben, peer: ana, room: "r", frame: try hello(codecs: benCodecs)),
        ]
        for frame in frames {
            records.append(CaptureRecord(timestamp: next(), direction: .received, local: ben, peer: ana, room: "r", frame: frame))
        }
        return records
    }

    static func validate(_ bytes: [UInt8], format: ValidateTool.Format = .text, specs: [String] = [specPath]) throws -> ToolResult
    {
        let folder = try RepositoryPaths.temporaryDirectory(prefix: "groupwire-validate")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("capture.pcapng").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        var tool = ValidateTool(input: path, specPaths: specs)
        tool.format = format
        var result = tool.run()
        // Paths in the report: the folder is temporary.
        result.output = Array(result.outputText.replacingOccurrences(of: path, with: "capture.pcapng").utf8)
        result.messages = result.messages.replacingOccurrences(of: path, with: "capture.pcapng")
        return result
    }

    /// The file offset of record `index`'s frame in `CaptureWriter.pcapng(records)`.
    static func frameOffset(_ records: [CaptureRecord], _ index: Int) -> Int {
        var offset = CaptureWriter.pcapng([]).count
        for record in records[..<index] { offset += CaptureWriter.pcapng([record]).count - CaptureWriter.pcapng([]).count }
        return offset + 28 + CaptureRecord.fixedPseudoHeaderLength + records[index].room.utf8.count
    }

    @Test func aValidExchangeIsValid() throws {
        let records = try Self.bensCapture([try Self.strokeFrame(), try Self.strokeFrame()])
        let result = try Self.validate(CaptureWriter.pcapng(records))
        #expect(result.status == .ok, "\(result.outputText)\(result.messages)")
        let lines = result.outputText.split(separator: "\n").map(String.init)
        #expect(
            lines == [
                "capture.pcapng: pcapng, \(CaptureWriter.pcapng(records).count) bytes, 4 frames (4 valid, 0 fragments) from 2 senders",
                "  2 messages decoded (0 compressed): UpsertStroke 2",
                "  2 control frames (2 hellos), 0 retransmissions",
                "valid: every frame passed every check",
            ])
    }

    @Test func aCorruptFrameIsReportedAndTheRestStillChecked() throws {
        var bad = try Self.strokeFrame()
        bad[8] ^= 0xFF
        let records = try Self.bensCapture([bad, try Self.strokeFrame()])
        let result = try Self.validate(CaptureWriter.pcapng(records))
        #expect(result.status == .invalidInput)
        let lines = result.outputText.split(separator: "\n").map(String.init)
        // The offset of the stored checksum, in the file.
        let checksumOffset = Self.frameOffset(records, 2) + bad.count - 4
        #expect(
            lines.first?.hasPrefix("capture.pcapng: error: frame 3, byte \(checksumOffset): checksumMismatch: stored crc32c")
                == true,
            "\(lines.first ?? "")")
        #expect(lines.contains("  1 message decoded (0 compressed): UpsertStroke 1"))
        #expect(lines.last == "invalid: 1 problem")
    }

    @Test func aPayloadTheSpecCannotReadNamesItsOffset() throws {
        // Field 2 (the color, an enum) as a string: a wire type the spec does not allow.
        let body: [UInt8] = [0x12, 0x01, 0x41]
        let frame = try FrameEncoder().encode(Frame(kind: .data, typeID: UInt64(UpsertStroke.wireTypeID), body: body))
        let unknown = try FrameEncoder().encode(Frame(kind: .data, typeID: 9_999, body: []))
        let records = try Self.bensCapture([frame, unknown])
        let result = try Self.validate(CaptureWriter.pcapng(records), format: .jsonl)
        #expect(result.status == .invalidInput)
        let lines = result.outputText.split(separator: "\n").map { try? JSONParser().parse(Array($0.utf8)) }
        #expect(lines.count == 3)
        guard case .object(let first)? = lines[0], case .object(let second)? = lines[1], case .object(let summary)? = lines[2]
        else {
            Issue.record("three JSON objects: \(result.outputText)")
            return
        }
        #expect(first["kind"] == .string("payload"))
        #expect(first["frame"] == .number(JSONNumber(Int64(3))))
        // The body starts after magic, version, length, kind and type id: 5 bytes.
        #expect(first["offset"] == .number(JSONNumber(Int64(Self.frameOffset(records, 2) + 5))))
        #expect(second["kind"] == .string("unknownType"))
        #expect(second["frame"] == .number(JSONNumber(Int64(4))))
        #expect(summary["record"] == .string("summary"))
        #expect(summary["valid"] == .bool(false))
        #expect(summary["problems"] == .number(JSONNumber(Int64(2))))
    }

    @Test func deliverySequencesRetransmissionsClashesAndGaps() throws {
        let stream = DeliveryHeader(incarnation: 5, isReliable: true, sequence: 1).stream
        func frame(_ sequence: UInt64, x: Double = 1.5) throws -> [UInt8] {
            var stroke = Self.stroke
            stroke.point = Point(x: x, y: 0)
            return try FrameEncoder().encode(
                Frame(
                    kind: .data, typeID: UInt64(UpsertStroke.wireTypeID),
                    delivery: DeliveryHeader(stream: stream, sequence: sequence), body: stroke.wirePayload()))
        }
        // 1, 2, 2 again (a retransmission), 3 with other bytes than the first 3, and 5 without 4.
        let records = try Self.bensCapture([
            try frame(1), try frame(2), try frame(2), try frame(3), try frame(3, x: 9), try frame(5),
        ])
        let result = try Self.validate(CaptureWriter.pcapng(records))
        #expect(result.status == .invalidInput)
        let lines = result.outputText.split(separator: "\n").map(String.init)
        let a = Self.ana.uuidString.lowercased(), b = Self.ben.uuidString.lowercased()
        #expect(
            lines.contains(
                "capture.pcapng: error: frame 7, byte \(Self.frameOffset(records, 6)): reliable stream \(stream) from \(a) to \(b) repeats sequence 3 with different bytes [sequence]"
            ))
        #expect(
            lines.contains(
                "capture.pcapng: error: reliable stream \(stream) from \(a) to \(b) never shows sequence 4 (seen up to 5) [sequence]"
            ))
        #expect(lines.contains("  2 control frames (2 hellos), 1 retransmission"))
        #expect(lines.last == "invalid: 2 problems")
    }

    /// A reliable stream that runs a window past a hole: the hole is reported once, and the
    /// missing frame arriving after that is counted as a retransmission, not taken for a new
    /// message; a second hole still open at the end is reported there.
    @Test func aGapGivenUpOnIsReportedOnceEvenWhenItsFrameComesLate() throws {
        let stream = DeliveryHeader(incarnation: 3, isReliable: true, sequence: 1).stream
        func frame(_ sequence: Int) throws -> [UInt8] {
            try FrameEncoder().encode(
                Frame(
                    kind: .data, typeID: UInt64(UpsertStroke.wireTypeID),
                    delivery: DeliveryHeader(stream: stream, sequence: UInt64(sequence)), body: Self.stroke.wirePayload()))
        }
        let window = Int(CaptureValidator.sequenceWindow)
        // 1, then 3 ... window + 1, then window + 3 (2 and window + 2 missing), then 2 late.
        var frames = [try frame(1)]
        frames += try (3...(window + 1)).map { try frame($0) }
        frames += [try frame(window + 3), try frame(2)]
        let result = try Self.validate(CaptureWriter.pcapng(try Self.bensCapture(frames)))
        #expect(result.status == .invalidInput)
        let problems = result.outputText.split(separator: "\n").filter { $0.contains("error:") }
        #expect(problems.count == 2, "\(problems)")
        #expect(
            problems.first?.contains("moved \(window) sequences past sequence 2 without them [sequence]") == true, "\(problems)")
        #expect(problems.last?.contains("never shows sequence \(window + 2) (seen up to \(window + 3))") == true, "\(problems)")
        #expect(result.outputText.contains("\(window + 1) messages decoded"), "the late frame is not a new message")
        #expect(result.outputText.contains("1 retransmission\n"))
    }

    /// Each new incarnation ends the one before (a reconnect): its state is dropped, so what
    /// is kept stays bounded, its holes are not reported, and its late frames are not checked.
    @Test func aNewIncarnationEndsTheOneBefore() throws {
        func frame(_ incarnation: UInt32, _ sequence: UInt64, x: Double = 1) throws -> [UInt8] {
            var stroke = Self.stroke
            stroke.point = Point(x: x, y: 0)
            return try FrameEncoder().encode(
                Frame(
                    kind: .data, typeID: UInt64(UpsertStroke.wireTypeID),
                    delivery: DeliveryHeader(incarnation: incarnation, isReliable: true, sequence: sequence),
                    body: stroke.wirePayload()))
        }
        // 50 incarnations, each with sequences 1 and 3 (2 missing); then a late, different
        // sequence 3 of the 45th (among the last 8 remembered, as a receiver remembers them);
        // the last incarnation's hole is the only one reported.
        var frames: [[UInt8]] = []
        for incarnation in 1...50 { frames += [try frame(UInt32(incarnation), 1), try frame(UInt32(incarnation), 3)] }
        frames.append(try frame(45, 3, x: 9))
        var validator = CaptureValidator(specs: [try SpecLoading.load(Self.specPath).spec])
        let stream = FrameFileStream(bytes: CaptureWriter.pcapng(try Self.bensCapture(frames)), path: "c.pcapng")
        var problems: [ValidationProblem] = []
        while let event = try stream.next() { problems += validator.check(event) }
        #expect(validator.trackedStreamCount == 1)
        problems += validator.finish()
        let last = DeliveryHeader(incarnation: 50, isReliable: true, sequence: 1).stream
        #expect(
            problems.map(\.reason) == [
                "reliable stream \(last) from \(Self.ana.uuidString.lowercased()) to \(Self.ben.uuidString.lowercased()) never shows sequence 2 (seen up to 3)"
            ])
        #expect(
            validator.summary.messages == 100, "the late frame of a superseded incarnation is dropped, as a receiver drops it")
    }

    @Test func framesMustFollowWhatTheHellosAgreed() throws {
        // Ben's hello offers no compression; ana sends him a compressed frame anyway.
        let payload = Self.stroke.wirePayload()
        let compressed = try ZstdCompressor().compress(payload)
        let frame = try FrameEncoder().encode(
            Frame(
                kind: .data, typeID: UInt64(UpsertStroke.wireTypeID),
                compression: CompressionInfo(contentSize: UInt64(payload.count)), body: compressed))
        let records = try Self.bensCapture([frame], benCodecs: [])
        let result = try Self.validate(CaptureWriter.pcapng(records))
        #expect(result.status == .invalidInput)
        let lines = result.outputText.split(separator: "\n").map(String.init)
        let a = Self.ana.uuidString.lowercased(), b = Self.ben.uuidString.lowercased()
        #expect(
            lines.first
                == "capture.pcapng: error: frame 3, byte \(Self.frameOffset(records, 2)): compressed with codec 1 from \(a) to \(b); their hellos agreed on no compression [agreement]"
        )
        #expect(lines.contains("  1 message decoded (1 compressed): UpsertStroke 1"), "the message itself is fine")
    }

    @Test func aTruncatedCaptureReportsWhatCameBefore() throws {
        let records = try Self.bensCapture([try Self.strokeFrame(), try Self.strokeFrame()])
        let bytes = Array(CaptureWriter.pcapng(records).dropLast(10))
        let result = try Self.validate(bytes)
        #expect(result.status == .invalidInput)
        let lines = result.outputText.split(separator: "\n").map(String.init)
        let lastBlock =
            CaptureWriter.pcapng(records).count - (CaptureWriter.pcapng([records[3]]).count - CaptureWriter.pcapng([]).count)
        #expect(
            lines.first
                == "capture.pcapng: error: byte \(lastBlock): the file ends \(bytes.count - lastBlock) bytes into a block of \(bytes.count + 10 - lastBlock) bytes [capture]",
            "\(lines)")
        #expect(lines.contains("  1 message decoded (0 compressed): UpsertStroke 1"))
    }

    @Test func aFrameCapturedCutShortIsReportedAndTheNextStillChecked() throws {
        let records = try Self.bensCapture([try Self.strokeFrame(), try Self.strokeFrame()])
        // Packet 3 as tcpdump's snapshot length would leave it: its last 10 bytes not captured.
        var bytes = CaptureWriter.pcapng(Array(records.prefix(2)))
        let third = records[2].packetData
        let kept = Array(third.dropLast(10))
        var body: [UInt8] = []
        func u32(_ value: Int) { body += withUnsafeBytes(of: UInt32(value).littleEndian) { Array($0) } }
        u32(0); u32(0); u32(0); u32(kept.count); u32(third.count)
        body += kept
        while body.count % 4 != 0 { body.append(0) }
        var block: [UInt8] = []
        block += withUnsafeBytes(of: UInt32(6).littleEndian) { Array($0) }
        block += withUnsafeBytes(of: UInt32(body.count + 12).littleEndian) { Array($0) }
        block += body
        block += withUnsafeBytes(of: UInt32(body.count + 12).littleEndian) { Array($0) }
        let packetStart = bytes.count + 28
        bytes += block + CaptureWriter.pcapng([records[3]]).dropFirst(CaptureWriter.pcapng([]).count)
        let result = try Self.validate(bytes)
        #expect(result.status == .invalidInput)
        let lines = result.outputText.split(separator: "\n").map(String.init)
        #expect(
            lines.first
                == "capture.pcapng: error: frame 3, byte \(packetStart + kept.count): packet 3 was captured cut to \(kept.count) of its \(third.count) bytes [capture]"
        )
        #expect(
            lines.count > 1 && lines[1].hasPrefix("capture.pcapng: error: frame 3, byte ") && lines[1].contains("truncated"),
            "\(lines)")
        #expect(lines.contains("  1 message decoded (0 compressed): UpsertStroke 1"), "frame 4 still decoded")
    }

    /// A capture of both sides (as `GROUPWIRE_CAPTURE` makes of several messengers in one
    /// process): each frame is there as ana sent it and as ben received it, and ben's copy
    /// is not a second send.
    /// What the validator remembers from the packet before (its conversation, its room, the
    /// type of its message) never stands in for what a packet says itself: a frame received
    /// before the capture shows its sender sending is checked, one received after is a
    /// copy; rooms and types that alternate are read and counted each time.
    @Test func whatTheValidatorKeepsFromThePacketBeforeNeverHidesWhatAPacketSays() throws {
        let snapshot = try FrameEncoder().encode(
            Frame(
                kind: .data, typeID: UInt64(CanvasSnapshot.wireTypeID),
                body: CanvasSnapshot(strokes: [], pointCount: 3).wirePayload()))
        let stroke = try Self.strokeFrame()
        let time: UInt64 = 1_764_000_000_000_000_000
        func packet(_ direction: CaptureRecord.Direction, _ room: String, _ frame: [UInt8]) -> CaptureRecord {
            let (local, peer) = direction == .sent ? (Self.ana, Self.ben) : (Self.ben, Self.ana)
            return CaptureRecord(timestamp: time, direction: direction, local: local, peer: peer, room: room, frame: frame)
        }
        let records = [
            packet(.received, "room-a", stroke),  // ana is not yet seen sending: checked
            packet(.received, "room-b", snapshot),
            packet(.received, "room-a", stroke),
            packet(.sent, "room-a", snapshot),  // the same conversation, now from ana's side
            packet(.received, "room-b", snapshot),  // a copy of a send the capture holds
            packet(.received, "room-a", stroke),  // its room's bytes are made not UTF-8 below
        ]
        var bytes = CaptureWriter.pcapng(records)
        let room = Array("room-a".utf8)
        let last = try #require((0...(bytes.count - room.count)).last { Array(bytes[$0..<($0 + room.count)]) == room })
        bytes[last + 4] = 0xFF
        var validator = CaptureValidator(specs: [try SpecLoading.load(Self.specPath).spec])
        var rooms: [String] = []
        var problems: [ValidationProblem] = []
        let input = FrameFileStream(bytes: bytes, path: "alternating.pcapng")
        while let event = try input.next() {
            let (found, message) = validator.read(event)
            problems += found
            if let message { rooms.append("\(message.room) \(message.typeName)") }
        }
        #expect(problems.map(\.kind) == [.capture] && problems.first?.frame == 6, "\(problems.map(\.reason))")
        #expect(problems.first?.reason.contains("the room name is not UTF-8") == true)
        #expect(
            rooms == [
                "room-a UpsertStroke", "room-b CanvasSnapshot", "room-a UpsertStroke", "room-a CanvasSnapshot",
            ])
        let summary = validator.summary
        #expect(summary.messagesByType == ["UpsertStroke": 2, "CanvasSnapshot": 2])
        #expect(summary.messages == 4 && summary.receivedCopies == 1 && summary.frames == 6)
    }

    /// `check(contentsOf:)` checks whole data frames in good packets where they lie in the
    /// reader's buffer and hands every other frame to the general path; over a capture with
    /// every kind of frame and problem, in an order that moves between the two paths, it
    /// reports what checking each event reports: the same problems, frames, offsets and
    /// reasons, the same summary, the same problems at the end.
    @Test func checkingACaptureWhereItLiesFindsWhatCheckingEachEventFinds() throws {
        let reliable = DeliveryHeader(incarnation: 5, isReliable: true, sequence: 1).stream
        let unreliable = DeliveryHeader(incarnation: 6, isReliable: false, sequence: 1).stream
        func stroke(_ stream: UInt32? = nil, _ sequence: UInt64 = 0, x: Double = 1.5, session: UInt32? = nil) throws -> [UInt8] {
            var stroke = Self.stroke
            stroke.point = Point(x: x, y: 0)
            return try FrameEncoder().encode(
                Frame(
                    kind: .data, typeID: UInt64(UpsertStroke.wireTypeID), session: session,
                    delivery: stream.map { DeliveryHeader(stream: $0, sequence: sequence) }, body: stroke.wirePayload()))
        }
        var corrupt = try stroke()
        corrupt[8] ^= 0xFF
        let unreadable = try FrameEncoder().encode(
            Frame(kind: .data, typeID: UInt64(UpsertStroke.wireTypeID), body: [0x12, 0x01, 0x41]))
        let unknownType = try FrameEncoder().encode(Frame(kind: .data, typeID: 9_999, body: []))
        let badControl = try FrameEncoder().encode(Frame(kind: .control, typeID: 2, body: [0xFF]))
        let payload = Self.stroke.wirePayload()
        let compressed = try FrameEncoder().encode(
            Frame(
                kind: .data, typeID: UInt64(UpsertStroke.wireTypeID),
                compression: CompressionInfo(contentSize: UInt64(payload.count)), body: try ZstdCompressor().compress(payload)))
        let points = (0..<3_000).map { Point(x: Double($0), y: Double($0 % 7)) }
        let snapshot = CanvasSnapshot(strokes: [Stroke(id: Self.stroke.id, color: .blue, points: points)], pointCount: 3_000)
        let fragments = try SendPipeline(codec: try PayloadCompressor()).frames(
            typeID: UInt64(CanvasSnapshot.wireTypeID), payload: snapshot.wirePayload(), messageID: 3,
            profile: PeerProfile(compression: nil, maxFrameSize: 4_000))
        #expect(fragments.count > 2)
        let time: UInt64 = 1_764_000_000_000_000_000
        func received(_ frame: [UInt8], room: String = "r") -> CaptureRecord {
            CaptureRecord(timestamp: time, direction: .received, local: Self.ben, peer: Self.ana, room: room, frame: frame)
        }
        var records = try Self.bensCapture([
            try stroke(reliable, 1), try stroke(reliable, 2), try stroke(reliable, 2), try stroke(reliable, 3),
            try stroke(reliable, 3, x: 9), try stroke(reliable, 5), try stroke(unreliable, 1), try stroke(unreliable, 1),
            corrupt, unreadable, unknownType, badControl, compressed, try stroke(session: 7),
        ])
        // A whole stroke while a message is half reassembled, and one after it.
        records.append(received(fragments[0]))
        records.append(received(try stroke(x: 2)))
        records += fragments.dropFirst().map { received($0) }
        records.append(received(try stroke(x: 3)))
        // Other rooms, the room before again, a room that is not UTF-8 (patched below).
        records += [received(try stroke(), room: "room-b"), received(try stroke()), received(try stroke(), room: "room-c")]
        // Ana's side of the conversation: after it, ben's received copies are copies.
        records.append(
            CaptureRecord(timestamp: time, direction: .sent, local: Self.ana, peer: Self.ben, room: "r", frame: try stroke()))
        records += [received(try stroke(x: 4)), received(unknownType)]
        // A good frame in a packet whose original length says it was cut (patched below).
        records.append(received(try stroke(x: 5)))
        var bytes = CaptureWriter.pcapng(records)
        let roomC = Array("room-c".utf8)
        let room = try #require((0...(bytes.count - roomC.count)).last { Array(bytes[$0..<($0 + roomC.count)]) == roomC })
        bytes[room + 5] = 0xFF
        let lastBlock = CaptureWriter.pcapng(Array(records.dropLast())).count
        bytes[lastBlock + 24] &+= 8  // the enhanced packet block's original length

        func viaEvents(_ bytes: [UInt8]) throws -> (problems: [ValidationProblem], summary: CaptureValidator.Summary) {
            var validator = CaptureValidator(specs: [try SpecLoading.load(Self.specPath).spec])
            var problems: [ValidationProblem] = []
            let stream = FrameFileStream(bytes: bytes, path: "c.pcapng")
            do throws(FrameFileError) {
                while let event = try stream.next() { problems += validator.check(event) }
            } catch {
                problems += validator.check(inputError: error)
            }
            problems += validator.finish()
            #expect(validator.framesCheckedInPlace == 0)
            return (problems, validator.summary)
        }
        func inPlace(_ bytes: [UInt8]) throws -> (problems: [ValidationProblem], summary: CaptureValidator.Summary, count: Int) {
            var validator = CaptureValidator(specs: [try SpecLoading.load(Self.specPath).spec])
            var problems: [ValidationProblem] = []
            do throws(FrameFileError) {
                try validator.check(contentsOf: FrameFileStream(bytes: bytes, path: "c.pcapng")) { problems.append($0) }
            } catch {
                problems += validator.check(inputError: error)
            }
            problems += validator.finish()
            return (problems, validator.summary, validator.framesCheckedInPlace)
        }
        func described(_ problems: [ValidationProblem]) -> [String] {
            problems.map { "\($0.kind) \($0.frame.map(String.init) ?? "-") \($0.offset.map(String.init) ?? "-") \($0.reason)" }
        }
        for input in [bytes, Array(bytes.dropLast(10))] {
            let expected = try viaEvents(input)
            let found = try inPlace(input)
            #expect(described(found.problems) == described(expected.problems))
            #expect(found.summary == expected.summary)
            // A clash, an unreliable repeat, a checksum, a payload, an unknown type, a control
            // body, a room, the cut packet (or the file's end) and a gap at the end.
            #expect(
                expected.problems.map(\.kind) == [
                    .sequence, .sequence, .envelope, .payload, .unknownType, .control, .capture, .capture, .sequence,
                ])
            let copies = input.count == bytes.count ? 3 : 2  // the cut packet is a copy too, when it is there
            #expect(expected.summary.fragments == fragments.count && expected.summary.receivedCopies == copies)
            // Good whole data frames with no message half reassembled: 1, 2, 2 (a
            // retransmission), 3, 3 with other bytes, 5, the two unreliable 1s, the payload
            // the spec cannot read, the unknown type, the session's stroke, the stroke after
            // the fragments, room-b's and the one after it, ana's own, and the two copies
            // after it; not the cut packet, nor anything the general path reports.
            #expect(found.count == 17, "\(found.count)")
        }
    }

    /// Each sender's hello decides how the spec reads its messages: ana announced an
    /// UpsertStroke whose point is a String (the spec cannot read it), cleo the spec's own.
    /// Their strokes alternate, so the validator moves between its two senders' verdicts
    /// each message; both paths, event by event and in place, say the same.
    @Test func eachSendersHelloDecidesWhetherTheSpecReadsItsMessages() throws {
        let specText = try String(contentsOfFile: Self.specPath, encoding: .utf8)
        let changed = specText.replacingOccurrences(of: "    3 point: Point\n}", with: "    3 point: String\n}")
        try #require(changed != specText)
        let anasSpec = SpecCompiler().compile(source: changed, path: "ana.gwspec")
        let hasErrors = anasSpec.hasErrors
        try #require(!hasErrors, "\(anasSpec.diagnostics)")
        let cleo = UUID("00000000-0000-4000-8000-0000000000C3")
        func hello(_ spec: SpecSet) throws -> [UInt8] {
            try FrameEncoder().encode(
                Frame(
                    kind: .control, typeID: Hello.controlID,
                    body: try Hello(codecs: [HelloCodec(codec: 1)], schema: try HelloSchema(spec: spec)).payload()))
        }
        let ours = try SpecLoading.load(Self.specPath).spec
        var time: UInt64 = 1_764_000_000_000_000_000
        func received(from peer: UUID, _ frame: [UInt8]) -> CaptureRecord {
            time += 1_000
            return CaptureRecord(timestamp: time, direction: .received, local: Self.ben, peer: peer, room: "r", frame: frame)
        }
        var records = [received(from: Self.ana, try hello(anasSpec.spec)), received(from: cleo, try hello(ours))]
        for _ in 0..<2 {
            records += [received(from: Self.ana, try Self.strokeFrame()), received(from: cleo, try Self.strokeFrame())]
        }
        let bytes = CaptureWriter.pcapng(records)

        var byEvent = CaptureValidator(specs: [ours])
        var eventProblems: [ValidationProblem] = []
        let stream = FrameFileStream(bytes: bytes, path: "senders.pcapng")
        while let event = try stream.next() { eventProblems += byEvent.check(event) }
        var inPlace = CaptureValidator(specs: [ours])
        var inPlaceProblems: [ValidationProblem] = []
        try inPlace.check(contentsOf: FrameFileStream(bytes: bytes, path: "senders.pcapng")) { inPlaceProblems.append($0) }

        for (problems, summary) in [(eventProblems, byEvent.summary), (inPlaceProblems, inPlace.summary)] {
            // Ana's strokes, frames 3 and 5, each at its frame's offset; cleo's two are read.
            #expect(problems.map(\.kind) == [.schema, .schema])
            #expect(problems.map(\.frame) == [3, 5])
            #expect(problems.map(\.offset) == [Self.frameOffset(records, 2), Self.frameOffset(records, 4)])
            #expect(
                problems.first?.reason.hasPrefix(
                    "type id \(UpsertStroke.wireTypeID): the sender's hello announced a schema the spec reads as incompatible")
                    == true, "\(problems.map(\.reason))")
            #expect(summary.messages == 2 && summary.messagesByType == ["UpsertStroke": 2] && summary.hellos == 2)
        }
        #expect(inPlace.framesCheckedInPlace == 4)
    }

    @Test func aCaptureOfBothSidesCountsEachSendOnce() throws {
        let stream = DeliveryHeader(incarnation: 7, isReliable: false, sequence: 1).stream
        var records: [CaptureRecord] = []
        var time: UInt64 = 1_764_000_000_000_000_000
        for (local, peer) in [(Self.ana, Self.ben), (Self.ben, Self.ana)] {
            // Each side's hello, sent and received.
            time += 1_000
            let hello = try Self.hello()
            records.append(CaptureRecord(timestamp: time, direction: .sent, local: local, peer: peer, room: "r", frame: hello))
            records.append(
                CaptureRecord(timestamp: time + 1, direction: .received, local: peer, peer: local, room: "r", frame: hello))
        }
        for sequence: UInt64 in 1...3 {
            time += 1_000
            let frame = try FrameEncoder().encode(
                Frame(
                    kind: .data, typeID: UInt64(UpsertStroke.wireTypeID),
                    delivery: DeliveryHeader(stream: stream, sequence: sequence), body: Self.stroke.wirePayload()))
            records.append(
                CaptureRecord(timestamp: time, direction: .sent, local: Self.ana, peer: Self.ben, room: "r", frame: frame))
            records.append(
                CaptureRecord(timestamp: time + 1, direction: .received, local: Self.ben, peer: Self.ana, room: "r", frame: frame)
            )
        }
        var validator = CaptureValidator(specs: [try SpecLoading.load(Self.specPath).spec])
        let input = FrameFileStream(bytes: CaptureWriter.pcapng(records), path: "both.pcapng")
        var problems: [ValidationProblem] = []
        while let event = try input.next() { problems += validator.check(event) }
        problems += validator.finish()
        #expect(problems.isEmpty, "\(problems.map(\.reason))")
        #expect(validator.summary.receivedCopies == 5 && validator.summary.retransmissions == 0)
        #expect(validator.summary.messages == 3 && validator.summary.hellos == 2)
    }

    @Test func inputThatIsNoCaptureIsAUsageError() throws {
        let zip: [UInt8] = [0x50, 0x4B, 0x03, 0x04, 0x14, 0x00, 0x00, 0x00, 0x08, 0x00]
        let result = try Self.validate(zip)
        #expect(result.status == .failure)
        #expect(
            result.messages
                == "groupwire: error: capture.pcapng: no frame found in 10 bytes: not a capture or frame file: expected pcapng (starting 0a 0d 0d 0a), pcap (a1 b2 c3 d4 or a1 b2 3c 4d, either byte order), raw frames (starting c7 01) or a hex dump; it starts 50 4b 03 04 14 00 00 00\n"
        )
        var ethernet = CaptureWriter.pcapng(try Self.bensCapture([]))
        let interface = Int(ethernet[4]) | Int(ethernet[5]) << 8
        ethernet[interface + 8] = 1
        let wrongLink = try Self.validate(ethernet)
        #expect(wrongLink.status == .failure)
        #expect(wrongLink.messages.contains("link type 1 (Ethernet) is not GroupWire's 147 (LINKTYPE_USER0)"))
        let empty = try Self.validate([])
        #expect(
            empty.status == .failure
                && empty.messages == "groupwire: error: capture.pcapng: is empty: not a capture or frame file\n")
        // A capture that holds no packets is a valid capture.
        #expect(try Self.validate(CaptureWriter.pcapng([])).status == .ok)
        let missingSpec = try Self.validate(CaptureWriter.pcapng([]), specs: ["/nonexistent.gwspec"])
        #expect(missingSpec.status == .failure)
    }

    /// The binary as a script runs it: output piped, so no progress bar, and the exit status.
    @Test func theCommandPipedPrintsNoProgressBarAndExitsByVerdict() throws {
        let folder = try RepositoryPaths.temporaryDirectory(prefix: "groupwire-validate")
        defer { try? FileManager.default.removeItem(at: folder) }
        let good = folder.appendingPathComponent("good.pcapng").path
        try Data(CaptureWriter.pcapng(try Self.bensCapture([try Self.strokeFrame()]))).write(to: URL(fileURLWithPath: good))
        let valid = try CLIRunner.run(["validate", good, "--spec", Self.specPath])
        #expect(valid.status == 0 && valid.errors.isEmpty, "\(valid.errors)")
        #expect(valid.outputText.hasSuffix("valid: every frame passed every check\n"))
        var bad = try Self.strokeFrame()
        bad[6] ^= 0x55
        let broken = folder.appendingPathComponent("bad.pcapng").path
        try Data(CaptureWriter.pcapng(try Self.bensCapture([bad]))).write(to: URL(fileURLWithPath: broken))
        let invalid = try CLIRunner.run(["validate", broken, "--spec", Self.specPath, "--format", "jsonl"])
        #expect(invalid.status == 1 && !invalid.errors.contains("validating ["))
        let missing = try CLIRunner.run(["validate", folder.appendingPathComponent("none.pcapng").path, "--spec", Self.specPath])
        #expect(missing.status == 2 && missing.errors.contains("no such file"))
        let noSpec = try CLIRunner.run(["validate", good])
        #expect(noSpec.status == 2 && noSpec.errors.contains("--spec"))
    }

    @Test func jsonReportIsOneObject() throws {
        var bad = try Self.strokeFrame()
        bad[bad.count - 1] ^= 1
        let records = try Self.bensCapture([bad])
        let result = try Self.validate(CaptureWriter.pcapng(records), format: .json)
        #expect(result.status == .invalidInput)
        guard case .object(let report) = try JSONParser().parse(result.output), case .array(let problems)? = report["problems"],
            case .object(let summary)? = report["summary"]
        else {
            Issue.record("one object with problems and summary: \(result.outputText)")
            return
        }
        #expect(report["schema"] == .string("groupwire.validate/1"))
        #expect(report["format"] == .string("pcapng"))
        #expect(report["valid"] == .bool(false))
        #expect(problems.count == 1)
        #expect(summary["frames"] == .number(JSONNumber(Int64(3))))
        #expect(summary["hellos"] == .number(JSONNumber(Int64(2))))
    }
}
