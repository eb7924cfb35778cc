import Foundation
import GroupWire
import GroupWireTesting

// MARK: Example shapes

/// A stroke colour, as a drawing app would model it.
enum StrokeColor: String, Codable, CaseIterable {
    case black, red, orange, yellow, green, blue, purple
}

/// A point of a stroke, in canvas points.
struct StrokePoint: Codable, Equatable {
    var x: Double
    var y: Double
}

/// One live drawing update: a stroke grew by one point.
struct UpsertStroke: Codable, Equatable {
    var id: UUID
    var color: StrokeColor
    var point: StrokePoint
}

/// A finished stroke.
struct Stroke: Codable, Equatable {
    var id: UUID
    var color: StrokeColor
    var width: Double
    var points: [StrokePoint]
}

/// The whole canvas, sent to a late joiner.
struct CanvasSnapshot: Codable, Equatable {
    var strokes: [Stroke]
    var pointCount: Int
}

/// Shared playback state of a watch-together session (~200 bytes, 6 UUIDs).
struct PlaybackState: Codable, Equatable {
    var sessionID: UUID
    var contentID: UUID
    var title: String
    var subtitle: String
    var position: Double
    var rate: Double
    var isPlaying: Bool
    var updatedBy: UUID
    var queue: [UUID]
    var updatedAt: Date
}

// MARK: The same shapes with numbered keys

// Same fields as above, but `enum CodingKeys: Int, CodingKey`, so WireEncoder writes each
// key as a number (Spec/FORMAT.md, "Keyed containers"); JSON and plists still use the names.

/// ``StrokePoint`` with numbered keys.
struct NumberedStrokePoint: Codable, Equatable {
    var x: Double
    var y: Double
    enum CodingKeys: Int, CodingKey { case x = 1, y }
}

/// ``UpsertStroke`` with numbered keys.
struct NumberedUpsertStroke: Codable, Equatable {
    var id: UUID
    var color: StrokeColor
    var point: NumberedStrokePoint
    enum CodingKeys: Int, CodingKey { case id = 1, color, point }
}

/// ``Stroke`` with numbered keys.
struct NumberedStroke: Codable, Equatable {
    var id: UUID
    var color: StrokeColor
    var width: Double
    var points: [NumberedStrokePoint]
    enum CodingKeys: Int, CodingKey { case id = 1, color, width, points }
}

/// ``CanvasSnapshot`` with numbered keys.
struct NumberedCanvasSnapshot: Codable, Equatable {
    var strokes: [NumberedStroke]
    var pointCount: Int
    enum CodingKeys: Int, CodingKey { case strokes = 1, pointCount }
}

/// ``PlaybackState`` with numbered keys.
struct NumberedPlaybackState: Codable, Equatable {
    var sessionID: UUID
    var contentID: UUID
    var title: String
    var subtitle: String
    var position: Double
    var rate: Double
    var isPlaying: Bool
    var updatedBy: UUID
    var queue: [UUID]
    var updatedAt: Date
    enum CodingKeys: Int, CodingKey {
        case sessionID = 1, contentID, title, subtitle, position, rate, isPlaying, updatedBy, queue, updatedAt
    }
}

extension NumberedStrokePoint {
    init(_ point: StrokePoint) { self.init(x: point.x, y: point.y) }
}

extension NumberedUpsertStroke {
    init(_ upsert: UpsertStroke) {
        self.init(id: upsert.id, color: upsert.color, point: NumberedStrokePoint(upsert.point))
    }
}

extension NumberedStroke {
    init(_ stroke: Stroke) {
        self.init(id: stroke.id, color: stroke.color, width: stroke.width, points: stroke.points.map(NumberedStrokePoint.init))
    }
}

extension NumberedCanvasSnapshot {
    init(_ canvas: CanvasSnapshot) {
        self.init(strokes: canvas.strokes.map(NumberedStroke.init), pointCount: canvas.pointCount)
    }
}

extension NumberedPlaybackState {
    init(_ state: PlaybackState) {
        self.init(
            sessionID: state.sessionID, contentID: state.contentID, title: state.title, subtitle: state.subtitle,
            position: state.position, rate: state.rate, isPlaying: state.isPlaying, updatedBy: state.updatedBy,
            queue: state.queue, updatedAt: state.updatedAt)
    }
}

/// Deterministic sample data from the package's one seeded generator, so every run
/// measures the same bytes.
extension SeededRandom {
    mutating func color() -> StrokeColor {
        StrokeColor.allCases[Int(next() % UInt64(StrokeColor.allCases.count))]
    }

