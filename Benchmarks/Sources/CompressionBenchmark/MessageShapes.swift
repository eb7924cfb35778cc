/// Representative payload bytes for the three example message shapes, written in the
/// field-tagged layout of Spec/FORMAT.md: what the generated encoders would produce.
struct MessageShapes {
    private var rng: Random
    /// Everyone in one watch party: participant ids recur from message to message.
    private let party: [[UInt8]]

    init(seed: UInt64) {
        rng = Random(seed: seed)
        var partyRNG = Random(seed: 0xC0FFEE)
        party = (0..<8).map { _ in partyRNG.bytes(16) }
    }

    /// UpsertStroke: stroke UUID, colour, x, y (~38 bytes).
    mutating func upsertStroke() -> [UInt8] {
        var out = FieldWriter()
        out.lengthDelimited(1, rng.bytes(16))
        out.varint(2, [0xFF00_0000, 0xFF33_6699, 0xFFCC_3300][Int(rng.next() % 3)])
        out.fixed64(3, Double(rng.next() % 20_000) / 10)
        out.fixed64(4, Double(rng.next() % 20_000) / 10)
        return out.bytes
    }

    /// PlaybackState: media id, title, position, rate, state, six UUIDs (the sender, the
    /// event and four participants: fresh random bytes in every message, the worst case
    /// for a dictionary), sequence number, host timestamp (~200 bytes).
    mutating func playbackState() -> [UInt8] {
        var out = FieldWriter()
        let episode = Int(rng.next() % 24) + 1
        out.lengthDelimited(1, Array("media:show/season-2/episode-\(episode)".utf8))
        out.lengthDelimited(2, Array("The Long Way Home: Episode \(episode)".utf8))
        out.fixed64(3, Double(rng.next() % 2_700_000) / 1000)
        out.fixed64(4, [1.0, 1.0, 1.0, 1.5, 0.0][Int(rng.next() % 5)])
        out.varint(5, rng.next() % 3)
        for _ in 0..<6 {
            out.lengthDelimited(6, rng.bytes(16))
        }
        out.varint(7, rng.next() % 100_000)
        out.fixed64(8, Double(1_795_000_000 + rng.next() % 1_000_000))
        return out.bytes
    }

    /// CanvasSnapshot: 200 strokes of 50 neighbouring points (~200 KB), each stroke an id,
    /// a colour, a width and its points as nested `{1: x, 2: y}` Float64 messages that
    /// move a little each step, as a hand drawing does. Coordinates carry hundredths of a
    /// point (precise touch locations), so their Float64 bits are not trivially regular.
    mutating func canvasSnapshot(strokes: Int = 200, points: Int = 50) -> [UInt8] {
        var out = FieldWriter()
        for _ in 0..<strokes {
            var stroke = FieldWriter()
            stroke.lengthDelimited(1, rng.bytes(16))
            stroke.varint(2, [0xFF00_0000, 0xFF33_6699, 0xFFCC_3300, 0xFF2E_8B57][Int(rng.next() % 4)])
            stroke.varint(3, 2 + rng.next() % 6)
            var x = Double(rng.next() % 1920)
            var y = Double(rng.next() % 1080)
            var dx = Double(Int(rng.next() % 7) - 3)
            var dy = Double(Int(rng.next() % 7) - 3)
            for _ in 0..<points {
                dx += Double(Int(rng.next() % 3) - 1) * 0.5
                dy += Double(Int(rng.next() % 3) - 1) * 0.5
                x += dx + Double(Int(rng.next() % 21) - 10) / 100
                y += dy + Double(Int(rng.next() % 21) - 10) / 100
                var point = FieldWriter()
                point.fixed64(1, (x * 100).rounded() / 100)
                point.fixed64(2, (y * 100).rounded() / 100)
                stroke.lengthDelimited(4, point.bytes)
            }
            out.lengthDelimited(1, stroke.bytes)
        }
        return out.bytes
    }
}

/// SplitMix64: small, fast and the same on every platform, so runs compare.
struct Random {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }

    mutating func bytes(_ count: Int) -> [UInt8] {
        (0..<count).map { _ in UInt8(truncatingIfNeeded: next()) }
    }
}

/// Writes `key uvarint` + value fields.
struct FieldWriter {
    private(set) var bytes: [UInt8] = []

    mutating func uvarint(_ value: UInt64) {
        var rest = value
        while rest >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: rest) | 0x80)
            rest >>= 7
        }
        bytes.append(UInt8(rest))
    }

    mutating func varint(_ field: UInt64, _ value: UInt64) {
        uvarint(field << 3)
        uvarint(value)
    }

    mutating func fixed64(_ field: UInt64, _ value: Double) {
        uvarint(field << 3 | 1)
        withUnsafeBytes(of: value.bitPattern.littleEndian) { bytes.append(contentsOf: $0) }
    }

    mutating func lengthDelimited(_ field: UInt64, _ value: [UInt8]) {
        uvarint(field << 3 | 2)
        uvarint(UInt64(value.count))
        bytes.append(contentsOf: value)
    }
}
