import Foundation
import GroupWireExamples
import GroupWireTesting

/// DrawTogether version 1, the older app version (Spec/Examples/DrawTogether.gwspec).
enum CanvasVersion1: ParticipantCanvas {
    static let version: UInt64 = 1

    static func stroke(_ index: Int, by painter: UInt8) -> UpsertStroke {
        UpsertStroke(
            id: UUID(uuid: (painter, 0, 0, 0, 0, 0, 0x40, 0, 0x80, 0, 0, 0, 0, 0, 0, 0)),
            color: .green, point: Point(x: Double(index), y: Double(painter)))
    }

    static func index(of stroke: UpsertStroke) -> Int { Int(exactly: stroke.point.x) ?? -1 }

    static func canvas(strokes: Int, seed: UInt64) -> CanvasSnapshot {
        var random = SeededRandom(seed: seed)
        return CanvasSnapshot(
            strokes: (0..<strokes).map { index in
                Stroke(
                    id: random.uuid(), color: index.isMultiple(of: 2) ? .blue : .red,
                    points: (0..<200).map { step in
                        Point(x: quarter(Double(step) + random.unit()), y: quarter(random.unit() * 800))
                    })
            }, pointCount: UInt64(strokes * 200))
    }

    static func points(in snapshot: CanvasSnapshot) -> UInt64 { snapshot.pointCount }

    /// To a quarter point, the precision of touch input.
    private static func quarter(_ value: Double) -> Double { (value * 4).rounded() / 4 }
}