    /// A stroke of `count` neighbouring points: a random walk with a drifting heading, the
    /// full-precision coordinates a touch or pencil pipeline produces.
    mutating func stroke(points count: Int) -> Stroke {
        var x = unit() * 1_000
        var y = unit() * 700
        var heading = unit() * 2 * .pi
        var points: [StrokePoint] = []
        points.reserveCapacity(count)
        for _ in 0..<count {
            heading += (unit() - 0.5) * 0.6
            let step = 1.5 + unit() * 3
            x += cos(heading) * step
            y += sin(heading) * step
            points.append(StrokePoint(x: x, y: y))
        }
        return Stroke(id: uuid(), color: color(), width: 1 + (unit() * 8).rounded() / 2, points: points)
    }
}

enum CodableSamples {
    static func upsertStroke() -> UpsertStroke {
        var generator = SeededRandom(seed: 1)
        let stroke = generator.stroke(points: 1)
        return UpsertStroke(id: stroke.id, color: stroke.color, point: stroke.points[0])
    }

    static func canvasSnapshot() -> CanvasSnapshot {
        var generator = SeededRandom(seed: 2)
        let strokes = (0..<200).map { _ in generator.stroke(points: 50) }
        return CanvasSnapshot(strokes: strokes, pointCount: strokes.reduce(0) { $0 + $1.points.count })
    }

    static func playbackState() -> PlaybackState {
        var generator = SeededRandom(seed: 3)
        return PlaybackState(
            sessionID: generator.uuid(), contentID: generator.uuid(),
            title: "Episode 4: The Long Way Round", subtitle: "Season 2 · Sunday Drive",
            position: 1_234.567_891, rate: 1, isPlaying: true, updatedBy: generator.uuid(),
            queue: [generator.uuid(), generator.uuid(), generator.uuid()],
            updatedAt: Date(timeIntervalSinceReferenceDate: 785_000_000.123_456))
    }
}

// MARK: Suite

/// WireEncoder/WireDecoder against Foundation's JSON and binary property list coders on the
/// three example shapes, in one interleaved run.
enum CodableSuite: BenchmarkSuite {
    static let name = "codable"

    struct Codec {
        let name: String
        let encode: (any Encodable) throws -> Int
    }

    static func run(harness: inout Harness) throws {
        print("## Codable: WireEncoder/WireDecoder vs JSONEncoder/JSONDecoder vs PropertyListEncoder/Decoder (binary)\n")
        var verdicts: [String] = []
        let upsert = CodableSamples.upsertStroke()
        let playback = CodableSamples.playbackState()
        let canvas = CodableSamples.canvasSnapshot()
        try measure(upsert, "UpsertStroke, string keys", &harness, &verdicts)
        try measure(NumberedUpsertStroke(upsert), "UpsertStroke, Int keys", &harness, &verdicts)
        try measure(playback, "PlaybackState, string keys", &harness, &verdicts)
        try measure(NumberedPlaybackState(playback), "PlaybackState, Int keys", &harness, &verdicts)
        try measure(canvas, "CanvasSnapshot (200 × 50 points), string keys", &harness, &verdicts)
        try measure(NumberedCanvasSnapshot(canvas), "CanvasSnapshot (200 × 50 points), Int keys", &harness, &verdicts)
        print("Targets: encode+decode ≥ 5× faster than JSON and ≥ 3× faster than binary plist; bytes ≤ 50% of JSON.\n")
        for verdict in verdicts {
            print("- \(verdict)")
        }
        print("")
    }

    /// Encodes and decodes one shape with one codec `iterations` times, for profilers
    /// (callgrind instruction counts compare codecs without the noise of a shared machine).
    static func profile(shape: String, iterations: Int, codec: String) throws -> Int {
        switch shape {
        case "playback": return try loop(CodableSamples.playbackState(), iterations, codec)
        case "canvas": return try loop(CodableSamples.canvasSnapshot(), iterations, codec)
        case "upsert-int": return try loop(NumberedUpsertStroke(CodableSamples.upsertStroke()), iterations, codec)
        case "playback-int": return try loop(NumberedPlaybackState(CodableSamples.playbackState()), iterations, codec)
        case "canvas-int": return try loop(NumberedCanvasSnapshot(CodableSamples.canvasSnapshot()), iterations, codec)
        default: return try loop(CodableSamples.upsertStroke(), iterations, codec)
        }
    }

