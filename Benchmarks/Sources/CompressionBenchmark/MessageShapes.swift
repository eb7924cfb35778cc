import GroupWire
import GroupWireTesting

/// Representative payload bytes for the three example message shapes, written with
/// GroupWire's PayloadWriter: what the generated encoders produce.
struct MessageShapes {
    private var rng: SeededRandom
    /// Everyone in one watch party: participant ids recur from message to message.
    private let party: [[UInt8]]

    init(seed: UInt64) {
        rng = SeededRandom(seed: seed)
        var partyRNG = SeededRandom(seed: 0xC0FFEE)
        party = (0..<8).map { _ in partyRNG.bytes(16) }
    }

    /// UpsertStroke: stroke UUID, colour, x, y (~38 bytes).
    mutating func upsertStroke() -> [UInt8] {
        var out = PayloadWriter()
        out.writeBytes(1, rng.bytes(16))
        out.writeUInt(2, [0xFF00_0000, 0xFF33_6699, 0xFFCC_3300][Int(rng.next() % 3)])
        out.writeDouble(3, Double(rng.next() % 20_000) / 10)
        out.writeDouble(4, Double(rng.next() % 20_000) / 10)
        return out.bytes
    }

    /// PlaybackState: media id, title, position, rate, state, six UUIDs (the sender, the
    /// event and four participants: fresh random bytes in every message, the worst case
    /// for a dictionary), sequence number, host timestamp (~200 bytes).
    mutating func playbackState() -> [UInt8] {
        var out = PayloadWriter()
        let episode = Int(rng.next() % 24) + 1
        out.writeString(1, "media:show/season-2/episode-\(episode)")
        out.writeString(2, "The Long Way Home: Episode \(episode)")
        out.writeDouble(3, Double(rng.next() % 2_700_000) / 1000)
        out.writeDouble(4, [1.0, 1.0, 1.0, 1.5, 0.0][Int(rng.next() % 5)])
        out.writeUInt(5, rng.next() % 3)
        for _ in 0..<6 {
            out.writeBytes(6, rng.bytes(16))
        }
        out.writeUInt(7, rng.next() % 100_000)
        out.writeTimestamp(8, nanoseconds: 1_795_000_000_000_000_000 + Int64(rng.next() % 1_000_000_000_000))
        return out.bytes
    }

    /// CanvasSnapshot: 200 strokes of 50 neighbouring points (~200 KB), each stroke an id,
    /// a colour, a width and its points as nested `{1: x, 2: y}` Float64 messages that
    /// move a little each step, as a hand drawing does. Coordinates carry hundredths of a
    /// point (precise touch locations), so their Float64 bits are not trivially regular.
    mutating func canvasSnapshot(strokes: Int = 200, points: Int = 50) -> [UInt8] {
        var out = PayloadWriter()
        for _ in 0..<strokes {
            let id = rng.bytes(16)
            let colour = [0xFF00_0000, 0xFF33_6699, 0xFFCC_3300, 0xFF2E_8B57][Int(rng.next() % 4)]
            let width = 2 + rng.next() % 6
            var x = Double(rng.next() % 1920)
            var y = Double(rng.next() % 1080)
            var dx = Double(Int(rng.next() % 7) - 3)
            var dy = Double(Int(rng.next() % 7) - 3)
            var path: [(Double, Double)] = []
            for _ in 0..<points {
                dx += Double(Int(rng.next() % 3) - 1) * 0.5
                dy += Double(Int(rng.next() % 3) - 1) * 0.5
                x += dx + Double(Int(rng.next() % 21) - 10) / 100
                y += dy + Double(Int(rng.next() % 21) - 10) / 100
                path.append(((x * 100).rounded() / 100, (y * 100).rounded() / 100))
            }
            out.writeNested(1) { stroke in
                stroke.writeBytes(1, id)
                stroke.writeUInt(2, UInt64(colour))
                stroke.writeUInt(3, width)
                for (px, py) in path {
                    stroke.writeNested(4) { point in
                        point.writeDouble(1, px)
                        point.writeDouble(2, py)
                    }
                }
            }
        }
        return out.bytes
    }
}
