import Foundation
import GroupWire
import GroupWireCompression
import GroupWireExamples

/// The messages `groupwire demo` writes, built with the types the build plugin generates
/// from Spec/Examples (DrawTogether.gwspec, WatchTogether.gwspec), so their payloads always
/// match the specs:
///
/// 1. an `UpsertStroke` (type id 1), a data frame;
/// 2. a small `CanvasSnapshot` (type id 2) of three strokes, a data frame;
/// 3. a `PlaybackState` (type id 10), a data frame;
/// 4. a large `CanvasSnapshot` (``largeStrokeCount`` strokes of ``largePointsPerStroke``
///    points), compressed with zstd (default policy, no dictionary) and, because it is still
///    larger than one frame, cut into compressed fragment frames by `Fragmenter`.
///
/// Every value comes from fixed constants and a seeded generator, so the demo file is the
/// same on every run.
package enum DemoMessages {
    /// Strokes in the large snapshot.
    package static let largeStrokeCount = 200
    /// Points per stroke in the large snapshot.
    package static let largePointsPerStroke = 50
    /// The message id of the large snapshot's fragments.
    package static let largeMessageID: UInt64 = 1
    /// The seed of the generator behind every stroke id and point.
    package static let seed: UInt64 = 0x6772_6F75_7077_6972  // "groupwir"

    /// The demo movie's content id.
    package static let contentID = UUID(
        uuid: (
            0xC0, 0xFF, 0xEE, 0x00, 0x12, 0x34, 0x45, 0x67,
            0x89, 0xAB, 0xCD, 0xEF, 0x01, 0x23, 0x45, 0x67
        ))

    /// The `UpsertStroke`: a red stroke's first point, (10.5, 20.25).
    package static func upsertStroke() -> UpsertStroke {
        var generator = DemoRandom(seed: seed)
        return UpsertStroke(id: generator.uuid(), color: .red, point: Point(x: 10.5, y: 20.25))
    }

    /// The small `CanvasSnapshot`: three strokes of neighbouring points (4, 3 and 2 points).
    package static func canvasSnapshot() -> CanvasSnapshot {
        var generator = DemoRandom(seed: seed &+ 1)  // safe because: wrapping is intended, any seed works.
        let strokes = [
            stroke(&generator, color: .red, start: Point(x: 10.5, y: 20.25), pointCount: 4, roundedTo: 0.25),
            stroke(&generator, color: .blue, start: Point(x: 200, y: 120), pointCount: 3, roundedTo: 0.25),
            stroke(&generator, color: .green, start: Point(x: -4, y: 0.125), pointCount: 2, roundedTo: 0.25),
        ]
        return CanvasSnapshot(strokes: strokes, pointCount: UInt64(strokes.reduce(0) { $0 + $1.points.count }))
    }

    /// The `PlaybackState`: "Movie night" playing at 42.5 s, started by Ada.
    package static func playbackState() -> PlaybackState {
        PlaybackState(
            stateID: UUID(uuid: (0x5E, 0x1F, 0, 0, 0, 0, 0x40, 0, 0x80, 0, 0, 0, 0, 0, 0, 0x0A)),
            title: "Movie night",
            contentID: contentID,
            position: 42.5,
            rate: 1,
            isPlaying: true,
            event: .play,
            changedBy: ParticipantRef(
                id: UUID(uuid: (0xAD, 0xA0, 0, 0, 0, 0, 0x40, 0, 0x80, 0, 0, 0, 0, 0, 0, 0x01)), displayName: "Ada"),
            changedAt: Date(timeIntervalSince1970: 1_800_000_000),
            source: .catalog(CatalogItem(contentID: contentID)),
            metadata: ["room": "living room"])
    }

    /// The large `CanvasSnapshot`: ``largeStrokeCount`` strokes of ``largePointsPerStroke``
    /// neighbouring points each, at full `Double` precision (so zstd cannot shrink it to
    /// one frame).
    package static func largeCanvasSnapshot() -> CanvasSnapshot {
        var generator = DemoRandom(seed: seed &+ 2)  // safe because: wrapping is intended, any seed works.
        let colors: [StrokeColor] = [.black, .red, .green, .blue, .yellow]
        let strokes = (0..<largeStrokeCount).map { index in
            let start = Point(x: generator.unit() * 1000, y: generator.unit() * 800)
            return stroke(&generator, color: colors[index % colors.count], start: start,
                          pointCount: largePointsPerStroke, roundedTo: nil)
        }
        return CanvasSnapshot(strokes: strokes, pointCount: UInt64(largeStrokeCount * largePointsPerStroke))
    }

    /// The demo frames in file order, each with a one-line description.
    /// - Parameter limits: the limits the frames must fit (the fragment size follows
    ///   `maxFrameSize`).
    /// - Throws: when zstd cannot be set up or a frame cannot be built.
    package static func frames(limits: Limits = .default) throws -> [(frame: Frame, comment: String)] {
        let small = canvasSnapshot()
        var frames: [(frame: Frame, comment: String)] = [
            (
                Frame(typeID: UpsertStroke.wireTypeID, body: upsertStroke().wirePayload()),
                "UpsertStroke (type 1): red stroke, point (10.5, 20.25)"
            ),
            (
                Frame(typeID: CanvasSnapshot.wireTypeID, body: small.wirePayload()),
                "CanvasSnapshot (type 2): \(small.strokes.count) strokes, \(small.pointCount) points"
            ),
            (
                Frame(typeID: PlaybackState.wireTypeID, body: playbackState().wirePayload()),
                "PlaybackState (type 10): \"Movie night\" playing at 42.5 s"
            ),
        ]
        let payload = largeCanvasSnapshot().wirePayload()
        let compressed = try PayloadCompressor(limits: limits).makeFrame(typeID: CanvasSnapshot.wireTypeID, payload: payload)
        let description = "CanvasSnapshot (type 2): \(largeStrokeCount) strokes, \(largeStrokeCount * largePointsPerStroke) points, "
            + "\(payload.count) bytes compressed to \(compressed.body.count)"
        let pieces = try Fragmenter(limits: limits).frames(
            typeID: compressed.typeID, messageID: largeMessageID, compression: compressed.compression, body: compressed.body)
        let decoder = FrameDecoder(limits: limits)
        for (index, bytes) in pieces.enumerated() {
            let frame = try decoder.decode(bytes)
            let part = pieces.count == 1 ? "" : ", fragment \(index + 1) of \(pieces.count)"
            frames.append((frame, description + part))
        }
        return frames
    }

    /// A stroke of `pointCount` neighbouring points from `start`, each a small step from
    /// the last (rounded to a multiple of `roundedTo` when given).
    private static func stroke(
        _ generator: inout DemoRandom, color: StrokeColor, start: Point, pointCount: Int, roundedTo step: Double?
    ) -> Stroke {
        let id = generator.uuid()
        var points = [start]
        var last = start
        while points.count < pointCount {
            var x = last.x + (generator.unit() * 6 - 3)
            var y = last.y + (generator.unit() * 6 - 3)
            if let step {
                x = (x / step).rounded() * step
                y = (y / step).rounded() * step
            }
            last = Point(x: x, y: y)
            points.append(last)
        }
        return Stroke(id: id, color: color, points: points)
    }
}

/// SplitMix64: a small seeded generator, so the demo values are the same on every run and
/// every platform (the standard library's generator is not seedable).
struct DemoRandom {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state = state &+ 0x9E37_79B9_7F4A_7C15  // safe because: SplitMix64 is defined modulo 2^64.
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9  // safe because: defined modulo 2^64.
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB  // safe because: defined modulo 2^64.
        return z ^ (z >> 31)
    }

    /// A value in [0, 1) with 53 random bits.
    mutating func unit() -> Double {
        Double(next() >> 11) / Double(UInt64(1) << 53)
    }

    /// A version 4 UUID.
    mutating func uuid() -> UUID {
        let high = next()
        let low = next()
        var bytes = (0..<8).map { UInt8(truncatingIfNeeded: high >> (8 * $0)) }
            + (0..<8).map { UInt8(truncatingIfNeeded: low >> (8 * $0)) }
        bytes[6] = bytes[6] & 0x0F | 0x40
        bytes[8] = bytes[8] & 0x3F | 0x80
        return UUID(uuid: (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                           bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
    }
}
