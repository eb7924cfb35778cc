import CZstd
import Foundation
import GroupWireCompression

/// `BENCH_MICRO=1`: where the time of one small decompression goes (for tuning the layer).
func runMicro() throws {
    var shapes = MessageShapes(seed: 9)
    let messages = (0..<256).map { _ in shapes.playbackState() }
    let compressor = try ZstdCompressor()
    let bodies = try messages.map { try compressor.compress($0) }
    let raw = try RawZstd(level: 3, dictionary: nil, capacity: 4096)
    let decompressor = ZstdDecompressor()
    var harness = Harness(rounds: 21, targetRoundNanoseconds: 5_000_000)
    harness.filter = nil
    harness.add("raw decompress") { n in
        var total = 0
        for i in 0..<n { total &+= try raw.decompress(bodies[i & 255]) }
        return total
    }
    harness.add("raw decompress + new array") { n in
        var total = 0
        let dctx = raw.dctx
        for i in 0..<n {
            let body = bodies[i & 255]
            let out = [UInt8](unsafeUninitializedCapacity: messages[i & 255].count + 1) { buffer, count in
                count = body.withUnsafeBytes { ZSTD_decompressDCtx(dctx, buffer.baseAddress, buffer.count, $0.baseAddress, $0.count) }
            }
            total &+= out.count
        }
        return total
    }
    harness.add("header parses x3") { n in
        var total = 0
        for i in 0..<n {
            bodies[i & 255].withUnsafeBytes {
                total &+= ZSTD_findFrameCompressedSize($0.baseAddress, $0.count)
                total &+= Int(ZSTD_getDictID_fromFrame($0.baseAddress, $0.count))
                total &+= Int(truncatingIfNeeded: ZSTD_getFrameContentSize($0.baseAddress, $0.count))
            }
        }
        return total
    }
    harness.add("ours decompress") { n in
        var total = 0
        for i in 0..<n { total &+= try decompressor.decompress(bodies[i & 255], expectedSize: messages[i & 255].count).count }
        return total
    }
    harness.add("ours compress") { n in
        var total = 0
        for i in 0..<n { total &+= try compressor.compress(messages[i & 255]).count }
        return total
    }
    harness.add("raw compress") { n in
        var total = 0
        for i in 0..<n { total &+= try raw.compress(messages[i & 255]) }
        return total
    }
    harness.add("raw compress into new bound array") { n in
        var total = 0
        let cctx = raw.cctx
        for i in 0..<n {
            let message = messages[i & 255]
            let out = [UInt8](unsafeUninitializedCapacity: ZSTD_compressBound(message.count)) { buffer, count in
                count = message.withUnsafeBytes { ZSTD_compress2(cctx, buffer.baseAddress, buffer.count, $0.baseAddress, $0.count) }
            }
            total &+= out.count
        }
        return total
    }
    var small = [UInt8](repeating: 0, count: 300)
    var large = [UInt8](repeating: 0, count: 1 << 16)
    harness.add("raw compress into reused 300 B buffer") { n in
        var total = 0
        let cctx = raw.cctx
        for i in 0..<n {
            total &+= small.withUnsafeMutableBytes { dst in messages[i & 255].withUnsafeBytes { ZSTD_compress2(cctx, dst.baseAddress, dst.count, $0.baseAddress, $0.count) } }
        }
        return total
    }
    harness.add("raw compress into reused 64 KiB buffer") { n in
        var total = 0
        let cctx = raw.cctx
        for i in 0..<n {
            total &+= large.withUnsafeMutableBytes { dst in messages[i & 255].withUnsafeBytes { ZSTD_compress2(cctx, dst.baseAddress, dst.count, $0.baseAddress, $0.count) } }
        }
        return total
    }
    harness.add("raw compress into reused buffer + copy out") { n in
        var total = 0
        let cctx = raw.cctx
        for i in 0..<n {
            let written = small.withUnsafeMutableBytes { dst in messages[i & 255].withUnsafeBytes { ZSTD_compress2(cctx, dst.baseAddress, dst.count, $0.baseAddress, $0.count) } }
            let out = Array(small[0..<written])
            total &+= out.count
        }
        return total
    }
    harness.add("raw compress into new 4 KiB array") { n in
        var total = 0
        let cctx = raw.cctx
        for i in 0..<n {
            let message = messages[i & 255]
            let out = [UInt8](unsafeUninitializedCapacity: 4096) { buffer, count in
                count = message.withUnsafeBytes { ZSTD_compress2(cctx, buffer.baseAddress, buffer.count, $0.baseAddress, $0.count) }
            }
            total &+= out.count
        }
        return total
    }
    harness.add("raw compress, new cctx per call") { n in
        var total = 0
        for i in 0..<n {
            let cctx = ZSTD_createCCtx()
            ZSTD_CCtx_setParameter(cctx, ZSTD_c_compressionLevel, 3)
            total &+= raw.output.withUnsafeMutableBytes { dst in messages[i & 255].withUnsafeBytes { ZSTD_compress2(cctx, dst.baseAddress, dst.count, $0.baseAddress, $0.count) } }
            ZSTD_freeCCtx(cctx)
        }
        return total
    }
    let results = try harness.measure()
    for testCase in harness.cases {
        print(testCase.name, formatTime(results.median(testCase.name)))
    }
}
