import GroupWire
import GroupWireTesting

/// Deterministic sample payloads shaped like the example messages, encoded with the
/// field-tagged payload layout of FORMAT.md (key uvarint, then value).
struct SamplePayloads {
    private var random: SeededRandom
    /// Participants stay the same for a whole session, as in a real group activity.
    private let participants: [[UInt8]]

    init(seed: UInt64) {
        random = SeededRandom(seed: seed)
        var participants: [[UInt8]] = []
        var generator = SeededRandom(seed: seed ^ 0x5EED)
        for _ in 0..<8 {
            participants.append((0..<16).map { _ in UInt8(truncatingIfNeeded: generator.next()) })
        }
        self.participants = participants
    }

    mutating func next() -> UInt64 {
        random.next()
    }

    mutating func randomBytes(_ count: Int) -> [UInt8] {
        (0..<count).map { _ in UInt8(truncatingIfNeeded: next()) }
    }

    /// ~38 bytes: stroke id (UUID), colour, x, y.
    mutating func upsertStroke() -> [UInt8] {
        var writer = PayloadWriter()
        writer.writeBytes(1, randomBytes(16))
        writer.writeUInt(2, 0xFF33_6699 & next())
        writer.writeFloat(3, Float(next() % 2048))
        writer.writeFloat(4, Float(next() % 2048))
        return writer.bytes
    }

    /// ~200 bytes: media id string, title, position, rate, 6 participant UUIDs, timestamp.
    mutating func playbackState() -> [UInt8] {
        var writer = PayloadWriter()
        let episode = next() % 40
        writer.writeString(1, "com.example.watchtogether.media.episode-\(episode)")
        writer.writeString(2, "Season \(episode / 10 + 1), Episode \(episode % 10 + 1)")
        writer.writeDouble(3, Double(next() % 3_600_000) / 1000)
        writer.writeFloat(4, 1)
        writer.writeUInt(5, next() % 3)
        for index in 0..<6 {
            writer.writeBytes(6, participants[Int((next() + UInt64(index)) % UInt64(participants.count))])
        }
        writer.writeTimestamp(7, nanoseconds: 1_795_000_000_000_000_000 + Int64(next() % 1_000_000_000_000))
        return writer.bytes
    }

    /// A canvas of `strokes` strokes of `points` neighbouring points each (~200 KB for 200 × 50).
    mutating func canvasSnapshot(strokes: Int = 200, points: Int = 50) -> [UInt8] {
        var canvas = PayloadWriter()
        for _ in 0..<strokes {
            let id = randomBytes(16)
            let colour = [0xFF00_0000, 0xFF33_6699, 0xFFCC_3300, 0xFF00_99CC][Int(next() % 4)]
            var x = Float(next() % 2048)
            var y = Float(next() % 2048)
            var steps: [(Float, Float)] = []
            for _ in 0..<points {
                x += Float(Int(next() % 9) - 4) * 0.5
                y += Float(Int(next() % 9) - 4) * 0.5
                steps.append((x, y))
            }
            canvas.writeNested(1) { stroke in
                stroke.writeBytes(1, id)
                stroke.writeUInt(2, UInt64(colour))
                stroke.writeNested(3) { packed in
                    for (x, y) in steps {
                        packed.writer.writeFixed32LE(x.bitPattern)
                        packed.writer.writeFixed32LE(y.bitPattern)
                    }
                }
            }
        }
        return canvas.bytes
    }
}
