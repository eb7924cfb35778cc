import Foundation
import GroupWireTesting
import Testing

@testable import GroupWire

@Suite struct WireCodableSizeTests {
    struct Stroke: Codable, Equatable {
        var id: UUID
        var width: Double
        var points: [Point]
    }

    @Test func aStrokeOfFullPrecisionPointsTakesAtMostHalfTheBytesOfJSON() throws {
        var rng = SeededRandom(seed: 99)
        var x = 100.0, y = 200.0
        let points = (0..<50).map { _ in
            x += Double.random(in: -3...3, using: &rng)
            y += Double.random(in: -3...3, using: &rng)
            return Point(x: x, y: y)
        }
        let stroke = Stroke(id: UUID(), width: 2.5, points: points)
        let wire = try WireEncoder().encode(stroke)
        let json = try JSONEncoder().encode(stroke)
        // Wire type and 2-byte length; id; width (2.5, exact as a Float: 4 bytes); points:
        // header, key, 2-byte length, count, and per point an element byte, a length and two
        // entries of header + key + 8 bytes.
        #expect(wire.count == 3 + (1 + 2 + 16) + (1 + 5 + 4) + (1 + 6 + 2) + (1 + 50 * 22))
        #expect(wire.count * 2 <= json.count, "wire \(wire.count) B, JSON \(json.count) B")
        #expect(try WireDecoder().decode(Stroke.self, from: wire) == stroke)
    }
}
