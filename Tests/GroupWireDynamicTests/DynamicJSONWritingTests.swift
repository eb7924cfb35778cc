import GroupWire
import GroupWireDynamic
import GroupWireJSON
import GroupWireTestSupport
import GroupWireTesting
import Testing

/// ``DynamicCodec/writeJSON(_:as:writer:indent:emit:)`` writes, in pieces, exactly the text
/// of ``DynamicCodec/decode(_:as:)``'s value, and fails as it fails, before writing anything.
@Suite struct DynamicJSONWritingTests {
    static func written(_ codec: DynamicCodec, _ payload: [UInt8], as type: String, writer: JSONWriter, indent: Int = 0)
        throws(WireError) -> (text: [UInt8], pieces: Int)
    {
        var text: [UInt8] = []
        var pieces = 0
        try codec.writeJSON(payload, as: type, writer: writer, indent: indent) { piece in
            text += piece
            pieces += 1
        }
        return (text, pieces)
    }

    @Test func mutatedPayloadsAreWrittenAsTheyDecodeOrFailAlike() throws {
        let codec = DynamicCodec(spec: try TestSpecs.everything(), options: .init(keepsUnknownFields: true))
        var random = SeededRandom(seed: 0xF0_2203)
        var compared = 0
        for round in 0..<2000 {
            var bytes = try Hex.bytes(DynamicCodecRobustnessTests.seeds[round % DynamicCodecRobustnessTests.seeds.count])
            for _ in 0..<Int.random(in: 0...3, using: &random) where !bytes.isEmpty {
                let index = Int.random(in: 0..<bytes.count, using: &random)
                bytes[index] = UInt8.random(in: 0...255, using: &random)
            }
            let decoded: Result<JSONValue, WireError>
            do throws(WireError) { decoded = .success(try codec.decode(bytes, as: "Everything")) } catch {
                decoded = .failure(error)
            }
            for writer in [JSONWriter(), JSONWriter(prettyPrinted: true)] {
                switch decoded {
                case .success(let value):
                    #expect(
                        try Self.written(codec, bytes, as: "Everything", writer: writer).text == writer.bytes(value),
                        "input \(Hex.string(bytes))")
                    compared += 1
                case .failure(let expected):
                    var emitted = 0
                    do throws(WireError) {
                        try codec.writeJSON(bytes, as: "Everything", writer: writer) { _ in emitted += 1 }
                        Issue.record("written although decoding fails: \(Hex.string(bytes))")
                    } catch {
                        #expect(error.kind == expected.kind && error.offset == expected.offset && emitted == 0)
                    }
                }
            }
        }
        #expect(compared > 200)
    }

    @Test func aLargeSnapshotIsWrittenInPiecesAndNestsAtItsIndent() throws {
        let codec = DynamicCodec(spec: try TestSpecs.example("DrawTogether.gwspec"))
        // One stroke of 20,000 points with coordinates, then an empty stroke.
        var points: [JSONValue] = []
        for index in 0..<20_000 {
            points.append(["x": .number(JSONNumber(Int64(index))), "y": .number(try #require(JSONNumber(-2.5)))])
        }
        let value: JSONValue = [
            "pointCount": .number(JSONNumber(Int64(20_000))),
            "strokes": .array([
                ["id": "00000000-0000-4000-8000-000000000001", "color": "red", "points": .array(points)],
                ["id": "00000000-0000-4000-8000-000000000002", "color": "blue", "points": .array([])],
            ]),
        ]
        let payload = try codec.encode(value, as: "CanvasSnapshot")
        let compact = JSONWriter()
        let (text, pieces) = try Self.written(codec, payload, as: "CanvasSnapshot", writer: compact)
        #expect(text == compact.bytes(try codec.decode(payload, as: "CanvasSnapshot")))
        #expect(pieces > 3, "about 64 KiB a piece: \(text.count) bytes in \(pieces)")
        // Inside a document, one level deep, it reads as the whole document would.
        let pretty = JSONWriter(prettyPrinted: true)
        let inner = try Self.written(codec, payload, as: "CanvasSnapshot", writer: pretty, indent: 1).text
        let whole = pretty.bytes(["value": try codec.decode(payload, as: "CanvasSnapshot")])
        #expect(Array("{\n  \"value\": ".utf8) + inner + Array("\n}".utf8) == whole)
    }
}
