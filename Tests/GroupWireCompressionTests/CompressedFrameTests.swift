import GroupWire
import Testing

@testable import GroupWireCompression

@Suite struct CompressedFrameTests {
    @Test func aLargePayloadTravelsInACompressedFrameAndComesBack() throws {
        var samples = SamplePayloads(seed: 60)
        let payload = samples.canvasSnapshot(strokes: 20)
        let compressor = try PayloadCompressor()
        let frame = try compressor.makeFrame(typeID: 7, payload: payload)
        #expect(frame.flags == .compressed)
        #expect(frame.compression == CompressionInfo(codec: 1, dictionaryID: 0, contentSize: UInt64(payload.count)))
        #expect(frame.body.count < payload.count)
        let wire = try FrameEncoder().encode(frame)
        // After magic, version and length: kind data (0) with the compressed flag (0x10),
        // the type id, then codec 1, dictionary id 0 and the content size.
        var reader = ByteReader(wire)
        try reader.skip(count: 2)
        _ = try reader.readUVarint()
        #expect(try reader.readByte() == 0x10)
        #expect(try reader.readUVarint() == 7)
        #expect(try reader.readByte() == 1)
        #expect(try reader.readUVarint() == 0)
        #expect(try reader.readUVarint() == UInt64(payload.count))
        #expect(Array(wire[reader.position..<reader.position + 4]) == [0x28, 0xB5, 0x2F, 0xFD])
        let decoded = try FrameDecoder().decode(wire)
        #expect(decoded == frame)
        #expect(try compressor.payload(of: decoded) == payload)
    }

    @Test func aSmallPayloadTravelsUncompressed() throws {
        var samples = SamplePayloads(seed: 61)
        let stroke = samples.upsertStroke()
        let frame = try PayloadCompressor().makeFrame(typeID: 3, payload: stroke)
        #expect(frame.compression == nil)
        #expect(frame.body == stroke)
        #expect(try PayloadCompressor().payload(of: frame) == stroke)
    }

    @Test func aDictionaryFrameCarriesTheDictionaryIDAndAReceiverWithoutItNamesIt() throws {
        var samples = SamplePayloads(seed: 62)
        let dictionary = try DictionaryTrainer.train(samples: (0..<500).map { _ in samples.playbackState() }, id: 0x1234)
        let sender = try PayloadCompressor(
            policy: CompressionPolicy(dictionaryID: 0x1234), dictionaries: try DictionaryStore([dictionary]))
        let payload = samples.playbackState()
        let wire = try FrameEncoder().encode(try sender.makeFrame(typeID: 9, payload: payload))
        let decoded = try FrameDecoder().decode(wire)
        #expect(decoded.compression?.dictionaryID == 0x1234)
        #expect(try sender.payload(of: decoded) == payload)
        let stranger = try PayloadCompressor()
        let error = #expect(throws: WireError.self) { try stranger.payload(of: decoded) }
        #expect(error?.kind == .unknownDictionary)
        #expect(error?.context.contains("4660") == true)
    }

    @Test func fragmentFramesAreNotDecompressedOneByOne() throws {
        let compressor = try PayloadCompressor()
        let fragment = Frame(
            kind: .fragment, typeID: 1,
            fragment: FragmentInfo(messageID: 1, index: 0, count: 2, totalLength: 4, offset: 0), body: [1, 2])
        let error = #expect(throws: WireError.self) { try compressor.payload(of: fragment) }
        #expect(error?.kind == .invalidValue)
        #expect(throws: WireError.self) { try compressor.makeFrame(kind: .fragment, typeID: 1, payload: [1]) }
    }
}
