import DrawTogetherV1Golden
import Foundation
import GroupWire
import GroupWireTestSupport
import Testing

/// Exercises the compiled golden Swift of DrawTogether v1 against hand-computed bytes.
@Suite("Generated DrawTogether v1 types")
struct DrawTogetherGoldenTests {
    /// The FORMAT.md payload example, byte for byte.
    static var upsertBytes: [UInt8] {
        get throws {
            try Hex.bytes(
                """
                0a 10 6f1c2a9e4b7d4e0f8a3b5c6d7e8f9a0b
                10 02
                1a 12 09 0000000000002940 11 0000000000000ac0
                """)
        }
    }

    @Test("UpsertStroke encodes to the FORMAT.md example bytes and decodes back to the same value")
    func upsertStrokeMatchesFormatExample() throws {
        let stroke = UpsertStroke(id: exampleID, color: .green, point: Point(x: 12.5, y: -3.25))
        let upsertBytes = try Self.upsertBytes
        #expect(Hex.string(stroke.wirePayload()) == Hex.string(upsertBytes))
        #expect(stroke.wireSize == upsertBytes.count)
        let decoded = try UpsertStroke(wirePayload: upsertBytes)
        #expect(decoded == stroke)
        #expect(decoded.unknownFields.isEmpty)
    }

    @Test("A default UpsertStroke writes only its always-present nested point")
    func defaultUpsertStrokeWritesOnlyTheNestedPoint() throws {
        #expect(UpsertStroke().wirePayload() == [0x1A, 0x00])
        #expect(try UpsertStroke(wirePayload: []) == UpsertStroke())
    }

    @Test("Negative zero is written because defaults compare by bit pattern")
    func negativeZeroIsWritten() throws {
        let point = Point(x: -0.0, y: 0)
        #expect(try point.wirePayload() == Hex.bytes("09 0000000000000080"))
        let decoded = try Point(wirePayload: point.wirePayload())
        #expect(decoded.x.sign == .minus)
    }

    @Test("CanvasSnapshot nests strokes and points and sizes them exactly")
    func canvasSnapshotBytes() throws {
        let snapshot = CanvasSnapshot(
            strokes: [Stroke(color: .black, points: [Point(x: 1, y: 0)])],
            pointCount: 1)
        // stroke: field 3 point {field 1 = 1.0}; id and colour are defaults and left out.
        let expected = try Hex.bytes("0a 0b 1a 09 09 000000000000f03f 10 01")
        #expect(Hex.string(snapshot.wirePayload()) == Hex.string(expected))
        #expect(snapshot.wireSize == expected.count)
        #expect(try CanvasSnapshot(wirePayload: expected) == snapshot)
    }

    @Test("A large snapshot with 200 strokes of 50 points round-trips with an exact size")
    func largeSnapshotRoundTrips() throws {
        let strokes = (0..<200).map { index in
            Stroke(id: exampleID, color: .blue, points: (0..<50).map { Point(x: Double($0), y: Double(index)) })
        }
        let snapshot = CanvasSnapshot(strokes: strokes, pointCount: 10_000)
        let bytes = snapshot.wirePayload()
        #expect(bytes.count == snapshot.wireSize)
        #expect(try CanvasSnapshot(wirePayload: bytes) == snapshot)
    }

    @Test("An enum number this version does not know is kept and written back")
    func unknownEnumCaseRoundTrips() throws {
        let bytes = try Hex.bytes("10 06")  // color = 6 (orange in v3)
        let decoded = try UpsertStroke(wirePayload: bytes + [0x1A, 0x00])
        #expect(decoded.color == .unknown(6))
        #expect(decoded.color.rawValue == 6)
        #expect(decoded.wirePayload() == bytes + [0x1A, 0x00])
        #expect(StrokeColor(rawValue: 2) == .green)
        #expect(StrokeColor.unknown(2) == .green)
    }

    @Test("A field with the wrong wire type is rejected as typeMismatch")
    func wrongWireTypeIsRejected() throws {
        // field 2 (color) sent as fixed64.
        let bytes = try Hex.bytes("11 0000000000000000")
        #expect(throws: WireError.self) { try UpsertStroke(wirePayload: bytes) }
        do {
            _ = try UpsertStroke(wirePayload: bytes)
        } catch {
            #expect(error.kind == .typeMismatch)
        }
    }

    @Test("A truncated nested point is rejected as truncated")
    func truncatedInputIsRejected() throws {
        let truncated = Array(try Self.upsertBytes.dropLast(3))
        do {
            _ = try UpsertStroke(wirePayload: truncated)
            Issue.record("decoding a truncated payload succeeded")
        } catch {
            #expect(error.kind == .truncated)
        }
    }

