import Foundation
import GroupWire
import Testing

@testable import GroupWireCompression

/// Real bombs made by the zstd tool: a gibibyte of zeros in ~33 KB. Decoding them must
/// stop at the cap with a typed error, quickly, and without the memory to match.
@Suite(.serialized, .enabled(if: ZstdCLI.isAvailable, "the zstd command-line tool is not installed at /usr/bin/zstd"))
struct DecompressionBombTests {
    static let gibibyte = 1 << 30
    /// Most the peak resident size may grow while decoding one bomb.
    static let memoryBudget = 64 << 20

    /// 1 GiB of zeros at level 19 with the content size in the frame header.
    static func sizedBomb() throws -> [UInt8] {
        try sizedBombResult.get()
    }

    /// 1 GiB of zeros at level 19 streamed from a pipe: no content size, an 8 MiB window.
    static func streamedBomb() throws -> [UInt8] {
        try streamedBombResult.get()
    }

    // Made once per test run (about a second each), shared by the tests below.
    private static let sizedBombResult = Result {
        try ZstdCLI.shell("head -c \(gibibyte) /dev/zero | \(ZstdCLI.path) -q -c -19 --stream-size=\(gibibyte)")
    }
    private static let streamedBombResult = Result {
        try ZstdCLI.shell("head -c \(gibibyte) /dev/zero | \(ZstdCLI.path) -q -c -19 --no-content-size")
    }

    private func decodeKind(_ body: [UInt8], expectedSize: Int?, decompressor: ZstdDecompressor) -> (WireError.Kind?, Int?) {
        var kind: WireError.Kind?
        let growth = ProcessMemory.peakGrowth {
            do {
                _ = try decompressor.decompress(body, expectedSize: expectedSize)
            } catch let error as WireError {
                kind = error.kind
            } catch {
                kind = WireError.Kind(name: "untyped")
            }
        }
        return (kind, growth)
    }

    @Test func aBombDeclaringAGibibyteIsRejectedBeforeAnythingIsAllocated() throws {
        let bomb = try Self.sizedBomb()
        #expect(bomb.count < 64 * 1024)
        let (kind, growth) = decodeKind(bomb, expectedSize: nil, decompressor: ZstdDecompressor())
        #expect(kind == .decompressedSizeExceeded)
        if let growth { #expect(growth < 4 << 20, "peak RSS grew \(growth) bytes") }
        // Lying about the size in our header does not help: the frame's own size is checked.
        let (lied, _) = decodeKind(bomb, expectedSize: 100, decompressor: ZstdDecompressor())
        #expect(lied == .decompressedSizeExceeded)
    }

    @Test func aStreamedBombStopsAtTheMessageLimitWithSmallMemory() throws {
        let bomb = try Self.streamedBomb()
        let frame = ZstdFrameBytes(bytes: bomb)
        #expect(frame.contentSizeFlag == 0 && !frame.singleSegment)
        let (kind, growth) = decodeKind(bomb, expectedSize: nil, decompressor: ZstdDecompressor(limits: .default))
        #expect(kind == .decompressedSizeExceeded)
        if let growth { #expect(growth < Self.memoryBudget, "peak RSS grew \(growth) bytes") }
    }

    @Test func aStreamedBombWithASmallDeclaredSizeIsAContentSizeMismatch() throws {
        let bomb = try Self.streamedBomb()
        let (kind, growth) = decodeKind(bomb, expectedSize: 1000, decompressor: ZstdDecompressor())
        #expect(kind == .contentSizeMismatch)
        if let growth { #expect(growth < 4 << 20, "peak RSS grew \(growth) bytes") }
        let (over, _) = decodeKind(bomb, expectedSize: Self.gibibyte, decompressor: ZstdDecompressor())
        #expect(over == .decompressedSizeExceeded)
    }

    @Test func aStreamedFrameWithAWindowOverTheCapIsRejected() throws {
        let body = try ZstdCLI.shell(
            "head -c 100000 /dev/zero | \(ZstdCLI.path) -q -c --no-content-size --zstd=wlog=27")
        // A 1 MiB cap allows windows up to 2^20.
        let decompressor = ZstdDecompressor(limits: Limits(maxMessageSize: 1 << 20))
        #expect(decompressor.windowLogMax == 20)
        let (kind, _) = decodeKind(body, expectedSize: nil, decompressor: decompressor)
        #expect(kind == .limitExceeded)
        // The same bytes are fine for a receiver that allows the window.
        let roomy = ZstdDecompressor(maxOutputSize: 1 << 20, windowLogMax: 27)
        #expect(try roomy.decompress(body) == [UInt8](repeating: 0, count: 100_000))
    }
}
