import DrawTogetherV1Golden
import Foundation
import GroupWire
import GroupWireTestSupport
import Testing

/// ``Limits/maxDecodedValues`` in generated decoders: a message of many tiny values is
/// refused by what it expands to, not only by its wire size.
@Suite struct DecodedValuesLimitTests {
    /// A CanvasSnapshot of one stroke holding `points` empty points: two bytes each on the
    /// wire (key 0x1a, length 0), a whole Point decoded.
    static func snapshot(emptyPoints points: Int) -> [UInt8] {
        var stroke = ByteWriter(capacity: 2 * points + 32)
        for _ in 0..<points { stroke.write(contentsOf: [0x1A, 0x00]) }
        var payload = ByteWriter(capacity: stroke.bytes.count + 16)
        payload.write(contentsOf: [0x0A])
        payload.writeUVarint(UInt64(stroke.bytes.count))
        payload.write(contentsOf: stroke.bytes)
        return payload.bytes
    }

    @Test func aMessageOfMoreValuesThanTheLimitIsRefusedNamingIt() throws {
        var limits = Limits.default
        limits.maxDecodedValues = 101  // the stroke and 100 points
        let fits = try CanvasSnapshot(wirePayload: Self.snapshot(emptyPoints: 100), limits: limits)
        #expect(
            fits.strokes.count == 1 && fits.strokes[0].points.count == 100 && fits.strokes[0].points.allSatisfy { $0 == Point() })
        do {
            _ = try CanvasSnapshot(wirePayload: Self.snapshot(emptyPoints: 101), limits: limits)
            Issue.record("102 values decoded under a limit of 101")
        } catch {
            #expect(error.kind == .limitExceeded)
            #expect(error.context == "the message decodes to more than maxDecodedValues 101 values")
            // The 102nd value is the 101st point, at its length byte: 3 bytes of header, 2 per point, its key.
            #expect(error.offset == 3 + 2 * 100 + 1)
        }
    }

    /// The issue's case without compression: 16 MB of 8 million empty points, within every
    /// wire-size limit, refused at the default million values instead of decoded into
    /// hundreds of megabytes.
    @Test func eightMillionEmptyPointsAreRefusedByTheDefaultLimits() throws {
        let payload = Self.snapshot(emptyPoints: 8_000_000)
        #expect(payload.count <= Limits.default.maxMessageSize)
        do {
            _ = try CanvasSnapshot(wirePayload: payload)
            Issue.record("eight million points decoded")
        } catch {
            #expect(error.kind == .limitExceeded && error.context.contains("maxDecodedValues 1048576"))
        }
    }
}
