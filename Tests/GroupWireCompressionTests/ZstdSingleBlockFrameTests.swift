import CZstd
import GroupWire
import GroupWireTestSupport
import GroupWireTesting
import Testing

@testable import GroupWireCompression

/// The decompressor's shortcut for the common frame (`ZstdFrameExtent.singleBlockFrame`)
/// must never accept what the general measurement would not: whenever it answers, the
/// general pass finds a frame of exactly the body's length with the same content size
/// and dictionary id.
@Suite struct ZstdSingleBlockFrameTests {
    private func shortcut(_ bytes: [UInt8]) -> (contentSize: UInt64, dictionaryID: UInt32)? {
        bytes.withUnsafeBytes { ZstdFrameExtent.singleBlockFrame($0) }
    }

    /// Checks the shortcut against the general measurement; returns whether it answered.
    @discardableResult
    private func expectAgreement(_ bytes: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
        guard let quick = shortcut(bytes) else { return false }
        guard case .frame(let header, let size) = bytes.withUnsafeBytes({ ZstdFrameExtent.measure($0) }) else {
            Issue.record("shortcut accepted \(bytes.prefix(24)) but the general pass did not", sourceLocation: sourceLocation)
            return true
        }
        #expect(size == bytes.count, sourceLocation: sourceLocation)
        #expect(header.contentSize == quick.contentSize, sourceLocation: sourceLocation)
        #expect(header.dictionaryID == quick.dictionaryID, sourceLocation: sourceLocation)
        return true
    }

    /// A single-segment frame with the given field widths and one last block.
    private func frame(
        dictionaryIDFlag: UInt8, contentSizeFlag: UInt8, checksum: Bool, dictionaryID: UInt32, contentSize: UInt64,
        block: [UInt8]
    ) -> [UInt8] {
        var bytes: [UInt8] = [0x28, 0xB5, 0x2F, 0xFD]
        bytes.append(contentSizeFlag << 6 | 0x20 | (checksum ? 0x04 : 0) | dictionaryIDFlag)
        let idLength = [0, 1, 2, 4][Int(dictionaryIDFlag)]
        bytes += (0..<idLength).map { UInt8(truncatingIfNeeded: dictionaryID >> (8 * $0)) }
        let sizeLength = [1, 2, 4, 8][Int(contentSizeFlag)]
        let stored = sizeLength == 2 ? contentSize - 256 : contentSize
        bytes += (0..<sizeLength).map { UInt8(truncatingIfNeeded: stored >> (8 * UInt64($0))) }
        bytes += block
        if checksum { bytes += [1, 2, 3, 4] }
        return bytes
    }

    @Test func everyFieldWidthReadsTheSameSizeAndIdAsTheGeneralPass() {
        // A raw last block of 12 bytes: header (12 << 3) | Raw_Block | Last_Block.
        let rawBlock: [UInt8] = [UInt8(12 << 3 | 1), 0, 0] + [UInt8](repeating: 0xAB, count: 12)
        let ids: [UInt8: UInt32] = [0: 0, 1: 0xC3, 2: 0xBEEF, 3: 0xDEAD_BEEF]
        let sizes: [UInt8: UInt64] = [0: 12, 1: 256 + 0x1234, 2: 0x1234_5678, 3: 0x0102_0304_0506_0708]
        for (idFlag, id) in ids {
            for (sizeFlag, size) in sizes {
                for checksum in [false, true] {
                    let bytes = frame(
                        dictionaryIDFlag: idFlag, contentSizeFlag: sizeFlag, checksum: checksum, dictionaryID: id,
                        contentSize: size, block: rawBlock)
                    let quick = shortcut(bytes)
                    #expect(quick?.contentSize == size, "id flag \(idFlag), size flag \(sizeFlag)")
                    #expect(quick?.dictionaryID == id, "id flag \(idFlag), size flag \(sizeFlag)")
                    #expect(expectAgreement(bytes))
                }
            }
        }
    }

    @Test func rleBlocksCountOneContentByte() {
        // An RLE last block of 300 repeats: header (300 << 3) | RLE_Block << 1 | Last_Block.
        let header = 300 << 3 | 2 | 1
        let block: [UInt8] = [UInt8(header & 0xFF), UInt8(header >> 8 & 0xFF), UInt8(header >> 16), 0x7E]
        let bytes = frame(
            dictionaryIDFlag: 3, contentSizeFlag: 3, checksum: false, dictionaryID: 5, contentSize: 300, block: block)
        #expect(shortcut(bytes)?.contentSize == 300)
        #expect(expectAgreement(bytes))
    }

