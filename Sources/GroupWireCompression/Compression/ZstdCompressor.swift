import CZstd
import GroupWire

/// Compresses bodies into standard zstd frames (RFC 8878), reusing its libzstd contexts.
///
/// Every body it writes is exactly one zstd frame with the content size in the frame
/// header, no content checksum (the GroupWire frame's CRC32C already covers the bytes) and
/// no dictionary id (the GroupWire frame header carries it). `zstd -d` decodes the body
/// (`zstd -d -D DICT` for dictionary bodies).
///
/// Contexts are created with their parameters once and kept in a small pool, so no
/// message pays for context setup; concurrent callers each borrow their own context.
public final class ZstdCompressor: Sendable {
    /// The compression level (1...19 are the usual ones; negative levels are faster).
    public let level: Int32
    private let pool: ZstdContextPool

    /// Contexts idle in the pool right now (tests check that they are reused).
    var idleContextCount: Int { pool.idleCount }

    /// Creates a compressor.
    /// - Parameters:
    ///   - level: a zstd level in `ZSTD_minCLevel()...ZSTD_maxCLevel()`.
    ///   - maxIdleContexts: contexts kept for reuse between calls (default 4).
    /// - Throws: `WireError` `.invalidValue` for a level out of range.
    public init(level: Int = CompressionPolicy.defaultLevel, maxIdleContexts: Int = 4) throws(WireError) {
        let range = Int(ZSTD_minCLevel())...Int(ZSTD_maxCLevel())
        guard range.contains(level), level != 0 else {
            throw WireError(
                .invalidValue, "compression level \(level) is outside \(range.lowerBound)...\(range.upperBound) or 0")
        }
        let level = Int32(level)  // in range, checked above.
        self.level = level
        self.pool = ZstdContextPool(
            maxIdle: maxIdleContexts,
            create: { () throws(WireError) in try Self.makeContext(level: level) },
            destroy: { ZSTD_freeCCtx($0.pointer) }
        )
    }

    private static func makeContext(level: Int32) throws(WireError) -> ZstdContext {
        guard let cctx = ZSTD_createCCtx() else {
            throw WireError(.compressionFailed, "ZSTD_createCCtx returned NULL (out of memory)")
        }
        let parameters: [(ZSTD_cParameter, Int32, String)] = [
            (ZSTD_c_compressionLevel, level, "compressionLevel"),
            (ZSTD_c_contentSizeFlag, 1, "contentSizeFlag"),
            (ZSTD_c_checksumFlag, 0, "checksumFlag"),
            (ZSTD_c_dictIDFlag, 0, "dictIDFlag"),
        ]
        for (parameter, value, name) in parameters {
            let result = ZSTD_CCtx_setParameter(cctx, parameter, value)
            if ZstdResult.isError(result) {
                ZSTD_freeCCtx(cctx)
                throw WireError(
                    .compressionFailed, "ZSTD_CCtx_setParameter(\(name), \(value)) failed: \(ZstdResult.name(result))")
            }
        }
        return ZstdContext(pointer: cctx)
    }

    /// Compresses `input` into one zstd frame.
    /// - Parameters:
    ///   - input: the bytes to compress.
    ///   - dictionary: a dictionary to compress with, or nil.
    /// - Returns: the zstd frame.
    /// - Throws: `WireError` `.compressionFailed` if libzstd fails.
    public func compress(_ input: [UInt8], dictionary: ZstdDictionary? = nil) throws(WireError) -> [UInt8] {
        let bound = ZSTD_compressBound(input.count)
        try ZstdResult.check(bound, .compressionFailed, "ZSTD_compressBound(\(input.count))")
        guard let frame = try compress(input, dictionary: dictionary, capacity: bound) else {
            throw WireError(.compressionFailed, "a \(input.count)-byte input did not fit its compress bound \(bound)")
        }
        return frame
    }

    /// Compresses `input` into one zstd frame of at most `capacity` bytes.
    ///
    /// This is how the policy keeps only bodies that shrink: with `capacity` one less than
    /// the input size, libzstd stops as soon as the frame cannot be smaller.
    /// - Returns: the frame, or nil when it would be longer than `capacity`.
    /// - Throws: `WireError` `.compressionFailed` if libzstd fails for another reason.
    public func compress(_ input: [UInt8], dictionary: ZstdDictionary?, capacity: Int) throws(WireError) -> [UInt8]? {
        guard capacity > 0 else {
            return nil
        }
        let level = self.level
        return try pool.withContext { (context) throws(WireError) -> [UInt8]? in
            let cctx = context.pointer
            // ZSTD_compress2 starts a fresh session itself; only the dictionary may need
            // changing, and the context keeps the one it last used.
            if context.dictionary !== dictionary {
                let cdict = try dictionary?.compressionDictionary(level: level)
                let result = ZSTD_CCtx_refCDict(cctx, cdict?.pointer)
                if ZstdResult.isError(result) {
                    context.isReusable = false
                    throw WireError(.compressionFailed, "ZSTD_CCtx_refCDict failed: \(ZstdResult.name(result))")
                }
                context.dictionary = dictionary
            }
            var tooSmall = false
            var failure: WireError?
            let frame = [UInt8](unsafeUninitializedCapacity: capacity) { buffer, initialized in
                let written = input.withUnsafeBytes { src in
                    ZSTD_compress2(cctx, buffer.baseAddress, buffer.count, src.baseAddress, src.count)
                }
                if ZstdResult.isError(written) {
                    initialized = 0
                    if ZstdResult.errorCode(written) == ZSTD_error_dstSize_tooSmall {
                        tooSmall = true
                        return
                    }
                    // The initializer rethrows untyped errors: the failure is thrown after it.
                    failure = WireError(.compressionFailed, "ZSTD_compress2 failed: \(ZstdResult.name(written))")
                    return
                }
                initialized = min(written, buffer.count)
            }
            if let failure { throw failure }
            guard !tooSmall else {
                return nil
            }
            // The buffer was sized for the worst case; when that wastes more than 4 KiB,
            // hand back a right-sized copy (a few µs against milliseconds of compression).
            guard capacity - frame.count > 4096 else {
                return frame
            }
            return frame.withUnsafeBufferPointer { Array($0) }
        }
    }
}
