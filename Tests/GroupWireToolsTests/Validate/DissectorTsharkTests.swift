import Foundation
import GroupWire
import GroupWireCapture
import GroupWireCompression
import GroupWireDynamic
import GroupWireExamples
import GroupWireJSON
import GroupWireSession
import GroupWireSpec
import GroupWireTestSupport
import GroupWireTools
import Testing

/// Where tshark is, nil when it is not installed.
let tsharkPath = ["/usr/bin/tshark", "/usr/local/bin/tshark", "/opt/homebrew/bin/tshark"]
    .first { FileManager.default.isExecutableFile(atPath: $0) }

/// The generated Lua dissector run by the real tshark on captures the toolkit made,
/// compared field by field with what `groupwire inspect` decodes from the same capture.
@Suite(.enabled(if: tsharkPath != nil, "tshark is not installed (make setup installs it)"), .heavy)
struct DissectorTsharkTests {
    static let tshark = tsharkPath ?? "tshark"  // the suite runs only when tsharkPath is set
    static let v3 = "Spec/Examples/Versions/DrawTogether-v3.gwspec"
    static let v1 = "Spec/Examples/DrawTogether.gwspec"

    /// `tshark -X lua_script:LUA -r CAPTURE -T fields -e …`, one row of fields per packet.
    static func fields(_ lua: String, _ capture: String, _ names: [String], extra: [String] = []) throws -> [[String]] {
        var arguments = [
            "-X", "lua_script:\(lua)", "-r", capture, "-T", "fields", "-E", "separator=/t", "-E", "occurrence=a", "-E",
            "aggregator=;",
        ]
        arguments += extra
        for name in names { arguments += ["-e", name] }
        let run = try ChildProcess.run(URL(fileURLWithPath: tshark), arguments, timeLimit: .seconds(120))
        #expect(run.status == 0, "\(run.errors)")
        #expect(!run.errors.contains("Lua"), "\(run.errors)")
        return run.outputText.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map {
            $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
        }
    }

    static func dissector(_ specs: [String], in folder: URL) throws -> String {
        let path = folder.appendingPathComponent("groupwire.lua").path
        var tool = DissectorTool(specPaths: specs.map { RepositoryPaths.root.appendingPathComponent($0).path }, output: path)
        tool.relayPort = 8_787
        let result = tool.run()
        #expect(result.status == .ok, "\(result.messages)")
        return path
    }

