import GroupWire
import GroupWireTesting
import Testing

@testable import GroupWireCompression

/// Mutated bodies: whatever the bytes, the decompressor returns at most the declared size or
/// throws a WireError; it never traps and never throws anything else.
@Suite struct MutatedBodyTests {
    @Test func thousandsOfMutatedBodiesOnlyEverYieldBoundedOutputOrTypedErrors() throws {
        var samples = SamplePayloads(seed: 80)
        let dictionary = try DictionaryTrainer.train(samples: (0..<400).map { _ in samples.playbackState() }, size: 4096)
        let payloads = [samples.playbackState(), samples.canvasSnapshot(strokes: 3)]
        let compressor = try ZstdCompressor()
        let decompressor = ZstdDecompressor(limits: Limits(maxMessageSize: 64 * 1024))
        var generator = SeededRandom(seed: 81)
        var outcomes: [String: Int] = [:]
        for payload in payloads {
            for used in [nil, dictionary] {
                let body = try compressor.compress(payload, dictionary: used)
                for _ in 0..<1_000 {
                    var mutated = body
                    switch generator.next() % 4 {
                    case 0:
                        let index = Int(generator.next() % UInt64(mutated.count))
                        mutated[index] ^= UInt8(1 << (generator.next() % 8))
                    case 1:
                        mutated.removeLast(Int(generator.next() % UInt64(mutated.count)))
                    case 2:
                        let index = Int(generator.next() % UInt64(mutated.count))
                        mutated.insert(UInt8(truncatingIfNeeded: generator.next()), at: index)
                    default:
                        let index = Int(generator.next() % UInt64(mutated.count))
                        mutated[index] = UInt8(truncatingIfNeeded: generator.next())
                    }
                    let expected = generator.next() % 2 == 0 ? payload.count : nil
                    do {
                        let output = try decompressor.decompress(mutated, expectedSize: expected, dictionary: used)
                        #expect(output.count <= (expected ?? decompressor.maxOutputSize))
                        outcomes["decoded", default: 0] += 1
                    } catch {
                        outcomes[error.kind.name, default: 0] += 1
                    }
                }
            }
        }
        #expect(outcomes.values.reduce(0, +) == 4_000)
        // The mutations reach the interesting checks, not only the magic.
        #expect(outcomes["truncated", default: 0] > 0)
        #expect(outcomes["decompressionFailed", default: 0] > 0)
        #expect(outcomes["contentSizeMismatch", default: 0] > 0)
    }
}
