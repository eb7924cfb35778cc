import Foundation
import GroupWireTestSupport
import GroupWireTesting
import Testing

@testable import GroupWire

@Suite struct WireCodableFuzzTests {
    /// Decodes `bytes`, failing the test on anything but success, WireError or DecodingError.
    private func check(_ bytes: [UInt8], _ outcome: inout (decoded: Int, wireErrors: Int, decodingErrors: Int)) {
        do {
            let value = try WireDecoder(limits: Limits(maxNestingDepth: 32)).decode(KitchenSink.self, from: bytes)
            // Whatever decodes must encode and decode again.
            let again = try WireEncoder().encode(value)
            _ = try WireDecoder().decode(KitchenSink.self, from: again)
            outcome.decoded += 1
        } catch is WireError {
            outcome.wireErrors += 1
        } catch is DecodingError {
            outcome.decodingErrors += 1
        } catch {
            Issue.record("unexpected error \(type(of: error)): \(error) for \(Hex.string(bytes, separator: " "))")
        }
    }

    @Test func thousandsOfMutatedEncodingsOnlyEverThrowWireOrDecodingErrors() throws {
        var rng = SeededRandom(seed: 0xF022)
        let seeds = try (0..<8).map { _ in try WireEncoder().encode(KitchenSink.random(using: &rng)) }
        var outcome = (decoded: 0, wireErrors: 0, decodingErrors: 0)
        for round in 0..<4_000 {
            var bytes = seeds[round % seeds.count]
            for _ in 0...(rng.next() % 4) {
                guard !bytes.isEmpty else { break }
                let index = Int(rng.next() % UInt64(bytes.count))
                switch rng.next() % 6 {
                case 0: bytes[index] ^= UInt8(1) << (rng.next() % 8)
                case 1: bytes[index] = UInt8(truncatingIfNeeded: rng.next())
                case 2: bytes.insert(UInt8(truncatingIfNeeded: rng.next()), at: index)
                case 3: bytes.remove(at: index)
                case 4: bytes.removeSubrange(index...)
                default: bytes[index] = [0x00, 0x7F, 0x80, 0xFF][Int(rng.next() % 4)]
                }
            }
            check(bytes, &outcome)
        }
        // The mutations must reach past the first bytes: some inputs still decode, most fail.
        #expect(outcome.wireErrors > 1_000)
        #expect(outcome.decoded + outcome.decodingErrors > 0)
    }

    @Test func mutatedNestedSuperAndOutOfOrderEncodingsOnlyEverThrowWireOrDecodingErrors() throws {
        var rng = SeededRandom(seed: 0x5EED)
        let samples: [(bytes: [UInt8], decode: ([UInt8]) throws -> Void)] = [
            (
                try WireEncoder().encode(OutOfOrder(first: [1, 2, 300], inner: "in", last: 9, late: Point(x: 1, y: 2))),
                { _ = try WireDecoder().decode(OutOfOrder.self, from: $0) }
            ),
            (
                try WireEncoder().encode(Derived(base: 3, extra: "e", tail: [Point(x: 0, y: 1), Point(x: 2, y: 3)])),
                { _ = try WireDecoder().decode(Derived.self, from: $0) }
            ),
            (
                try WireEncoder().encode(SuperList(values: ["a", "bc"], head: -4)),
                { _ = try WireDecoder().decode(SuperList.self, from: $0) }
            ),
            (
                try WireEncoder().encode([Shape.labelled("x", 1), .circle(center: Point(x: 1, y: 1), radius: 2)]),
                { _ = try WireDecoder().decode([Shape].self, from: $0) }
            ),
            (
                try WireEncoder().encode([
                    WireCodableNumberedKeyTests.Track(
                        id: UUID(uuid: (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16)), title: "t", rate: 0.5,
                        tags: ["a"], cover: Point(x: 0.1, y: 1))
                ]),
                { _ = try WireDecoder().decode([WireCodableNumberedKeyTests.TrackV2].self, from: $0) }
            ),
            (
                try WireEncoder().encode([0: "zero", 300: "many", -2: "minus", Int.max: "max"]),
                { _ = try WireDecoder().decode([Int: String].self, from: $0) }
            ),
        ]
        var failures = 0
        for round in 0..<4_000 {
            let sample = samples[round % samples.count]
            var bytes = sample.bytes
            let index = Int(rng.next() % UInt64(bytes.count))
            switch rng.next() % 3 {
            case 0: bytes[index] ^= UInt8(1) << (rng.next() % 8)
            case 1: bytes[index] = UInt8(truncatingIfNeeded: rng.next())
            default: bytes.removeSubrange(index...)
            }
            do {
                try sample.decode(bytes)
            } catch is WireError {
                failures += 1
            } catch is DecodingError {
                failures += 1
            } catch {
                Issue.record("unexpected error \(type(of: error)): \(error) for \(Hex.string(bytes, separator: " "))")
            }
        }
        #expect(failures > 1_000)
    }

    @Test func thousandsOfRandomByteStringsOnlyEverThrowWireOrDecodingErrors() {
        var rng = SeededRandom(seed: 7)
        var outcome = (decoded: 0, wireErrors: 0, decodingErrors: 0)
        for _ in 0..<4_000 {
            let count = Int(rng.next() % 64)
            var bytes = (0..<count).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
            if rng.next() % 2 == 0 {
                bytes.insert(contentsOf: [0x02, UInt8(min(count, 127))], at: 0)
            }
            check(bytes, &outcome)
        }
        #expect(outcome.wireErrors > 3_000)
    }
}
