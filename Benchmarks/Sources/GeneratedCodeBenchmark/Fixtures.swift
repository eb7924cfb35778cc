import Foundation
import GroupWire

/// The three benchmark messages, built once in both representations from the same data.
struct Fixtures {
    let upsert: UpsertStroke
    let upsertProto: Groupwire_Bench_UpsertStroke
    let canvas: CanvasSnapshot
    let canvasProto: Groupwire_Bench_CanvasSnapshot
    let playback: PlaybackState
    let playbackProto: Groupwire_Bench_PlaybackState

    init(seed: UInt64) {
        var random = SplitMix64(seed: seed)

        let strokeID = random.uuid()
        upsert = UpsertStroke(id: strokeID, color: .blue, point: Point(x: 412.75, y: 1093.5))
        var upsertProto = Groupwire_Bench_UpsertStroke()
        upsertProto.id = Data(strokeID.bytes)
        upsertProto.color = .blue
        upsertProto.point = .with { $0.x = 412.75; $0.y = 1093.5 }
        self.upsertProto = upsertProto

        // 200 strokes of 50 neighbouring points: each point a small step from the last, at
        // the quarter-point resolution touch input has.
        var strokes: [Stroke] = []
        var protoStrokes: [Groupwire_Bench_Stroke] = []
        for index in 0..<200 {
            let id = random.uuid()
            let color = StrokeColor(rawValue: UInt32(index % 5))
            var x = Double(random.next() % 4000) / 4
            var y = Double(random.next() % 8000) / 4
            var points: [Point] = []
            var protoStroke = Groupwire_Bench_Stroke()
            protoStroke.id = Data(id.bytes)
            protoStroke.color = Groupwire_Bench_StrokeColor(rawValue: index % 5) ?? .black
            for _ in 0..<50 {
                x += Double(Int(random.next() % 17) - 8) / 4
                y += Double(Int(random.next() % 17) - 8) / 4
                points.append(Point(x: x, y: y))
                protoStroke.points.append(.with { $0.x = x; $0.y = y })
            }
            strokes.append(Stroke(id: id, color: color, points: points))
            protoStrokes.append(protoStroke)
        }
        canvas = CanvasSnapshot(strokes: strokes, pointCount: 10_000)
        var canvasProto = Groupwire_Bench_CanvasSnapshot()
        canvasProto.strokes = protoStrokes
        canvasProto.pointCount = 10_000
        self.canvasProto = canvasProto

        let ids = (0..<6).map { _ in random.uuid() }
        let changedAt: Int64 = 1_763_781_600_123_456_000
        playback = PlaybackState(
            stateID: ids[0], previousStateID: ids[1], title: "The Grand Budapest Hotel",
            subtitle: "Director's cut", contentID: ids[2], position: 1234.56, rate: 1.5, isPlaying: true,
            event: .seek, changedBy: ParticipantRef(id: ids[3], displayName: "Alice"),
            changedAt: _WireTimestamp.date(nanoseconds: changedAt),
            source: .catalog(CatalogItem(contentID: ids[4], seriesID: ids[5])),
            audioLanguage: "de", metadata: ["quality": "1080p", "chapter": "12"])
        var playbackProto = Groupwire_Bench_PlaybackState()
        playbackProto.stateID = Data(ids[0].bytes)
        playbackProto.previousStateID = Data(ids[1].bytes)
        playbackProto.title = "The Grand Budapest Hotel"
        playbackProto.subtitle = "Director's cut"
        playbackProto.contentID = Data(ids[2].bytes)
        playbackProto.position = 1234.56
        playbackProto.rate = 1.5
        playbackProto.isPlaying = true
        playbackProto.event = .seek
        playbackProto.changedBy = .with { $0.id = Data(ids[3].bytes); $0.displayName = "Alice" }
        playbackProto.changedAt = changedAt
        playbackProto.source = .with {
            $0.catalog = .with { $0.contentID = Data(ids[4].bytes); $0.seriesID = Data(ids[5].bytes) }
        }
        playbackProto.audioLanguage = "de"
        playbackProto.metadata = ["quality": "1080p", "chapter": "12"]
        self.playbackProto = playbackProto
    }
}

/// SplitMix64, so the data is the same on every run.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        // Wrapping arithmetic is the algorithm.
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }

    mutating func uuid() -> UUID {
        let high = next()
        let low = next()
        var bytes = [UInt8](repeating: 0, count: 16)
        for index in 0..<8 {
            bytes[index] = UInt8(truncatingIfNeeded: high >> (8 * UInt64(index)))
            bytes[index + 8] = UInt8(truncatingIfNeeded: low >> (8 * UInt64(index)))
        }
        return UUID(uuid: (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                           bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
    }
}

extension UUID {
    /// The 16 bytes.
    var bytes: [UInt8] {
        withUnsafeBytes(of: uuid) { Array($0) }
    }
}