    @Test func framesOutsideTheCommonShapeAreLeftToTheGeneralPass() {
        let rawBlock: [UInt8] = [UInt8(12 << 3 | 1), 0, 0] + [UInt8](repeating: 0xAB, count: 12)
        let good = frame(
            dictionaryIDFlag: 2, contentSizeFlag: 0, checksum: false, dictionaryID: 7, contentSize: 12, block: rawBlock)
        #expect(shortcut(good) != nil)
        let blockStart = 4 + 1 + 2 + 1  // magic, descriptor, 2-byte id, 1-byte size
        var notLast = good
        notLast[blockStart] &= 0xFE  // Last_Block cleared: more blocks would follow
        #expect(shortcut(notLast) == nil)
        var reservedType = good
        reservedType[blockStart] |= 0x06
        #expect(shortcut(reservedType) == nil)
        var reservedBit = good
        reservedBit[4] |= 0x08
        #expect(shortcut(reservedBit) == nil)
        var windowed = good
        windowed[4] &= ~0x20  // not single segment: a window descriptor would follow
        #expect(shortcut(windowed) == nil)
        #expect(shortcut(good + [0]) == nil)  // trailing byte
        #expect(shortcut(Array(good.dropLast())) == nil)  // cut off
        var magic = good
        magic[0] = 0x29
        #expect(shortcut(magic) == nil)
        #expect(shortcut(Array(good.prefix(16))) == nil)  // under 17 bytes
    }

    @Test func bodiesOurCompressorWritesTakeTheShortcut() throws {
        var samples = SamplePayloads(seed: 41)
        let dictionary = try DictionaryTrainer.train(samples: (0..<400).map { _ in samples.playbackState() }, size: 4096)
        let compressor = try ZstdCompressor()
        for payload in [samples.upsertStroke(), samples.playbackState(), samples.randomBytes(500)] {
            let plain = try compressor.compress(payload)
            #expect(shortcut(plain)?.contentSize == UInt64(payload.count))
            #expect(expectAgreement(plain))
            let withDictionary = try compressor.compress(payload, dictionary: dictionary)
            #expect(shortcut(withDictionary)?.contentSize == UInt64(payload.count))
            #expect(expectAgreement(withDictionary))
        }
        // More than one block (at most 128 KiB of content each): the general pass measures it.
        let blocks = try compressor.compress([UInt8](repeating: 7, count: 300_000))
        #expect(shortcut(blocks) == nil)
        #expect(blocks.withUnsafeBytes { ZstdFrameExtent.measure($0) }.isFrame)
    }

    @Test func everyCompressionVectorsBodyGetsTheGeneralPassesVerdict() throws {
        var answered = 0
        for vector in try CompressionVector.all() {
            let frame = try FrameDecoder().decode(try Hex.bytes(vector.hex))
            if expectAgreement(frame.body) { answered += 1 }
        }
        // Seven of the vectors are bodies in the common shape (the others are streamed,
        // cut, padded or not zstd on purpose, or otherwise outside the shape).
        #expect(answered >= 7)
    }

    @Test func mutatedFramesNeverGetAnAnswerTheGeneralPassContradicts() throws {
        var samples = SamplePayloads(seed: 42)
        let dictionary = try DictionaryTrainer.train(samples: (0..<400).map { _ in samples.playbackState() }, size: 4096)
        let compressor = try ZstdCompressor()
        let frames = [
            try compressor.compress(samples.upsertStroke()),
            try compressor.compress(samples.playbackState(), dictionary: dictionary),
            try compressor.compress(samples.randomBytes(100)),
            try compressor.compress([UInt8](repeating: 9, count: 5_000)),
        ]
        var generator = SeededRandom(seed: 43)
        var answered = 0
        for original in frames {
            for _ in 0..<3_000 {
                var mutated = original
                // Mostly the header and the first block header, where the shape is decided.
                let index = 4 + Int(generator.next() % UInt64(min(mutated.count - 4, 20)))
                switch generator.next() % 4 {
                case 0: mutated[index] ^= UInt8(1 << (generator.next() % 8))
                case 1: mutated[index] = UInt8(truncatingIfNeeded: generator.next())
                case 2: mutated.removeLast(Int(generator.next() % UInt64(mutated.count - 4)))
                default: mutated += (0..<Int(generator.next() % 5 + 1)).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
                }
                if expectAgreement(mutated) { answered += 1 }
            }
        }
        // The mutations keep some frames in the common shape (content size or id bytes
        // changed), so the agreement is tested on answers, not only on refusals.
        #expect(answered > 500)
    }
}

extension ZstdFrameExtent {
    fileprivate var isFrame: Bool {
        if case .frame = self { return true }
        return false
    }
}
