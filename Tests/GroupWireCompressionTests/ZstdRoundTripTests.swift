import CZstd
import GroupWire
import Testing

@testable import GroupWireCompression

@Suite struct ZstdRoundTripTests {
    @Test func aCompressibleBodyRoundTripsWithoutADictionary() throws {
        var samples = SamplePayloads(seed: 1)
        let canvas = samples.canvasSnapshot(strokes: 20)
        let compressor = try ZstdCompressor()
        let body = try compressor.compress(canvas)
        #expect(body.count < canvas.count)
        #expect(try ZstdDecompressor().decompress(body, expectedSize: canvas.count) == canvas)
        #expect(try ZstdDecompressor().decompress(body) == canvas)
    }

    @Test func theBodyIsAStandardFrameWithContentSizeAndNeitherChecksumNorDictionaryID() throws {
        var samples = SamplePayloads(seed: 2)
        let dictionary = try DictionaryTrainer.train(samples: (0..<400).map { _ in samples.playbackState() })
        let payload = samples.playbackState()
        for used in [nil, dictionary] {
            let body = try ZstdCompressor().compress(payload, dictionary: used)
            #expect(Array(body.prefix(4)) == [0x28, 0xB5, 0x2F, 0xFD])
            let frame = ZstdFrameBytes(bytes: body)
            #expect(frame.checksumFlag == false)
            #expect(frame.dictionaryIDFlag == 0)
            #expect(frame.singleSegment || frame.contentSizeFlag != 0)
            // The content size field of a single-segment frame under 256 bytes is one byte.
            if frame.singleSegment, frame.contentSizeFlag == 0 {
                #expect(Int(body[5]) == payload.count)
            }
        }
    }

    @Test func aLargeBodyComesBackInARightSizedBuffer() throws {
        var samples = SamplePayloads(seed: 6)
        let canvas = samples.canvasSnapshot(strokes: 50)
        let body = try ZstdCompressor().compress(canvas)
        #expect(body.count < canvas.count / 2)
        #expect(body.capacity < body.count + 4096)
    }

    @Test func anEmptyBodyRoundTrips() throws {
        let body = try ZstdCompressor().compress([])
        #expect(try ZstdDecompressor().decompress(body, expectedSize: 0) == [])
    }

    @Test func compressionIntoTooSmallACapacityReturnsNil() throws {
        var samples = SamplePayloads(seed: 3)
        let random = samples.randomBytes(2000)
        #expect(try ZstdCompressor().compress(random, dictionary: nil, capacity: random.count - 1) == nil)
        #expect(try ZstdCompressor().compress(random, dictionary: nil, capacity: 0) == nil)
    }

    @Test func levelsOutsideTheZstdRangeAreRejected() {
        #expect(throws: WireError.self) { try ZstdCompressor(level: 23) }
        #expect(throws: WireError.self) { try ZstdCompressor(level: 0) }
        #expect(throws: Never.self) { try ZstdCompressor(level: -5) }
    }

    @Test func contextsAreReusedAcrossMessagesNotCreatedPerMessage() throws {
        let compressor = try ZstdCompressor(maxIdleContexts: 2)
        let decompressor = ZstdDecompressor(maxOutputSize: 1 << 20, windowLogMax: 20, maxIdleContexts: 2)
        var samples = SamplePayloads(seed: 4)
        for _ in 0..<50 {
            let payload = samples.canvasSnapshot(strokes: 2)
            let body = try compressor.compress(payload)
            #expect(try decompressor.decompress(body) == payload)
        }
        #expect(compressor.idleContextCount == 1)
        #expect(decompressor.idleContextCount == 1)
    }

    @Test func concurrentTasksShareOneCompressorAndDictionary() async throws {
        var samples = SamplePayloads(seed: 5)
        let dictionary = try DictionaryTrainer.train(samples: (0..<400).map { _ in samples.playbackState() })
        let compressor = try ZstdCompressor(maxIdleContexts: 3)
        let decompressor = ZstdDecompressor()
        let inputs = (0..<8).map { _ in (0..<40).map { _ in samples.playbackState() } }
        let mismatches = try await withThrowingTaskGroup(of: Int.self) { group in
            for batch in inputs {
                group.addTask {
                    var wrong = 0
                    for payload in batch {
                        let body = try compressor.compress(payload, dictionary: dictionary)
                        let back = try decompressor.decompress(body, expectedSize: payload.count, dictionary: dictionary)
                        wrong += back == payload ? 0 : 1
                    }
                    return wrong
                }
            }
            return try await group.reduce(0, +)
        }
        #expect(mismatches == 0)
        #expect(compressor.idleContextCount <= 3)
        #expect(compressor.idleContextCount >= 1)
    }
}
