import CZstd
import GroupWireTesting
import Testing

@testable import GroupWireCompression

/// Our one-pass measurement of a zstd frame replaces `ZSTD_findFrameCompressedSize` on
/// every message, so it must reach libzstd's verdict on every input: the same frame size,
/// "cut off" exactly when libzstd says `srcSize_wrong`, and "invalid" exactly when
/// libzstd reports any other error.
@Suite struct ZstdFrameExtentTests {
    private enum Verdict: Hashable {
        case size(Int)
        case truncated
        case invalid
    }

    private func ours(_ bytes: [UInt8]) -> Verdict {
        switch bytes.withUnsafeBytes({ ZstdFrameExtent.measure($0) }) {
        case .frame(_, let size): .size(size)
        case .truncated: .truncated
        case .invalid: .invalid
        }
    }

    private func libzstd(_ bytes: [UInt8]) -> Verdict {
        let result = bytes.withUnsafeBytes { ZSTD_findFrameCompressedSize($0.baseAddress, $0.count) }
        guard ZSTD_isError(result) == 0 else {
            return ZSTD_getErrorCode(result) == ZSTD_error_srcSize_wrong ? .truncated : .invalid
        }
        return .size(result)
    }

    /// Frames with compressed, raw and RLE blocks, one block or several, with and without
    /// a dictionary id.
    private func sampleFrames() throws -> [[UInt8]] {
        var samples = SamplePayloads(seed: 95)
        let dictionary = try DictionaryTrainer.train(samples: (0..<400).map { _ in samples.playbackState() }, size: 4096)
        let compressor = try ZstdCompressor()
        return [
            try compressor.compress([]),
            try compressor.compress(samples.upsertStroke()),
            try compressor.compress(samples.playbackState()),
            try compressor.compress(samples.playbackState(), dictionary: dictionary),
            try compressor.compress(samples.randomBytes(300)),  // a raw block
            try compressor.compress([UInt8](repeating: 7, count: 300_000)),  // RLE blocks
            try compressor.compress(samples.canvasSnapshot()),  // two compressed blocks
        ]
    }

    @Test func completeFramesMeasureTheirWholeLengthAsLibzstdDoes() throws {
        for frame in try sampleFrames() {
            #expect(ours(frame) == .size(frame.count))
            #expect(libzstd(frame) == .size(frame.count))
            // Bytes after the frame are not part of it.
            #expect(ours(frame + [0x28, 0xB5, 0x2F, 0xFD, 0]) == .size(frame.count))
        }
    }

    @Test func everyPrefixOfAFrameIsTruncatedForUsAndForLibzstd() throws {
        for frame in try sampleFrames() {
            let cuts = frame.count <= 2_000 ? Array(4..<frame.count) : Array(stride(from: 4, to: frame.count, by: 97))
            for cut in cuts {
                let prefix = Array(frame.prefix(cut))
                #expect(ours(prefix) == .truncated, "cut at \(cut) of \(frame.count)")
                #expect(libzstd(prefix) == .truncated, "cut at \(cut) of \(frame.count)")
            }
        }
    }

    @Test func windowDescriptorsOverTwoToTheThirtyOneAreInvalidForBoth() {
        // Magic, descriptor 0x00 (window descriptor, no size, no dictionary id), window
        // descriptor, then one empty last raw block.
        for (window, expected) in [(UInt8(0xA8), Verdict.size(9)), (0xB0, .invalid), (0xF8, .invalid)] {
            let frame: [UInt8] = [0x28, 0xB5, 0x2F, 0xFD, 0x00, window, 0x01, 0x00, 0x00]
            #expect(ours(frame) == expected, "window descriptor \(window)")
            #expect(libzstd(frame) == expected, "window descriptor \(window)")
        }
        // The reserved descriptor bit and the reserved block type.
        #expect(ours([0x28, 0xB5, 0x2F, 0xFD, 0x08, 0x00, 0x01, 0x00, 0x00]) == .invalid)
        #expect(libzstd([0x28, 0xB5, 0x2F, 0xFD, 0x08, 0x00, 0x01, 0x00, 0x00]) == .invalid)
        #expect(ours([0x28, 0xB5, 0x2F, 0xFD, 0x00, 0x00, 0x07, 0x00, 0x00]) == .invalid)
        #expect(libzstd([0x28, 0xB5, 0x2F, 0xFD, 0x00, 0x00, 0x07, 0x00, 0x00]) == .invalid)
    }

    @Test func thousandsOfMutatedFramesGetLibzstdsVerdict() throws {
        var generator = SeededRandom(seed: 96)
        var verdicts: [Verdict: Int] = [:]
        for frame in try sampleFrames() where frame.count > 8 {
            for _ in 0..<1_500 {
                var mutated = frame
                // Mostly the header and the first block header, where the structure lives;
                // never the magic, which the decompressor checks before measuring.
                let span = generator.next() % 4 == 0 ? mutated.count - 4 : min(mutated.count - 4, 12)
                let index = 4 + Int(generator.next() % UInt64(span))
                switch generator.next() % 3 {
                case 0: mutated[index] ^= UInt8(1 << (generator.next() % 8))
                case 1: mutated[index] = UInt8(truncatingIfNeeded: generator.next())
                default: mutated.removeLast(Int(generator.next() % UInt64(mutated.count - 4)))
                }
                let expected = libzstd(mutated)
                #expect(ours(mutated) == expected, "\(mutated.prefix(16))")
                verdicts[expected == .truncated || expected == .invalid ? expected : .size(0), default: 0] += 1
            }
        }
        // The mutations reach all three verdicts.
        #expect(verdicts[.truncated, default: 0] > 100)
        #expect(verdicts[.invalid, default: 0] > 100)
        #expect(verdicts[.size(0), default: 0] > 100)
    }
}