    private static func loop<T: Codable & Equatable>(_ value: T, _ iterations: Int, _ codec: String) throws -> Int {
        var checksum = 0
        let plistEncoder = PropertyListEncoder()
        plistEncoder.outputFormat = .binary
        for _ in 0..<iterations {
            // safe because: checksums, wrapping is fine.
            switch codec {
            case "json":
                let bytes = try JSONEncoder().encode(value)
                checksum &+= bytes.count
                checksum &+= try JSONDecoder().decode(T.self, from: bytes) == value ? 1 : 0
            case "plist":
                let bytes = try plistEncoder.encode(value)
                checksum &+= bytes.count
                checksum &+= try PropertyListDecoder().decode(T.self, from: bytes) == value ? 1 : 0
            default:
                let bytes = try WireEncoder().encode(value)
                checksum &+= bytes.count
                checksum &+= try WireDecoder().decode(T.self, from: bytes) == value ? 1 : 0
            }
        }
        return checksum
    }

    private static func measure<T: Codable & Equatable>(
        _ value: T, _ title: String, _ harness: inout Harness, _ verdicts: inout [String]
    ) throws {
        let wireEncoder = WireEncoder()
        let wireDecoder = WireDecoder()
        let jsonEncoder = JSONEncoder()
        let jsonDecoder = JSONDecoder()
        let plistEncoder = PropertyListEncoder()
        plistEncoder.outputFormat = .binary
        let plistDecoder = PropertyListDecoder()

        let wireBytes = try wireEncoder.encode(value)
        let jsonBytes = try jsonEncoder.encode(value)
        let plistBytes = try plistEncoder.encode(value)
        // Every codec must give the value back before it is timed.
        guard try wireDecoder.decode(T.self, from: wireBytes) == value,
            try jsonDecoder.decode(T.self, from: jsonBytes) == value,
            try plistDecoder.decode(T.self, from: plistBytes) == value
        else {
            throw CocoaError(.coderInvalidValue)
        }

        let operations = [
            BenchmarkOperation(name: "wire.encode") { try wireEncoder.encode(value).count },
            BenchmarkOperation(name: "wire.decode") { try wireDecoder.decode(T.self, from: wireBytes) == value ? 1 : 0 },
            BenchmarkOperation(name: "json.encode") { try jsonEncoder.encode(value).count },
            BenchmarkOperation(name: "json.decode") { try jsonDecoder.decode(T.self, from: jsonBytes) == value ? 1 : 0 },
            BenchmarkOperation(name: "plist.encode") { try plistEncoder.encode(value).count },
            BenchmarkOperation(name: "plist.decode") { try plistDecoder.decode(T.self, from: plistBytes) == value ? 1 : 0 },
        ]
        let medians = try harness.measure(operations)
        func time(_ codec: String) -> (encode: Double, decode: Double) {
            (medians["\(codec).encode"] ?? .nan, medians["\(codec).decode"] ?? .nan)
        }
        let wire = time("wire"), json = time("json"), plist = time("plist")
        let wireTotal = wire.encode + wire.decode
        let jsonTotal = json.encode + json.decode
        let plistTotal = plist.encode + plist.decode

        print("### \(title)\n")
        var table = Table(headers: ["codec", "encode", "decode", "encode+decode", "bytes", "time / wire", "bytes / wire"])
        func row(_ name: String, _ timing: (encode: Double, decode: Double), _ bytes: Int) {
            let total = timing.encode + timing.decode
            table.add([
                name, formatNanoseconds(timing.encode), formatNanoseconds(timing.decode),
                formatNanoseconds(total), "\(bytes)",
                String(format: "%.1f×", total / wireTotal),
                String(format: "%.2f×", Double(bytes) / Double(wireBytes.count)),
            ])
        }
        row("GroupWire WireEncoder/Decoder", wire, wireBytes.count)
        row("Foundation JSON", json, jsonBytes.count)
        row("Foundation binary plist", plist, plistBytes.count)
        print(table.render())

        let jsonSpeedup = jsonTotal / wireTotal
        let plistSpeedup = plistTotal / wireTotal
        let sizeShare = Double(wireBytes.count) / Double(jsonBytes.count)
        func mark(_ met: Bool) -> String { met ? "met" : "MISSED" }
        verdicts.append(
            String(
                format: "%@: %.1f× faster than JSON (%@), %.1f× faster than binary plist (%@), bytes %.0f%% of JSON (%@)",
                title, jsonSpeedup, mark(jsonSpeedup >= 5), plistSpeedup, mark(plistSpeedup >= 3),
                sizeShare * 100, mark(sizeShare <= 0.5)))
    }
}
