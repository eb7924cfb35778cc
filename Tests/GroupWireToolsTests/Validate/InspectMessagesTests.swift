import Foundation
import GroupWire
import GroupWireCapture
import GroupWireExamples
import GroupWireJSON
import GroupWireTestSupport
import GroupWireTools
import Testing

/// `groupwire inspect --format jsonl --spec`: one object per message, decoded by the spec,
/// filtered by type and participant.
@Suite struct InspectMessagesTests {
    static func capture() throws -> [CaptureRecord] {
        var records = try ValidateToolTests.bensCapture([try ValidateToolTests.strokeFrame()])
        // Ben sends a snapshot of one stroke to everyone.
        let snapshot = CanvasSnapshot(
            strokes: [Stroke(id: ValidateToolTests.stroke.id, color: .blue, points: [Point(x: 3, y: 4)])], pointCount: 1)
        let frame = try FrameEncoder().encode(
            Frame(kind: .data, typeID: UInt64(CanvasSnapshot.wireTypeID), session: 5, body: snapshot.wirePayload()))
        records.append(
            CaptureRecord(
                timestamp: 1_764_000_009_000_000_000, direction: .sent, sessionID: 5, local: ValidateToolTests.ben,
                peer: nil, room: "r", frame: frame))
        return records
    }

    static func run(_ configure: (inout InspectMessagesTool) -> Void) throws -> (ToolResult, [JSONValue]) {
        let folder = try RepositoryPaths.temporaryDirectory(prefix: "groupwire-inspect")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("c.pcapng").path
        try Data(CaptureWriter.pcapng(try capture())).write(to: URL(fileURLWithPath: path))
        var tool = InspectMessagesTool(path: path, specPaths: [ValidateToolTests.specPath])
        configure(&tool)
        let result = tool.run()
        let objects = try result.outputText.split(separator: "\n").map { try JSONParser().parse(Array($0.utf8)) }
        return (result, objects)
    }

    @Test func everyMessageWithItsFieldsByName() throws {
        let (result, objects) = try Self.run { _ in }
        #expect(result.status == .ok, "\(result.messages)")
        #expect(objects.count == 2)
        let a = ValidateToolTests.ana.uuidString.lowercased(), b = ValidateToolTests.ben.uuidString.lowercased()
        guard case .object(let stroke) = objects[0], case .object(let snapshot) = objects[1] else { return }
        #expect(stroke["type"] == .string("UpsertStroke") && stroke["typeID"] == .number(JSONNumber(UInt64(1))))
        #expect(stroke["sender"] == .string(a) && stroke["receiver"] == .string(b) && stroke["room"] == .string("r"))
        #expect(stroke["frame"] == .number(JSONNumber(Int64(3))) && stroke["session"] == .null)
        #expect(
            stroke["value"]
                == .object([
                    "id": .string("5E1F0000-0000-4000-8000-00000000000A"), "color": .string("green"),
                    "point": .object(["x": .number(JSONNumber(1.5)!), "y": .number(JSONNumber(-2.0)!)]),
                ]))
        #expect(
            snapshot["sender"] == .string(b) && snapshot["receiver"] == .null
                && snapshot["session"] == .number(JSONNumber(UInt64(5))))
        #expect(snapshot["time"] == .number(JSONNumber(UInt64(1_764_000_009_000_000_000))))
        guard case .object(let value)? = snapshot["value"], case .array(let strokes)? = value["strokes"] else {
            Issue.record("a snapshot value with strokes")
            return
        }
        #expect(strokes.count == 1 && value["pointCount"] == .number(JSONNumber(UInt64(1))))
    }

    @Test func filtersByTypeAndParticipant() throws {
        let (byType, snapshots) = try Self.run { $0.types = ["CanvasSnapshot"] }
        #expect(byType.status == .ok && snapshots.count == 1)
        // Ana only sent the stroke; ben sent the snapshot and received the stroke.
        let (_, ana) = try Self.run { $0.participants = ["00000000-0000-4000-8000-0000000000a1"] }
        #expect(ana.count == 1)
        let (_, ben) = try Self.run { $0.participants = ["00000000-0000-4000-8000-0000000000B2".prefix(36 - 2).description] }
        #expect(ben.count == 2)
        let (_, nobody) = try Self.run { $0.participants = ["ff"] }
        #expect(nobody.isEmpty)
        let (unknownType, _) = try Self.run { $0.types = ["Nope"] }
        #expect(
            unknownType.status == .failure && unknownType.messages.hasPrefix("groupwire: error: --type Nope: no such message"))
    }

    @Test func theCommandLineWantsASpecForJSONLines() throws {
        let noSpec = try CLIRunner.run(["inspect", "x.pcapng", "--format", "jsonl"])
        #expect(noSpec.status == 2 && noSpec.errors.contains("--format jsonl decodes payloads by a spec"))
        let stray = try CLIRunner.run(["inspect", "x.pcapng", "--type", "UpsertStroke"])
        #expect(stray.status == 2 && stray.errors.contains("go with --format jsonl"))
    }
}
