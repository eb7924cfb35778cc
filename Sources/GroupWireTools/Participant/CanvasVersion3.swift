import Foundation
import GroupWireExamplesV3
import GroupWireTesting

/// DrawTogether version 3, the current app version (Spec/Examples/Versions/DrawTogether-v3.gwspec):
/// strokes with width and pressure, snapshots that name each stroke's author.
enum CanvasVersion3: ParticipantCanvas {
    static let version: UInt64 = 3

    static func stroke(_ index: Int, by painter: UInt8) -> UpsertStroke {
        UpsertStroke(
            id: UUID(uuid: (painter, 0, 0, 0, 0, 0, 0x40, 0, 0x80, 0, 0, 0, 0, 0, 0, 0)),
            color: .orange, point: Point(x: Double(index), y: Double(painter)), width: 4, pressure: 0.5)
    }

    static func index(of stroke: UpsertStroke) -> Int { Int(exactly: stroke.point.x) ?? -1 }

    static func canvas(strokes: Int, seed: UInt64) -> CanvasSnapshot {
        var random = SeededRandom(seed: seed)
        let author = random.uuid()
        let all = (0..<strokes).map { index in
            Stroke(
                id: random.uuid(), color: index.isMultiple(of: 2) ? .purple : .red,
                points: (0..<200).map { step in Point(x: quarter(Double(step) + random.unit()), y: quarter(random.unit() * 800)) }
            )
        }
        return CanvasSnapshot(
            strokes: all, pointCount: UInt64(strokes * 200),
            authors: Dictionary(uniqueKeysWithValues: all.map { ($0.id, author) }))
    }

    static func points(in snapshot: CanvasSnapshot) -> UInt64 { snapshot.pointCount }

    /// To a quarter point, the precision of touch input.
    private static func quarter(_ value: Double) -> Double { (value * 4).rounded() / 4 }
}
