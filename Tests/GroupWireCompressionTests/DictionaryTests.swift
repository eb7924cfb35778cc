import GroupWire
import Testing

@testable import GroupWireCompression

@Suite struct DictionaryTests {
    static func playbackSamples(seed: UInt64, count: Int = 500) -> [[UInt8]] {
        var samples = SamplePayloads(seed: seed)
        return (0..<count).map { _ in samples.playbackState() }
    }

    @Test func trainingWritesAStandardDictionaryWithANonzeroID() throws {
        let dictionary = try DictionaryTrainer.train(samples: Self.playbackSamples(seed: 30), size: 4096)
        #expect(Array(dictionary.bytes.prefix(4)) == [0x37, 0xA4, 0x30, 0xEC])
        #expect(dictionary.id != 0)
        #expect(dictionary.bytes.count <= 4096)
        let storedID =
            UInt32(dictionary.bytes[4]) | UInt32(dictionary.bytes[5]) << 8
            | UInt32(dictionary.bytes[6]) << 16 | UInt32(dictionary.bytes[7]) << 24
        #expect(storedID == dictionary.id)
    }

    @Test func anAssignedIDIsStampedIntoTheDictionaryHeader() throws {
        let dictionary = try DictionaryTrainer.train(samples: Self.playbackSamples(seed: 31), size: 4096, id: 0x0102_0304)
        #expect(dictionary.id == 0x0102_0304)
        #expect(Array(dictionary.bytes[4..<8]) == [0x04, 0x03, 0x02, 0x01])
        let restamped = try dictionary.withID(9)
        #expect(restamped.id == 9)
        #expect(Array(restamped.bytes[8...]) == Array(dictionary.bytes[8...]))
    }

    @Test func trainingWithTooFewSamplesOrABadSizeFailsWithATypedError() {
        let few = #expect(throws: WireError.self) {
            try DictionaryTrainer.train(samples: Self.playbackSamples(seed: 32, count: 3))
        }
        #expect(few?.kind == .dictionaryTrainingFailed)
        let tiny = #expect(throws: WireError.self) {
            try DictionaryTrainer.train(samples: Self.playbackSamples(seed: 32), size: 10)
        }
        #expect(tiny?.kind == .dictionaryTrainingFailed)
        let zeroID = #expect(throws: WireError.self) {
            try DictionaryTrainer.train(samples: Self.playbackSamples(seed: 32), size: 4096, id: 0)
        }
        #expect(zeroID?.kind == .invalidDictionary)
    }

    @Test func bytesThatAreNotADictionaryAreRejected() throws {
        let garbage = #expect(throws: WireError.self) { try ZstdDictionary(bytes: [1, 2, 3, 4, 5, 6, 7, 8, 9]) }
        #expect(garbage?.kind == .invalidDictionary)
        let trained = try DictionaryTrainer.train(samples: Self.playbackSamples(seed: 33), size: 4096)
        var zeroID = trained.bytes
        zeroID.replaceSubrange(4..<8, with: [0, 0, 0, 0])
        let noID = #expect(throws: WireError.self) { try ZstdDictionary(bytes: zeroID) }
        #expect(noID?.kind == .invalidDictionary)
        let truncatedTables = #expect(throws: WireError.self) { try ZstdDictionary(bytes: Array(trained.bytes.prefix(40))) }
        #expect(truncatedTables?.kind == .invalidDictionary)
    }

    @Test func theStoreKeysDictionariesByIDAndRefusesADifferentOneUnderATakenID() throws {
        let first = try DictionaryTrainer.train(samples: Self.playbackSamples(seed: 34), size: 4096, id: 100)
        let other = try DictionaryTrainer.train(samples: Self.playbackSamples(seed: 35), size: 2048, id: 100)
        let store = try DictionaryStore([first])
        try store.add(first)
        #expect(store.ids == [100])
        let clash = #expect(throws: WireError.self) { try store.add(other) }
        #expect(clash?.kind == .invalidDictionary)
        #expect(store.dictionary(id: 100)?.bytes == first.bytes)
        try store.add(try other.withID(200))
        #expect(store.ids == [100, 200])
        #expect(store.remove(id: 100)?.id == 100)
        let missing = #expect(throws: WireError.self) { try store.require(id: 100) }
        #expect(missing?.kind == .unknownDictionary)
        #expect(missing?.context.contains("100") == true)
    }

    @Test func aBodyCompressedWithADictionaryFailsWithoutIt() throws {
        let dictionary = try DictionaryTrainer.train(samples: Self.playbackSamples(seed: 36), size: 8192)
        let payload = Self.playbackSamples(seed: 37, count: 1)[0]
        let body = try ZstdCompressor().compress(payload, dictionary: dictionary)
        let error = #expect(throws: WireError.self) {
            try ZstdDecompressor().decompress(body, expectedSize: payload.count, dictionary: nil)
        }
        #expect(error?.kind == .decompressionFailed || error?.kind == .dictionaryMismatch)
    }

    @Test func aBodyDecodedWithTheWrongDictionaryFailsWithATypedError() throws {
        let right = try DictionaryTrainer.train(samples: Self.playbackSamples(seed: 38), size: 8192, id: 500)
        var strokes = SamplePayloads(seed: 39)
        let wrong = try DictionaryTrainer.train(samples: (0..<2000).map { _ in strokes.upsertStroke() }, size: 8192, id: 500)
        let payload = Self.playbackSamples(seed: 40, count: 1)[0]
        let body = try ZstdCompressor().compress(payload, dictionary: right)
        let error = #expect(throws: WireError.self) {
            try ZstdDecompressor().decompress(body, expectedSize: payload.count, dictionary: wrong)
        }
        #expect(error?.kind == .decompressionFailed)
    }

    @Test func aReceiverStopsUsingARemovedDictionaryAndPicksUpOneAddedUnderItsID() throws {
        // The receiver caches its last dictionary lookup; every store change must end it.
        let first = try DictionaryTrainer.train(samples: Self.playbackSamples(seed: 41), size: 4096, id: 600)
        var strokes = SamplePayloads(seed: 42)
        let second = try DictionaryTrainer.train(samples: (0..<2000).map { _ in strokes.upsertStroke() }, size: 4096, id: 600)
        let store = try DictionaryStore([first])
        let sender = try PayloadCompressor(policy: CompressionPolicy(threshold: 0, dictionaryID: 600), dictionaries: store)
        let receiver = try PayloadCompressor(dictionaries: store)
        let payload = Self.playbackSamples(seed: 43, count: 1)[0]
        let body = try #require(try sender.compress(payload))
        #expect(try receiver.decompress(body) == payload)
        #expect(try receiver.decompress(body) == payload)  // from the cached lookup

        #expect(store.remove(id: 600) != nil)
        let missing = #expect(throws: WireError.self) { try receiver.decompress(body) }
        #expect(missing?.kind == .unknownDictionary)
        #expect(missing?.context.contains("600") == true)

        // A different dictionary under the same id: the old body no longer decodes to the payload.
        try store.add(second)
        let result = Result { try receiver.decompress(body) }
        if case .success(let bytes) = result {
            #expect(bytes != payload)
        }
        store.remove(id: 600)
        try store.add(first)
        #expect(try receiver.decompress(body) == payload)
    }
}
