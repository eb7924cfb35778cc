import CZstd

/// Direct libzstd calls, the baseline our layer is measured against: one context made
/// once with the same parameters, the dictionary referenced once, preallocated buffers.
final class RawZstd {
    let cctx: OpaquePointer
    let dctx: OpaquePointer
    let cdict: OpaquePointer?
    let ddict: OpaquePointer?
    var output: [UInt8]

    init(level: Int32, dictionary: [UInt8]?, capacity: Int) throws {
        guard let cctx = ZSTD_createCCtx(), let dctx = ZSTD_createDCtx() else {
            throw BenchmarkFailure("ZSTD_createCCtx/DCtx failed")
        }
        self.cctx = cctx
        self.dctx = dctx
        for (parameter, value) in [
            (ZSTD_c_compressionLevel, level), (ZSTD_c_contentSizeFlag, 1), (ZSTD_c_checksumFlag, 0),
            (ZSTD_c_dictIDFlag, 0),
        ] {
            try Self.check(ZSTD_CCtx_setParameter(cctx, parameter, value))
        }
        if let dictionary {
            cdict = dictionary.withUnsafeBytes { ZSTD_createCDict($0.baseAddress, $0.count, level) }
            ddict = dictionary.withUnsafeBytes { ZSTD_createDDict($0.baseAddress, $0.count) }
            guard let cdict, let ddict else { throw BenchmarkFailure("ZSTD_createCDict/DDict failed") }
            try Self.check(ZSTD_CCtx_refCDict(cctx, cdict))
            try Self.check(ZSTD_DCtx_refDDict(dctx, ddict))
        } else {
            cdict = nil
            ddict = nil
        }
        output = [UInt8](repeating: 0, count: max(capacity, ZSTD_compressBound(capacity)))
    }

    deinit {
        ZSTD_freeCCtx(cctx)
        ZSTD_freeDCtx(dctx)
        ZSTD_freeCDict(cdict)
        ZSTD_freeDDict(ddict)
    }

    static func check(_ code: Int) throws {
        if ZSTD_isError(code) != 0 {
            throw BenchmarkFailure(String(cString: ZSTD_getErrorName(code)))
        }
    }

    /// ZSTD_compress2 into the preallocated buffer; returns the compressed size.
    func compress(_ input: [UInt8]) throws -> Int {
        let cctx = self.cctx
        return try into(output: input) { ZSTD_compress2(cctx, $0, $1, $2, $3) }
    }

    /// ZSTD_decompressDCtx into the preallocated buffer; returns the decompressed size.
    func decompress(_ body: [UInt8]) throws -> Int {
        let dctx = self.dctx
        return try into(output: body) { ZSTD_decompressDCtx(dctx, $0, $1, $2, $3) }
    }

    /// ZSTD_compress2 into a new array, as any Swift caller that keeps the result must.
    func compressToArray(_ input: [UInt8]) throws -> [UInt8] {
        let cctx = self.cctx
        return try newArray(capacity: ZSTD_compressBound(input.count), from: input) { ZSTD_compress2(cctx, $0, $1, $2, $3) }
    }

    /// ZSTD_decompressDCtx into a new array of the known size.
    func decompressToArray(_ body: [UInt8], size: Int) throws -> [UInt8] {
        let dctx = self.dctx
        return try newArray(capacity: size, from: body) { ZSTD_decompressDCtx(dctx, $0, $1, $2, $3) }
    }

    private func newArray(
        capacity: Int, from input: [UInt8], _ call: (UnsafeMutableRawPointer?, Int, UnsafeRawPointer?, Int) -> Int
    ) throws -> [UInt8] {
        var failure = 0
        let result = [UInt8](unsafeUninitializedCapacity: max(1, capacity)) { buffer, count in
            let written = input.withUnsafeBytes {
                call(UnsafeMutableRawPointer(buffer.baseAddress), buffer.count, $0.baseAddress, $0.count)
            }
            if ZSTD_isError(written) != 0 { failure = written; count = 0 } else { count = written }
        }
        try Self.check(failure)
        return result
    }

    /// Runs a libzstd `(dst, dstCapacity, src, srcSize)` call from `input` into `output`.
    private func into(
        output input: [UInt8], _ call: (UnsafeMutableRawPointer?, Int, UnsafeRawPointer?, Int) -> Int
    ) throws -> Int {
        let written = output.withUnsafeMutableBytes { dst in
            input.withUnsafeBytes { src in call(dst.baseAddress, dst.count, src.baseAddress, src.count) }
        }
        try Self.check(written)
        return written
    }
}

struct BenchmarkFailure: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}
