import Foundation
import GroupWire
import GroupWireCompression
import GroupWireExamples
import GroupWireSession
import GroupWireTesting

/// The messages `groupwire demo` writes, built with the types the build plugin generates
/// from Spec/Examples (DrawTogether.gwspec, WatchTogether.gwspec), so their payloads always
/// match the specs:
///
/// 1. an `UpsertStroke` (type id 1), a data frame;
/// 2. a small `CanvasSnapshot` (type id 2) of three strokes, a data frame;
/// 3. a `PlaybackState` (type id 10), a data frame;
/// 4. a large `CanvasSnapshot` (``largeStrokeCount`` strokes of ``largePointsPerStroke``
///    points), compressed with zstd (default policy, no dictionary) and, because it is still
///    larger than one frame, cut into compressed fragment frames: all four through the
///    messenger's sending path (`SendPipeline`, zstd codec, default profile).
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
        var generator = SeededRandom(seed: seed)
        return UpsertStroke(id: generator.uuid(), color: .red, point: Point(x: 10.5, y: 20.25))
    }

    /// The small `CanvasSnapshot`: three strokes of neighbouring points (4, 3 and 2 points).
    package static func canvasSnapshot() -> CanvasSnapshot {
        var generator = SeededRandom(seed: seed &+ 1)  // safe because: wrapping is intended, any seed works.
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
        var generator = SeededRandom(seed: seed &+ 2)  // safe because: wrapping is intended, any seed works.
        let colors: [StrokeColor] = [.black, .red, .green, .blue, .yellow]
        let strokes = (0..<largeStrokeCount).map { index in
            let start = Point(x: generator.unit() * 1000, y: generator.unit() * 800)
            return stroke(
                &generator, color: colors[index % colors.count], start: start,
                pointCount: largePointsPerStroke, roundedTo: nil)
        }
        return CanvasSnapshot(strokes: strokes, pointCount: UInt64(largeStrokeCount * largePointsPerStroke))
    }

    /// The demo frames in file order, each with a one-line description.
    /// - Parameter limits: the limits the frames must fit (the fragment size follows
    ///   `maxFrameSize`).
    /// - Throws: when zstd cannot be set up or a frame cannot be built.
    package static func frames(limits: Limits = .default) throws -> [(frame: Frame, comment: String)] {
        // The messenger's own sending path, with the zstd codec and the default profile.
        let codec = try PayloadCompressor(limits: limits)
        let pipeline = SendPipeline(codec: codec)
        let profile = PeerProfile.default(codec: codec, limits: limits)
        let decoder = FrameDecoder(limits: limits)
        let small = canvasSnapshot()
        let large = largeCanvasSnapshot()
        let messages: [(message: any WireMessage, messageID: UInt64, comment: String)] = [
            (upsertStroke(), 0, "UpsertStroke (type 1): red stroke, point (10.5, 20.25)"),
            (small, 0, "CanvasSnapshot (type 2): \(small.strokes.count) strokes, \(small.pointCount) points"),
            (playbackState(), 0, "PlaybackState (type 10): \"Movie night\" playing at 42.5 s"),
            (
                large, largeMessageID,
                "CanvasSnapshot (type 2): \(largeStrokeCount) strokes, \(largeStrokeCount * largePointsPerStroke) points, "
            ),
        ]
        var frames: [(frame: Frame, comment: String)] = []
        for (message, messageID, comment) in messages {
            let payload = message.wirePayload()
            let pieces = try pipeline.frames(
                typeID: type(of: message).wireTypeID, payload: payload, messageID: messageID, profile: profile
            ).map { try decoder.decode($0) }
            let body = pieces.reduce(0) { $0 + $1.body.count }
            for (index, frame) in pieces.enumerated() {
                let compressed = frame.compression == nil ? "" : "\(payload.count) bytes compressed to \(body)"
                let part = pieces.count == 1 ? "" : ", fragment \(index + 1) of \(pieces.count)"
                frames.append((frame, comment + compressed + part))
            }
        }
        return frames
    }

    /// A stroke of `pointCount` neighbouring points from `start`, each a small step from
    /// the last (rounded to a multiple of `roundedTo` when given).
    private static func stroke(
        _ generator: inout SeededRandom, color: StrokeColor, start: Point, pointCount: Int, roundedTo step: Double?
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
