/// Deterministic sample payloads shaped like the example messages, encoded with the
/// field-tagged payload layout of FORMAT.md (key uvarint, then value).
struct SamplePayloads {
    private var state: UInt64
    /// Participants stay the same for a whole session, as in a real group activity.
    private let participants: [[UInt8]]

    init(seed: UInt64) {
        state = seed
        var participants: [[UInt8]] = []
        var generator = SplitMix64(state: seed ^ 0x5EED)
        for _ in 0..<8 {
            participants.append((0..<16).map { _ in UInt8(truncatingIfNeeded: generator.next()) })
        }
        self.participants = participants
    }

    mutating func next() -> UInt64 {
        var generator = SplitMix64(state: state)
        let value = generator.next()
        state = generator.state
        return value
    }

    mutating func randomBytes(_ count: Int) -> [UInt8] {
        (0..<count).map { _ in UInt8(truncatingIfNeeded: next()) }
    }

    /// ~38 bytes: stroke id (UUID), colour, x, y.
    mutating func upsertStroke() -> [UInt8] {
        var writer = TestPayloadWriter()
        writer.bytes(1, randomBytes(16))
        writer.varint(2, 0xFF33_6699 & next())
        writer.fixed32(3, UInt32(truncatingIfNeeded: next() % 2048))
        writer.fixed32(4, UInt32(truncatingIfNeeded: next() % 2048))
        return writer.output
    }

    /// ~200 bytes: media id string, title, position, rate, 6 participant UUIDs, timestamp.
    mutating func playbackState() -> [UInt8] {
        var writer = TestPayloadWriter()
        let episode = next() % 40
        writer.string(1, "com.example.watchtogether.media.episode-\(episode)")
        writer.string(2, "Season \(episode / 10 + 1), Episode \(episode % 10 + 1)")
        writer.fixed64(3, next() % 3_600_000_000)
        writer.fixed32(4, 0x3F80_0000)
        writer.varint(5, next() % 3)
        for index in 0..<6 {
            writer.bytes(6, participants[Int((next() + UInt64(index)) % UInt64(participants.count))])
        }
        writer.fixed64(7, 1_795_000_000_000_000_000 + next() % 1_000_000_000_000)
        return writer.output
    }

    /// A canvas of `strokes` strokes of `points` neighbouring points each (~200 KB for 200 × 50).
    mutating func canvasSnapshot(strokes: Int = 200, points: Int = 50) -> [UInt8] {
        var canvas = TestPayloadWriter()
        for _ in 0..<strokes {
            var stroke = TestPayloadWriter()
            stroke.bytes(1, randomBytes(16))
            stroke.varint(2, [0xFF00_0000, 0xFF33_6699, 0xFFCC_3300, 0xFF00_99CC][Int(next() % 4)])
            var x = Float(next() % 2048)
            var y = Float(next() % 2048)
            var packed = TestPayloadWriter()
            for _ in 0..<points {
                x += Float(Int(next() % 9) - 4) * 0.5
                y += Float(Int(next() % 9) - 4) * 0.5
                packed.rawFixed32(x.bitPattern)
                packed.rawFixed32(y.bitPattern)
            }
            stroke.bytes(3, packed.output)
            canvas.bytes(1, stroke.output)
        }
        return canvas.output
    }
}

struct SplitMix64 {
    var state: UInt64

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15  // safe because wrapping is the algorithm.
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// A minimal field-tagged writer for test payloads.
struct TestPayloadWriter {
    var output: [UInt8] = []

    mutating func uvarint(_ value: UInt64) {
        var value = value
        while value >= 0x80 {
            output.append(UInt8(truncatingIfNeeded: value) | 0x80)
            value >>= 7
        }
        output.append(UInt8(value))
    }

    mutating func varint(_ field: UInt64, _ value: UInt64) {
        uvarint(field << 3)
        uvarint(value)
    }

    mutating func rawFixed32(_ value: UInt32) {
        for shift in stride(from: 0, to: 32, by: 8) {
            output.append(UInt8(truncatingIfNeeded: value >> UInt32(shift)))
        }
    }

    mutating func fixed32(_ field: UInt64, _ value: UInt32) {
        uvarint(field << 3 | 5)
        rawFixed32(value)
    }

    mutating func fixed64(_ field: UInt64, _ value: UInt64) {
        uvarint(field << 3 | 1)
        for shift in stride(from: 0, to: 64, by: 8) {
            output.append(UInt8(truncatingIfNeeded: value >> UInt64(shift)))
        }
    }

    mutating func bytes(_ field: UInt64, _ value: [UInt8]) {
        uvarint(field << 3 | 2)
        uvarint(UInt64(value.count))
        output.append(contentsOf: value)
    }

    mutating func string(_ field: UInt64, _ value: String) {
        bytes(field, Array(value.utf8))
    }
}
