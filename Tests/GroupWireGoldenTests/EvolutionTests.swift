import DrawTogetherV1Golden
import DrawTogetherV2Golden
import DrawTogetherV3Golden
import Foundation
import GroupWire
import GroupWireTestSupport
import Testing

/// Messages written by one version of DrawTogether decode in the others; fields an older
/// version does not know pass through it unchanged.
@Suite("Spec evolution across DrawTogether v1, v2 and v3")
struct EvolutionTests {
    static let v1Stroke = DrawTogetherV1Golden.UpsertStroke(
        id: exampleID, color: .green, point: DrawTogetherV1Golden.Point(x: 12.5, y: -3.25))

    @Test("A v1 message decodes in v2 and v3 with the new fields at their defaults, and back")
    func v1DecodesInLaterVersions() throws {
        let bytes = Self.v1Stroke.wirePayload()
        let v2 = try DrawTogetherV2Golden.UpsertStroke(wirePayload: bytes)
        #expect(v2.id == exampleID)
        #expect(v2.color == .green)
        #expect(v2.point == DrawTogetherV2Golden.Point(x: 12.5, y: -3.25))
        #expect(v2.width == 3)
        #expect(v2.drawnAt == nil)
        #expect(v2.unknownFields.isEmpty)
        #expect(v2.wirePayload() == bytes)
        let v3 = try DrawTogetherV3Golden.UpsertStroke(wirePayload: bytes)
        #expect(v3.width == 3)
        #expect(v3.pressure == nil)
        #expect(v3.wirePayload() == bytes)
        #expect(try DrawTogetherV1Golden.UpsertStroke(wirePayload: v3.wirePayload()) == Self.v1Stroke)
    }

    @Test("A v3 message passes through v1 unchanged, unknown fields and enum case included")
    func v3PassesThroughV1() throws {
        let v3 = DrawTogetherV3Golden.UpsertStroke(
            id: exampleID, color: .orange, point: DrawTogetherV3Golden.Point(x: 12.5, y: -3.25), width: 5, pressure: 0.5)
        let bytes = v3.wirePayload()
        #expect(Hex.string(Array(bytes.suffix(10))) == "250000a040350000003f")
        let v1 = try DrawTogetherV1Golden.UpsertStroke(wirePayload: bytes)
        #expect(v1.color == .unknown(6))
        #expect(try v1.unknownFields == Hex.bytes("25 0000a040 35 0000003f"))
        #expect(v1.wirePayload() == bytes)
        #expect(try DrawTogetherV3Golden.UpsertStroke(wirePayload: v1.wirePayload()) == v3)
    }

    @Test("A v2 timestamp survives v3, where its field number is reserved, as an unknown field")
    func removedFieldSurvivesAsUnknown() throws {
        let v2 = DrawTogetherV2Golden.UpsertStroke(id: exampleID, width: 2, drawnAt: Date(timeIntervalSince1970: 2))
        let bytes = v2.wirePayload()
        let v3 = try DrawTogetherV3Golden.UpsertStroke(wirePayload: bytes)
        #expect(v3.width == 2)
        #expect(try v3.unknownFields == Hex.bytes("29 00943577 00000000"))
        #expect(try DrawTogetherV2Golden.UpsertStroke(wirePayload: v3.wirePayload()) == v2)
    }

    @Test("A v3 snapshot with a map and stroke widths round-trips through v1 byte for byte")
    func snapshotPassesThroughV1() throws {
        let v3 = DrawTogetherV3Golden.CanvasSnapshot(
            strokes: [
                DrawTogetherV3Golden.Stroke(
                    id: exampleID, color: .purple, points: [DrawTogetherV3Golden.Point(x: 1, y: 2)], width: 7)
            ],
            pointCount: 1,
            authors: [exampleID: otherID])
        let bytes = v3.wirePayload()
        let v1 = try DrawTogetherV1Golden.CanvasSnapshot(wirePayload: bytes)
        #expect(v1.strokes.count == 1)
        #expect(v1.strokes[0].color == .unknown(5))
        #expect(try v1.strokes[0].unknownFields == Hex.bytes("25 0000e040"))
        #expect(v1.pointCount == 1)
        #expect(!v1.unknownFields.isEmpty)
        #expect(v1.wirePayload() == bytes)
        #expect(try DrawTogetherV3Golden.CanvasSnapshot(wirePayload: v1.wirePayload()) == v3)
    }
}
