import GroupWire
import Testing

@testable import GroupWireCompression

@Suite struct BoundedDecompressionTests {
    let payload: [UInt8]
    let body: [UInt8]

    init() throws {
        var samples = SamplePayloads(seed: 20)
        payload = samples.canvasSnapshot(strokes: 10)
        body = try ZstdCompressor().compress(payload)
    }

    private func kind(
        _ body: [UInt8], expectedSize: Int? = nil, dictionary: ZstdDictionary? = nil,
        decompressor: ZstdDecompressor = ZstdDecompressor()
    ) -> WireError.Kind? {
        do {
            _ = try decompressor.decompress(body, expectedSize: expectedSize, dictionary: dictionary)
            return nil
        } catch {
            return error.kind
        }
    }

    @Test func everyTruncationOfABodyIsATypedTruncatedError() {
        for cut in [0, 1, 3, 4, 6, body.count / 2, body.count - 1] {
            #expect(kind(Array(body.prefix(cut)), expectedSize: payload.count) == .truncated, "cut at \(cut)")
        }
    }

    @Test func bytesAfterTheZstdFrameAreTrailingBytes() {
        #expect(kind(body + [0], expectedSize: payload.count) == .trailingBytes)
        // Two concatenated frames are not one body either.
        #expect(kind(body + body, expectedSize: payload.count) == .trailingBytes)
    }

    @Test func aReservedBlockTypeIsADecompressionFailure() {
        var corrupted = body
        let block = ZstdFrameBytes(bytes: body).firstBlockOffset
        corrupted[block] |= 0x06  // block type 3 is reserved
        #expect(kind(corrupted, expectedSize: payload.count) == .decompressionFailed)
    }

    @Test func aReservedFrameHeaderBitIsADecompressionFailure() {
        var corrupted = body
        corrupted[4] |= 0x08
        #expect(kind(corrupted, expectedSize: payload.count) == .decompressionFailed)
    }

    @Test func garbledCompressedBlocksAreADecompressionFailure() {
        var corrupted = body
        let start = ZstdFrameBytes(bytes: body).firstBlockOffset + 3
        for index in start..<min(start + 64, corrupted.count) {
            corrupted[index] = 0xFF
        }
        #expect(kind(corrupted, expectedSize: payload.count) == .decompressionFailed)
    }

    @Test func aBodyThatIsNotAZstdFrameIsRejectedByItsMagic() {
        #expect(kind([0x00, 0x01, 0x02, 0x03, 0x04], expectedSize: 1) == .decompressionFailed)
        // A skippable frame (magic 0x184D2A50) with 0 bytes of content.
        #expect(kind([0x50, 0x2A, 0x4D, 0x18, 0, 0, 0, 0], expectedSize: 0) == .decompressionFailed)
    }

    @Test func aDeclaredSizeOverTheLimitIsRejectedBeforeDecompressing() throws {
        let small = ZstdDecompressor(maxOutputSize: payload.count - 1, windowLogMax: 20)
        // The zstd frame declares payload.count bytes: over the cap.
        #expect(kind(body, decompressor: small) == .decompressedSizeExceeded)
        // The header's declared size is over the cap too.
        #expect(kind(body, expectedSize: Int.max, decompressor: ZstdDecompressor()) == .decompressedSizeExceeded)
        // Extreme caps are clamped rather than trapping on "cap + 1".
        #expect(ZstdDecompressor(maxOutputSize: Int.max, windowLogMax: 23).maxOutputSize == Int.max - 1)
        #expect(ZstdDecompressor(maxOutputSize: -5, windowLogMax: 23).maxOutputSize == 0)
        #expect(
            kind(body, expectedSize: Int.max - 1, decompressor: ZstdDecompressor(maxOutputSize: Int.max, windowLogMax: 23))
                == .contentSizeMismatch)
        let limits = Limits(maxMessageSize: 1000)
        #expect(ZstdDecompressor(limits: limits).maxOutputSize == 1000)
        #expect(ZstdDecompressor(limits: limits, maxOutputSize: 10).maxOutputSize == 10)
    }

    @Test func aHeaderSizeThatDisagreesWithTheZstdFrameIsAContentSizeMismatch() {
        #expect(kind(body, expectedSize: payload.count - 1) == .contentSizeMismatch)
        #expect(kind(body, expectedSize: payload.count + 1) == .contentSizeMismatch)
    }

    @Test func theWindowCapFollowsTheOutputCap() {
        #expect(ZstdDecompressor(maxOutputSize: 1 << 30, windowLogMax: 40).windowLogMax == 27)
        #expect(ZstdDecompressor(limits: Limits(maxMessageSize: 1000)).windowLogMax == 10)
        #expect(ZstdDecompressor(limits: Limits(maxMessageSize: 100_000)).windowLogMax == 17)
        #expect(ZstdDecompressor(limits: .default).windowLogMax == 23)
    }

    @Test func payloadCompressorChecksCodecDictionaryAndSizeBeforeDecompressing() throws {
        let compressor = try PayloadCompressor(limits: Limits(maxMessageSize: 1 << 20))
        func kindOf(codec: UInt8 = 1, dictionaryID: UInt32 = 0, contentSize: UInt64) -> WireError.Kind? {
            do {
                let info = CompressionInfo(codec: codec, dictionaryID: dictionaryID, contentSize: contentSize)
                _ = try compressor.decompress(body, info: info)
                return nil
            } catch {
                return error.kind
            }
        }
        let size = UInt64(payload.count)
        #expect(try compressor.decompress(body, info: CompressionInfo(contentSize: size)) == payload)
        #expect(kindOf(codec: 2, contentSize: size) == .unknownCodec)
        #expect(kindOf(codec: 0, contentSize: size) == .unknownCodec)
        #expect(kindOf(dictionaryID: 77, contentSize: size) == .unknownDictionary)
        #expect(kindOf(contentSize: UInt64.max) == .decompressedSizeExceeded)
        #expect(kindOf(contentSize: (1 << 20) + 1) == .decompressedSizeExceeded)
        #expect(kindOf(contentSize: size + 1) == .contentSizeMismatch)
    }

    @Test func aMissingDictionaryErrorNamesTheDictionaryID() throws {
        let compressor = try PayloadCompressor()
        let error = #expect(throws: WireError.self) {
            try compressor.decompress(body, info: CompressionInfo(dictionaryID: 31_337, contentSize: UInt64(payload.count)))
        }
        #expect(error?.kind == .unknownDictionary)
        #expect(error?.context.contains("31337") == true)
    }
}