    @Test func drawTogetherFieldsMatchInspectFrameByFrame() throws {
        let folder = try RepositoryPaths.temporaryDirectory(prefix: "groupwire-dissector")
        defer { try? FileManager.default.removeItem(at: folder) }
        let ana = ValidateToolTests.ana, ben = ValidateToolTests.ben
        var records = try ValidateToolTests.bensCapture([])
        let colors: [StrokeColor] = [.red, .blue, .green, .black]
        var time: UInt64 = 1_764_000_100_000_000_000
        for index in 0..<12 {
            let stroke = UpsertStroke(
                id: UUID(uuidString: String(format: "00000000-0000-4000-8000-%012d", index))!, color: colors[index % 4],
                point: Point(x: Double(index) * 1.5 - 4, y: -Double(index) / 4))
            let delivery =
                index % 3 == 0 ? DeliveryHeader(incarnation: 9, isReliable: true, sequence: UInt64(index / 3 + 1)) : nil
            let frame = try FrameEncoder().encode(
                Frame(
                    kind: .data, typeID: UInt64(UpsertStroke.wireTypeID), session: index > 5 ? 77 : nil,
                    delivery: delivery, body: stroke.wirePayload()))
            time += 1_000_000
            records.append(
                CaptureRecord(
                    timestamp: time, direction: .received, sessionID: index > 5 ? 77 : nil, local: ben, peer: ana,
                    room: "canvas", frame: frame))
        }
        // A compressed snapshot in fragments: shown raw by the dissector, decoded by inspect.
        var random = UInt64(7)
        func next() -> Double {
            random = random &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(random >> 40) / 1024
        }
        let strokes = (0..<30).map { index in
            Stroke(
                id: UUID(uuidString: String(format: "00000000-0000-4000-8000-%012d", 100 + index))!, color: .blue,
                points: (0..<100).map { _ in Point(x: next(), y: next()) })
        }
        let snapshot = CanvasSnapshot(strokes: strokes, pointCount: 3_000)
        let fragments = try SendPipeline(codec: try PayloadCompressor()).frames(
            typeID: UInt64(CanvasSnapshot.wireTypeID), payload: snapshot.wirePayload(), messageID: 3,
            profile: PeerProfile(compression: CompressionChoice(codec: 1), maxFrameSize: 4_000))
        #expect(fragments.count > 1)
        for frame in fragments {
            time += 1_000_000
            records.append(CaptureRecord(timestamp: time, direction: .sent, local: ben, peer: nil, room: "canvas", frame: frame))
        }
        let capture = folder.appendingPathComponent("c.pcapng").path
        try Data(CaptureWriter.pcapng(records)).write(to: URL(fileURLWithPath: capture))
        let lua = try Self.dissector([Self.v3, Self.v1], in: folder)

        let rows = try Self.fields(
            lua, capture,
            [
                "frame.number", "groupwire_capture.direction", "groupwire_capture.room", "groupwire.type", "groupwire.control",
                "groupwire.session", "groupwire.delivery.sequence", "groupwire.fragment.index", "groupwire.fragment.count",
                "groupwire.compression.content_size", "groupwire.UpsertStroke.id", "groupwire.UpsertStroke.color",
                "groupwire.Point.x",
                "groupwire.Point.y", "groupwire.crc32c",
            ])
        #expect(rows.count == records.count)
        var tool = InspectMessagesTool(
            path: capture, specPaths: [Self.v3, Self.v1].map { RepositoryPaths.root.appendingPathComponent($0).path })
        tool.types = ["UpsertStroke"]
        let inspected = tool.run()
        #expect(inspected.status == .ok, "\(inspected.messages)")
        let messages = try inspected.outputText.split(separator: "\n").map { try JSONParser().parse(Array($0.utf8)) }
        #expect(messages.count == 12)
        let caseNumbers = ["black": "0", "red": "1", "green": "2", "blue": "3", "yellow": "4"]
        for (index, record) in records.enumerated() {
            let row = rows[index]
            let frame = try FrameDecoder().decode(record.frame)
            #expect(row[0] == "\(index + 1)")
            #expect(row[1] == "\(record.direction.rawValue)" && row[2] == record.room)
            #expect(row[5] == (frame.session.map { "\($0)" } ?? ""), "frame \(index + 1) session")
            #expect(row[6] == (frame.delivery.map { "\($0.sequence)" } ?? ""), "frame \(index + 1) sequence")
            #expect(
                row[7] == (frame.fragment.map { "\($0.index)" } ?? "") && row[8] == (frame.fragment.map { "\($0.count)" } ?? ""))
            #expect(row[9] == (frame.compression.map { "\($0.contentSize)" } ?? ""))
            #expect(row[14] == String(format: "0x%08x", FrameHeaderFields(frameBytes: record.frame[...])!.crc32c))
            switch frame.kind {
            case .control:
                #expect(row[4] == "hello" && row[3] == "")
            case .fragment:
                #expect(row[3] == "CanvasSnapshot" && row[10] == "", "a compressed fragment's body is shown raw")
            default:
                #expect(row[3] == "UpsertStroke")
                // The same message as inspect decoded it, field by field.
                guard
                    let match = messages.first(where: {
                        if case .object(let o) = $0 { return o["frame"] == .number(JSONNumber(Int64(index + 1))) }; return false
                    }),
                    case .object(let object) = match, case .object(let value)? = object["value"],
                    case .string(let color)? = value["color"],
                    case .string(let id)? = value["id"], case .object(let point)? = value["point"]
                else {
                    Issue.record("inspect has no stroke at frame \(index + 1)")
                    continue
                }
                #expect(row[10].lowercased() == id.lowercased())
                // Case 0 (black) is the default, omitted on the wire: tshark shows nothing.
                #expect((row[11].isEmpty ? "0" : row[11]) == caseNumbers[color], "frame \(index + 1): \(row[11]) vs \(color)")
                // Canonical writing omits zero coordinates; inspect shows them as 0.
                for (column, axis) in [(12, "x"), (13, "y")] {
                    guard case .number(let number)? = point[axis] else { Issue.record("no \(axis)"); continue }
                    let shown = Double(row[column]) ?? 0
                    #expect(shown == number.double, "frame \(index + 1) \(axis): tshark \(row[column]), inspect \(number)")
                }
            }
        }
    }

    @Test func kitchenSinkArraysMapsUnionsAndScalars() throws {
        let folder = try RepositoryPaths.temporaryDirectory(prefix: "groupwire-dissector")
        defer { try? FileManager.default.removeItem(at: folder) }
        let specPath = RepositoryPaths.root.appendingPathComponent("Tests/Specs/KitchenSink.gwspec").path
        let spec = try SpecLoading.load(specPath).spec
        let json = """
            {"class":"top","renamed":-5,
             "nested":{"ints":[-1,2,-300],"doubles":[0.5,-2.25],"texts":["a","bé"],"moods":["serene",7],
                       "ids":["00000000-0000-4000-8000-0000000000AA"],"items":[{"i32":-9,"text":"in","hash64":81985529216486895}],
                       "hashes":[1,18446744073709551615],"tags":[7]},
             "maps":{"byName":{"a":-3,"b":4},"choices":{"k":{"text":"chosen"}},"byHash":{"5":"five"}},
             "optionals":{"choice":{"number":-12},"at":1500000000}}
            """
        let value = try JSONParser().parse(Array(json.utf8))
        let payload = try DynamicCodec(spec: spec).encode(value, as: "Awkward")
        let frame = try FrameEncoder().encode(Frame(kind: .data, typeID: 77, body: payload))
        let capture = folder.appendingPathComponent("k.pcapng").path
        try Data(
            CaptureWriter.pcapng([
                CaptureRecord(timestamp: 0, direction: .sent, local: ValidateToolTests.ana, peer: nil, frame: frame)
            ])
        )
        .write(to: URL(fileURLWithPath: capture))
        let lua = try Self.dissector(["Tests/Specs/KitchenSink.gwspec"], in: folder)
        let names = [
            "groupwire.type", "groupwire.Awkward.class", "groupwire.Awkward.renamed", "groupwire.Arrays.ints",
            "groupwire.Arrays.doubles",
            "groupwire.Arrays.texts", "groupwire.Arrays.moods", "groupwire.Arrays.ids", "groupwire.Scalars.i32",
            "groupwire.Scalars.text", "groupwire.Scalars.hash64", "groupwire.Arrays.hashes", "groupwire.Arrays.tags",
            "groupwire.Maps.byHash.key",
            "groupwire.Maps.byName.key", "groupwire.Maps.byName.value", "groupwire.Choice.text", "groupwire.Choice.number",
            "groupwire.Optionals.at", "groupwire.unknown_field", "groupwire.problem",
        ]
        let rows = try Self.fields(lua, capture, names)
        #expect(rows.count == 1)
        let row = Dictionary(uniqueKeysWithValues: zip(names, rows.first ?? []))
        #expect(row["groupwire.type"] == "Awkward")
        #expect(row["groupwire.Awkward.class"] == "top" && row["groupwire.Awkward.renamed"] == "-5")
        #expect(row["groupwire.Arrays.ints"] == "-1;2;-300")
        #expect(row["groupwire.Arrays.doubles"] == "0.5;-2.25")
        #expect(row["groupwire.Arrays.texts"] == "a;bé")
        #expect(row["groupwire.Arrays.moods"]?.split(separator: ";").count == 2)
        #expect(row["groupwire.Arrays.ids"] == "00000000-0000-4000-8000-0000000000aa")
        #expect(row["groupwire.Scalars.i32"] == "-9" && row["groupwire.Scalars.text"] == "in")
        // Fixed-width integers read little-endian, shown in hexadecimal.
        #expect(row["groupwire.Scalars.hash64"] == "0x0123456789abcdef")
        #expect(row["groupwire.Arrays.hashes"] == "0x0000000000000001;0xffffffffffffffff")
        #expect(row["groupwire.Arrays.tags"] == "0x00000007")
        #expect(row["groupwire.Maps.byHash.key"] == "0x0000000000000005")
        #expect(row["groupwire.Maps.byName.key"] == "a;b" && row["groupwire.Maps.byName.value"] == "-3;4")
        #expect(row["groupwire.Choice.text"] == "chosen" && row["groupwire.Choice.number"] == "-12")
        #expect(row["groupwire.Optionals.at"] == "1500000000")
        #expect(row["groupwire.unknown_field"] == "" && row["groupwire.problem"] == "", "every field known, nothing malformed")
    }
}
