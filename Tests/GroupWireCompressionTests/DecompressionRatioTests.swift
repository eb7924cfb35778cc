import GroupWire
import Testing

@testable import GroupWireCompression

/// ``Limits/maxDecompressionRatio``: a compressed body may declare at most 64 times its
/// size (or 64 KiB, whichever is more), refused before anything is decompressed.
@Suite struct DecompressionRatioTests {
    /// 16,000,032 bytes that compress to about a kilobyte: the issue's bomb, a snapshot of
    /// eight million empty points, within every wire-size limit.
    static let repetitive = [UInt8](repeating: 0x1A, count: 16_000_032)

    @Test func aBodyDeclaringFarMoreThanTheRatioIsRefusedBeforeDecompressing() throws {
        let compressor = try PayloadCompressor()
        let body = try #require(try compressor.compress(Self.repetitive))
        #expect(body.bytes.count < 2_000)
        do {
            _ = try compressor.decompress(body)
            Issue.record("a \(body.bytes.count)-byte body declaring 16 MB was decompressed")
        } catch {
            #expect(error.kind == .decompressedSizeExceeded)
            #expect(
                error.context
                    == "declared content size 16000032 from \(body.bytes.count) compressed bytes is over maxDecompressionRatio 64 "
                    + "(at most \(Limits.default.decompressionRatioExemption) bytes)")
        }
        // A receiver that chose a higher ratio takes it.
        let trusting = try PayloadCompressor(limits: Limits(maxDecompressionRatio: 100_000))
        #expect(try trusting.decompress(body) == Self.repetitive)
    }

    @Test func smallRepetitiveBodiesAndRealRatiosStillDecompress() throws {
        let compressor = try PayloadCompressor()
        // 64 KiB of one byte: far over 64:1, but within the exemption.
        let flat = [UInt8](repeating: 7, count: 65_536)
        #expect(try compressor.decompress(try #require(try compressor.compress(flat))) == flat)
        // One byte more is over both.
        let over = [UInt8](repeating: 7, count: 65_537)
        #expect(throws: WireError.self) { _ = try compressor.decompress(try #require(try compressor.compress(over))) }
        // 1 MiB that compresses about 10:1 (a byte pattern with a little noise) is fine.
        var state: UInt32 = 1
        let textured = (0..<(1 << 20)).map { index -> UInt8 in
            state = state &* 1_103_515_245 &+ 12_345
            return index % 8 == 0 ? UInt8(truncatingIfNeeded: state >> 16) : UInt8(index % 5)
        }
        let body = try #require(try compressor.compress(textured))
        #expect(textured.count / body.bytes.count < 64)
        #expect(try compressor.decompress(body) == textured)
    }

    @Test func theAllowanceIsTheRatioTimesTheSizeOrTheExemption() {
        let limits = Limits.default
        #expect(limits.maxDecompressedSize(compressedSize: 0) == 65_536)
        #expect(limits.maxDecompressedSize(compressedSize: 1_024) == 65_536)
        #expect(limits.maxDecompressedSize(compressedSize: 1_025) == 65_600)
        #expect(Limits(maxDecompressionRatio: .max).maxDecompressedSize(compressedSize: 3) == .max, "no overflow")
    }
}