    @Test("Messages travel in frames and come back through a registry")
    func framesAndRegistry() throws {
        let stroke = UpsertStroke(id: exampleID, color: .red, point: Point(x: 1, y: 2))
        let frameBytes = try stroke.wireFrame()
        let frame = try FrameDecoder().decode(frameBytes)
        #expect(frame.typeID == UpsertStroke.wireTypeID)
        let registry = try MessageRegistry([UpsertStroke.self, CanvasSnapshot.self])
        let decoded = try registry.decode(frame)
        #expect(decoded as? UpsertStroke == stroke)
        #expect(UpsertStroke.wireTypeName == "UpsertStroke")
        #expect(CanvasSnapshot.wireTypeID == 2)
    }

    @Test("JSON uses field names, case names and UUID strings, and round-trips")
    func jsonRoundTrip() throws {
        let stroke = UpsertStroke(id: exampleID, color: .green, point: Point(x: 12.5, y: -3.25))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let json = String(decoding: try encoder.encode(stroke), as: UTF8.self)
        #expect(json == #"{"color":"green","id":"6F1C2A9E-4B7D-4E0F-8A3B-5C6D7E8F9A0B","point":{"x":12.5,"y":-3.25}}"#)
        #expect(try JSONDecoder().decode(UpsertStroke.self, from: Data(json.utf8)) == stroke)
        let sparse = try JSONDecoder().decode(UpsertStroke.self, from: Data(#"{"color":7}"#.utf8))
        #expect(sparse == UpsertStroke(color: .unknown(7)))
    }

    @Test("A nested field running past its nested length is rejected as truncated at that field's value")
    func nestedFieldPastItsEnd() throws {
        // point (field 3) claims 2 bytes, but its x (fixed64, value at offset 3) needs 8
        // after its key: the value is cut by the nested end, not read into what follows.
        let bytes = try Hex.bytes("1a 02 09 0000000000002940")
        do {
            _ = try UpsertStroke(wirePayload: bytes)
            Issue.record("decoding a straddling nested field succeeded")
        } catch {
            #expect(error.kind == .truncated)
            #expect(error.offset == 3)
        }
    }

    @Test("Nesting deeper than maxNestingDepth is rejected as depthExceeded")
    func nestingDepthIsLimited() throws {
        let snapshot = CanvasSnapshot(strokes: [Stroke(points: [Point(x: 1, y: 1)])], pointCount: 1)
        var shallow = Limits.default
        shallow.maxNestingDepth = 2
        #expect(try CanvasSnapshot(wirePayload: snapshot.wirePayload(), limits: shallow) == snapshot)
        shallow.maxNestingDepth = 1
        do {
            _ = try CanvasSnapshot(wirePayload: snapshot.wirePayload(), limits: shallow)
            Issue.record("decoding past maxNestingDepth succeeded")
        } catch {
            #expect(error.kind == .depthExceeded)
        }
    }

    @Test("Non-ASCII and invalid UTF-8 strings are validated")
    func stringValidation() throws {
        #expect(try Stroke(wirePayload: Hex.bytes("0a 10 6f1c2a9e4b7d4e0f8a3b5c6d7e8f9a0b")).id == exampleID)
        let shortID = try Hex.bytes("0a 0f 6f1c2a9e4b7d4e0f8a3b5c6d7e8f9a")
        #expect(throws: WireError.self) { try Stroke(wirePayload: shortID) }
    }

    @Test("The spec's message enum wraps each of its messages, refuses others, and registers them all")
    func messageSet() throws {
        let stroke = UpsertStroke(id: exampleID, color: .red, point: Point(x: 1, y: 2))
        let snapshot = CanvasSnapshot(strokes: [], pointCount: 0)
        #expect(DrawTogetherMessage(stroke) == .upsertStroke(stroke))
        #expect(DrawTogetherMessage(snapshot) == .canvasSnapshot(snapshot))
        #expect(DrawTogetherMessage(stroke)?.message as? UpsertStroke == stroke)
        #expect(DrawTogetherMessage(Other(text: "x")) == nil)
        #expect(DrawTogetherMessage.messageTypes.map { $0.wireTypeID } == [1, 2])
        #expect(try DrawTogetherMessage.registry().typeIDs == [1, 2])
    }
}

/// A message that belongs to no spec.
private struct Other: CodableMessage {
    static let wireTypeID: UInt64 = 500
    var text: String
}
