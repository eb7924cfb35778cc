import Foundation
import GroupWire

/// Sample frames for the frame-file and inspection tests: example messages encoded by hand
/// with `PayloadWriter`, so these tests do not depend on the demo or on generated code. Field numbers match the example
/// specs (Spec/Examples/DrawTogether.gwspec, WatchTogether):
///
/// - `UpsertStroke` (type id 1): `1 id: UUID`, `2 color: StrokeColor` (an enum, written as
///   a varint: 0 black, 1 red, 2 green, 3 blue, 4 yellow), `3 point: Point` where
///   `Point` is `{1 x: Float64, 2 y: Float64}`.
/// - `CanvasSnapshot` (type id 2): `1 strokes: [Stroke]` (one LEN field per stroke) where
///   `Stroke` is `{1 id: UUID, 2 color: StrokeColor, 3 points: [Point]}`, and
///   `2 pointCount: UInt64`.
/// - `PlaybackState` (type id 10): `1 title: String`, `2 contentID: UUID`,
///   `3 position: Float64` (seconds), `4 rate: Float64`, `5 isPlaying: Bool`.
///
/// Values are fixed, so the bytes are is the same on every run.
enum SampleFrames {
    /// The type id of `UpsertStroke`.
    static let upsertStrokeTypeID: UInt64 = 1
    /// The type id of `CanvasSnapshot`.
    static let canvasSnapshotTypeID: UInt64 = 2
    /// The type id of `PlaybackState`.
    static let playbackStateTypeID: UInt64 = 10

    /// The first demo stroke's id.
    static let strokeID = UUID(
        uuid: (
            0x6B, 0xA7, 0xB8, 0x10, 0x9D, 0xAD, 0x11, 0xD1,
            0x80, 0xB4, 0x00, 0xC0, 0x4F, 0xD4, 0x30, 0xC8
        ))
    /// The second demo stroke's id.
    static let secondStrokeID = UUID(
        uuid: (
            0x1E, 0x29, 0x6A, 0x5F, 0x4C, 0x3B, 0x4E, 0x21,
            0x9A, 0x7D, 0x2B, 0x8C, 0x61, 0x0F, 0x55, 0xE3
        ))
    /// The demo movie's content id.
    static let contentID = UUID(
        uuid: (
            0xC0, 0xFF, 0xEE, 0x00, 0x12, 0x34, 0x45, 0x67,
            0x89, 0xAB, 0xCD, 0xEF, 0x01, 0x23, 0x45, 0x67
        ))

    /// The demo frames, each with a one-line description.
    static var frames: [(frame: Frame, comment: String)] {
        [
            (
                Frame(typeID: upsertStrokeTypeID, body: upsertStroke()),
                "UpsertStroke (type 1): red stroke, point (10.5, 20.25)"
            ),
            (
                Frame(typeID: canvasSnapshotTypeID, body: canvasSnapshot()),
                "CanvasSnapshot (type 2): 2 strokes, 3 points"
            ),
            (
                Frame(typeID: playbackStateTypeID, body: playbackState()),
                "PlaybackState (type 10): \"Movie night\" playing at 42.5 s"
            ),
        ]
    }

    /// `UpsertStroke { id: strokeID, color: red, point: (10.5, 20.25) }`.
    static func upsertStroke() -> [UInt8] {
        var writer = PayloadWriter()
        writer.writeUUID(1, strokeID)
        writer.writeUInt(2, 1)
        writer.writeNested(3) { point(&$0, x: 10.5, y: 20.25) }
        return writer.bytes
    }

    /// A snapshot of two strokes: a red one with two points, a blue one with one.
    static func canvasSnapshot() -> [UInt8] {
        var writer = PayloadWriter()
        writer.writeNested(1) { stroke in
            stroke.writeUUID(1, strokeID)
            stroke.writeUInt(2, 1)
            stroke.writeNested(3) { point(&$0, x: 10.5, y: 20.25) }
            stroke.writeNested(3) { point(&$0, x: 11, y: 21.5) }
        }
        writer.writeNested(1) { stroke in
            stroke.writeUUID(1, secondStrokeID)
            stroke.writeUInt(2, 3)
            stroke.writeNested(3) { point(&$0, x: -4, y: 0.125) }
        }
        writer.writeUInt(2, 3)
        return writer.bytes
    }

    /// `PlaybackState { title: "Movie night", contentID, position: 42.5, rate: 1, isPlaying: true }`.
    static func playbackState() -> [UInt8] {
        var writer = PayloadWriter()
        writer.writeString(1, "Movie night")
        writer.writeUUID(2, contentID)
        writer.writeDouble(3, 42.5)
        writer.writeDouble(4, 1)
        writer.writeBool(5, true)
        return writer.bytes
    }

    private static func point(_ writer: inout PayloadWriter, x: Double, y: Double) {
        writer.writeDouble(1, x)
        writer.writeDouble(2, y)
    }
}
