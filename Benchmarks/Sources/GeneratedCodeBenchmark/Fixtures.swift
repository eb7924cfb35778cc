import Foundation
import GroupWire
import GroupWireTesting

/// The three benchmark messages, built once in both representations from the same data.
struct Fixtures {
    let upsert: UpsertStroke
    let upsertProto: Groupwire_Bench_UpsertStroke
    let canvas: CanvasSnapshot
    let canvasProto: Groupwire_Bench_CanvasSnapshot
    let playback: PlaybackState
    let playbackProto: Groupwire_Bench_PlaybackState

    init(seed: UInt64) {
        var random = SeededRandom(seed: seed)

        let strokeID = random.uuid()
        upsert = UpsertStroke(id: strokeID, color: .blue, point: Point(x: 412.75, y: 1093.5))
        var upsertProto = Groupwire_Bench_UpsertStroke()
        upsertProto.id = Data(strokeID.bytes)
        upsertProto.color = .blue
        upsertProto.point = .with {
            $0.x = 412.75; $0.y = 1093.5
        }
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
                protoStroke.points.append(
                    .with {
                        $0.x = x; $0.y = y
                    })
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
        playbackProto.changedBy = .with {
            $0.id = Data(ids[3].bytes); $0.displayName = "Alice"
        }
        playbackProto.changedAt = changedAt
        playbackProto.source = .with {
            $0.catalog = .with {
                $0.contentID = Data(ids[4].bytes); $0.seriesID = Data(ids[5].bytes)
            }
        }
        playbackProto.audioLanguage = "de"
        playbackProto.metadata = ["quality": "1080p", "chapter": "12"]
        self.playbackProto = playbackProto
    }
}

extension UUID {
    /// The 16 bytes.
    var bytes: [UInt8] {
        withUnsafeBytes(of: uuid) { Array($0) }
    }
}
