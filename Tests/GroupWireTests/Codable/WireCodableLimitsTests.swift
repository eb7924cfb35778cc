import Testing

@testable import GroupWire

/// ``Limits/maxDecodedValues`` in the `Codable` decoder: every container and every element
/// of an unkeyed container counts, over the whole top-level decode.
@Suite struct WireCodableDecodedValuesTests {
    struct Canvas: Codable, Equatable {
        var strokes: [[Point]]
    }

    @Test func aValueOfMoreContainersAndElementsThanTheLimitIsRefused() throws {
        let canvas = Canvas(strokes: [
            Array(repeating: Point(x: 0, y: 0), count: 30), Array(repeating: Point(x: 1, y: 1), count: 30),
        ])
        let bytes = try WireEncoder().encode(canvas)
        // The canvas (1), its array (1 + 2 elements), two arrays (2 × (1 + 30)), 60 points: 126.
        var limits = Limits.default
        limits.maxDecodedValues = 126
        #expect(try WireDecoder(limits: limits).decode(Canvas.self, from: bytes) == canvas)
        limits.maxDecodedValues = 125
        let error = try #require(wireError { _ = try WireDecoder(limits: limits).decode(Canvas.self, from: bytes) })
        #expect(error.kind == .limitExceeded)
        #expect(error.context.hasPrefix("the value decodes to more than maxDecodedValues 125 values (coding path: "))
    }
}
