import GroupWire
import Testing

@testable import GroupWireCompression

@Suite struct DictionarySamplesTests {
    @Test func aFileOfFramesContributesEachDataAndControlPayload() throws {
        var samples = SamplePayloads(seed: 70)
        let payloads = try PayloadCompressor()
        let small = samples.playbackState()
        let large = samples.canvasSnapshot(strokes: 5)
        var writer = ByteWriter()
        try FrameEncoder().encode(try payloads.makeFrame(typeID: 1, payload: small), into: &writer)
        try FrameEncoder().encode(try payloads.makeFrame(kind: .control, typeID: 2, payload: large), into: &writer)
        let fragment = Frame(
            kind: .fragment, typeID: 1,
            fragment: FragmentInfo(messageID: 5, index: 0, count: 2, totalLength: 4, offset: 0), body: [1, 2])
        try FrameEncoder().encode(fragment, into: &writer)
        let extracted = try DictionarySamples.extract(from: writer.bytes, payloads: payloads)
        #expect(extracted.isFrameStream)
        #expect(extracted.samples == [small, large])
        #expect(extracted.skippedFrames == 1)
    }

    @Test func anyOtherFileIsOneSample() throws {
        let payloads = try PayloadCompressor()
        let plain = try DictionarySamples.extract(from: [0x0A, 0x03, 0x61, 0x62, 0x63], payloads: payloads)
        #expect(
            plain
                == DictionarySamples.Extracted(samples: [[0x0A, 0x03, 0x61, 0x62, 0x63]], isFrameStream: false, skippedFrames: 0))
        #expect(try DictionarySamples.extract(from: [], payloads: payloads).samples.isEmpty)
        // C7 alone, without the version byte after it, is not a frame stream.
        #expect(try DictionarySamples.extract(from: [0xC7, 0x02], payloads: payloads).isFrameStream == false)
    }

    @Test func aBrokenFrameStreamIsReportedWithItsOffset() throws {
        let payloads = try PayloadCompressor()
        var wire = try FrameEncoder().encode(Frame(typeID: 1, body: [1, 2, 3]))
        let good = wire.count
        wire += try FrameEncoder().encode(Frame(typeID: 1, body: [4, 5, 6]))
        wire[wire.count - 1] ^= 0xFF
        let error = #expect(throws: WireError.self) { try DictionarySamples.extract(from: wire, payloads: payloads) }
        #expect(error?.kind == .checksumMismatch)
        #expect(error?.offset.map { $0 >= good } == true)
    }

    @Test func aCompressedFrameWithAnUnknownDictionaryIsReportedWithItsOffset() throws {
        let frame = Frame(
            typeID: 1, compression: CompressionInfo(dictionaryID: 99, contentSize: 3), body: [0x28, 0xB5, 0x2F, 0xFD])
        let wire = try FrameEncoder().encode(frame)
        let error = #expect(throws: WireError.self) {
            try DictionarySamples.extract(from: wire, payloads: try PayloadCompressor())
        }
        #expect(error?.kind == .unknownDictionary)
        #expect(error?.offset == 0)
        #expect(error?.context.contains("99") == true)
    }
}
