import GroupWire
import Testing

@testable import GroupWireCompression

@Suite struct CompressionPolicyTests {
    @Test func defaultsSkipSmallBodiesAndLowerTheThresholdWithADictionary() {
        #expect(CompressionPolicy.default.level == 3)
        #expect(CompressionPolicy.default.threshold == 1024)
        #expect(CompressionPolicy(dictionaryID: 7).threshold == 128)
        #expect(CompressionPolicy(threshold: 10, dictionaryID: 7).threshold == 10)
        #expect(CompressionPolicy.never.shouldCompress(size: Int.max - 1) == false)
    }

    @Test func bodiesUnderTheThresholdTravelUncompressed() throws {
        let compressor = try PayloadCompressor(policy: CompressionPolicy(threshold: 100))
        let zeros = [UInt8](repeating: 0, count: 99)
        #expect(try compressor.compress(zeros) == nil)
        let body = try #require(try compressor.compress(zeros + [0]))
        #expect(body.info == CompressionInfo(codec: 1, dictionaryID: 0, contentSize: 100))
        #expect(body.bytes.count < 100)
    }

    @Test func aBodyThatDoesNotShrinkStrictlyTravelsUncompressed() throws {
        var samples = SamplePayloads(seed: 10)
        let compressor = try PayloadCompressor(policy: CompressionPolicy(threshold: 0))
        #expect(try compressor.compress(samples.randomBytes(4096)) == nil)
        #expect(try compressor.compress(samples.upsertStroke()) == nil)
        #expect(try compressor.compress([]) == nil)
        #expect(try compressor.compress([1]) == nil)
    }

    @Test func aPolicyDictionaryIsUsedAndItsIDRecorded() throws {
        var samples = SamplePayloads(seed: 11)
        let dictionary = try DictionaryTrainer.train(samples: (0..<500).map { _ in samples.playbackState() }, id: 42)
        let store = try DictionaryStore([dictionary])
        let withDictionary = try PayloadCompressor(policy: CompressionPolicy(dictionaryID: 42), dictionaries: store)
        let payload = samples.playbackState()
        let body = try #require(try withDictionary.compress(payload))
        #expect(body.info.dictionaryID == 42)
        #expect(body.bytes.count * 100 <= payload.count * 85)
        #expect(try withDictionary.decompress(body) == payload)
        // Without the dictionary the same payload does not shrink at all.
        let plain = try PayloadCompressor(policy: CompressionPolicy(threshold: 0))
        #expect(try plain.compress(payload) == nil)
    }

    @Test func aPolicyNamingAMissingDictionaryIsRejectedUpFront() {
        let error = #expect(throws: WireError.self) {
            try PayloadCompressor(policy: CompressionPolicy(dictionaryID: 9))
        }
        #expect(error?.kind == .unknownDictionary)
        #expect(error?.context.contains("9") == true)
    }
}
