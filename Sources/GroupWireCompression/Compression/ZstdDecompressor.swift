import CZstd
import GroupWire

/// Decompresses zstd bodies without ever producing more than a hard cap of bytes.
///
/// The checks, in order, before any output buffer is allocated:
/// 1. the body is exactly one standard zstd frame (magic `28 B5 2F FD`, no skippable
///    frames, nothing after the frame; a cut-off frame is `.truncated`);
/// 2. if the zstd frame carries a dictionary id, it must be the dictionary given;
/// 3. the expected size (the GroupWire header's `contentSize`) and the size the zstd frame
///    declares are each at most ``maxOutputSize`` (`.decompressedSizeExceeded`), and equal
///    when both are present (`.contentSizeMismatch`).
///
/// A frame that declares its size is decoded in one pass into a buffer of exactly that
/// size. A frame that declares none (streamed by `zstd` from a pipe) is decoded with the
/// streaming API into a buffer that grows up to the cap and no further; its window is
/// capped by ``windowLogMax``, so libzstd never allocates a window larger than
/// `1 << windowLogMax` bytes either.
public final class ZstdDecompressor: Sendable {
    /// Most bytes one body may decompress to.
    public let maxOutputSize: Int
    /// Largest zstd window (as a power of two) a streamed frame may ask for.
    public let windowLogMax: Int
    private let pool: ZstdContextPool

    /// Contexts idle in the pool right now (tests check that they are reused).
    var idleContextCount: Int { pool.idleCount }

    /// Largest window log accepted by default: 2^23 = 8 MiB, what `zstd -19` uses.
    public static let defaultWindowLogMax = 23
    /// Scratch size for frames that do not declare their size: one full zstd block.
    static let streamingChunkSize = 128 * 1024

    /// Creates a decompressor bounded by `limits.maxMessageSize`.
    /// - Parameters:
    ///   - limits: the receiver's limits; the output cap is `limits.maxMessageSize`.
    ///   - maxOutputSize: a stricter cap, if any.
    ///   - maxIdleContexts: contexts kept for reuse between calls (default 4).
    public convenience init(limits: Limits = .default, maxOutputSize: Int? = nil, maxIdleContexts: Int = 4) {
        let cap = min(limits.maxMessageSize, maxOutputSize ?? Int.max)
        self.init(maxOutputSize: cap, windowLogMax: Self.windowLog(for: cap), maxIdleContexts: maxIdleContexts)
    }

    /// Creates a decompressor with explicit caps.
    /// - Parameters:
    ///   - maxOutputSize: most bytes one body may decompress to (clamped to 0...Int.max-1).
    ///   - windowLogMax: largest window log for streamed frames, clamped to 10...27.
    ///   - maxIdleContexts: contexts kept for reuse between calls.
    public init(maxOutputSize: Int, windowLogMax: Int, maxIdleContexts: Int = 4) {
        let windowLogMax = min(max(windowLogMax, ZstdFormat.windowLogAbsoluteMin), 27)
        // Below Int.max so that "one byte past the cap" never overflows.
        self.maxOutputSize = min(max(0, maxOutputSize), Int.max - 1)
        self.windowLogMax = windowLogMax
        self.pool = ZstdContextPool(
            maxIdle: maxIdleContexts,
            create: {
                guard let dctx = ZSTD_createDCtx() else {
                    throw WireError(.decompressionFailed, "ZSTD_createDCtx returned NULL (out of memory)")
                }
                // windowLogMax is within 10...27, so the conversion is exact.
                let result = ZSTD_DCtx_setParameter(dctx, ZSTD_d_windowLogMax, Int32(windowLogMax))
                if ZstdResult.isError(result) {
                    ZSTD_freeDCtx(dctx)
                    throw WireError(
                        .decompressionFailed, "ZSTD_DCtx_setParameter(windowLogMax) failed: \(ZstdResult.name(result))")
                }
                return ZstdContext(pointer: dctx)
            },
            destroy: { ZSTD_freeDCtx($0.pointer) }
        )
    }

    /// The window log needed for `cap` bytes (a window never needs to exceed the whole
    /// output), at most ``defaultWindowLogMax``.
    static func windowLog(for cap: Int) -> Int {
        var log = ZstdFormat.windowLogAbsoluteMin
        while log < defaultWindowLogMax, (1 << log) < cap {
            log += 1  // safe because log stays below 23.
        }
        return log
    }

    /// Decompresses one zstd frame.
    /// - Parameters:
    ///   - body: exactly one zstd frame.
    ///   - expectedSize: the decompressed size the sender declared outside the frame (the
    ///     GroupWire header's `contentSize`), or nil when there is none.
    ///   - dictionary: the dictionary the body was compressed with, or nil.
    /// - Returns: the decompressed bytes, at most ``maxOutputSize`` of them.
    /// - Throws: ``WireError`` of kind `.truncated`, `.trailingBytes`, `.decompressionFailed`,
    ///   `.unknownDictionary`, `.dictionaryMismatch`, `.contentSizeMismatch`,
    ///   `.decompressedSizeExceeded` or `.limitExceeded` (window too large); never traps.
    public func decompress(_ body: [UInt8], expectedSize: Int? = nil, dictionary: ZstdDictionary? = nil) throws
        -> [UInt8]
    {
        let header = try inspect(body, expectedSize: expectedSize, dictionary: dictionary)
        return try pool.withContext { context in
            let dctx = context.pointer
            // The context keeps the dictionary it last used; change it only when needed.
            if context.dictionary !== dictionary {
                let result = ZSTD_DCtx_refDDict(dctx, dictionary?.decompressionDictionary.pointer)
                if ZstdResult.isError(result) {
                    context.isReusable = false
                    throw WireError(.decompressionFailed, "ZSTD_DCtx_refDDict failed: \(ZstdResult.name(result))")
                }
                context.dictionary = dictionary
            }
            if let declared = header.declaredSize {
                // One-pass decoding starts from a clean state on every call.
                return try decompressKnownSize(body, size: declared, dctx: dctx)
            }
            // A streaming session may stop early (error, cap); reset it before reuse.
            defer {
                if ZstdResult.isError(ZSTD_DCtx_reset(dctx, ZSTD_reset_session_only)) {
                    context.isReusable = false
                }
            }
            return try decompressStreaming(body, limit: expectedSize ?? maxOutputSize, exact: expectedSize != nil, dctx: dctx)
        }
    }

    /// What the zstd frame header says, checked against the caller's expectations.
    private struct FrameHeaderFacts {
        var declaredSize: Int?
    }

    private func inspect(_ body: [UInt8], expectedSize: Int?, dictionary: ZstdDictionary?) throws -> FrameHeaderFacts {
        if let expectedSize {
            guard expectedSize >= 0 else {
                throw WireError(.invalidValue, "expected size \(expectedSize) is negative")
            }
            guard expectedSize <= maxOutputSize else {
                throw WireError(
                    .decompressedSizeExceeded,
                    "declared content size \(expectedSize) is over the \(maxOutputSize)-byte limit")
            }
        }
        guard body.count >= 4 else {
            throw WireError(.truncated, offset: body.count, "a zstd frame needs at least 4 bytes, have \(body.count)")
        }
        guard ZstdFormat.startsWithFrameMagic(body) else {
            if ZstdFormat.startsWithSkippableMagic(body) {
                throw WireError(.decompressionFailed, offset: 0, "body is a zstd skippable frame; a data frame is required")
            }
            let seen = body[0..<4].map { String($0, radix: 16, uppercase: true) }.joined(separator: " ")
            throw WireError(.decompressionFailed, offset: 0, "not a zstd frame: magic \(seen), expected 28 B5 2F FD")
        }
        let frameSize = body.withUnsafeBytes { ZSTD_findFrameCompressedSize($0.baseAddress, $0.count) }
        if ZstdResult.isError(frameSize) {
            if ZstdResult.errorCode(frameSize) == ZSTD_error_srcSize_wrong {
                throw WireError(.truncated, offset: body.count, "zstd frame is cut off after \(body.count) bytes")
            }
            throw WireError(.decompressionFailed, "zstd frame header is invalid: \(ZstdResult.name(frameSize))")
        }
        guard frameSize == body.count else {
            throw WireError(
                .trailingBytes, offset: frameSize,
                "\(body.count - frameSize) bytes follow the zstd frame; a body is exactly one frame")
        }
        guard let header = ZstdFrameHeader(body) else {
            throw WireError(.truncated, offset: body.count, "zstd frame header is cut off")
        }
        let frameDictionaryID = header.dictionaryID
        if frameDictionaryID != 0 {
            guard let dictionary else {
                throw WireError(
                    .unknownDictionary, "zstd frame needs dictionary \(frameDictionaryID) but none was given")
            }
            guard dictionary.id == frameDictionaryID else {
                throw WireError(
                    .dictionaryMismatch,
                    "zstd frame was compressed with dictionary \(frameDictionaryID), not \(dictionary.id)")
            }
        }
        guard let contentSize = header.contentSize else {
            return FrameHeaderFacts(declaredSize: nil)
        }
        guard contentSize <= UInt64(maxOutputSize) else {
            throw WireError(
                .decompressedSizeExceeded,
                "zstd frame declares \(contentSize) bytes, over the \(maxOutputSize)-byte limit")
        }
        let declared = Int(contentSize)  // safe because contentSize <= maxOutputSize, an Int.
        if let expectedSize, expectedSize != declared {
            throw WireError(
                .contentSizeMismatch,
                "header declares content size \(expectedSize) but the zstd frame declares \(declared)")
        }
        return FrameHeaderFacts(declaredSize: declared)
    }

    private func decompressKnownSize(_ body: [UInt8], size: Int, dctx: OpaquePointer) throws -> [UInt8] {
        // One extra byte of capacity (and never a zero-capacity buffer): a frame whose blocks
        // produce more than it declared is reported by libzstd, not silently cut.
        var failure: Int?
        let output = try [UInt8](unsafeUninitializedCapacity: size + 1) { buffer, initialized in
            let written = body.withUnsafeBytes { src in
                ZSTD_decompressDCtx(dctx, buffer.baseAddress, buffer.count, src.baseAddress, src.count)
            }
            if ZstdResult.isError(written) {
                initialized = 0
                failure = written
                return
            }
            guard written == size else {
                initialized = 0
                throw WireError(
                    .contentSizeMismatch, "zstd frame declares \(size) bytes but decompressed to \(written)")
            }
            initialized = written
        }
        if let failure {
            throw Self.error(for: failure, call: "ZSTD_decompressDCtx")
        }
        return output
    }

    private func decompressStreaming(_ body: [UInt8], limit: Int, exact: Bool, dctx: OpaquePointer) throws -> [UInt8] {
        // Decode through a fixed scratch chunk and append what each call produced: the
        // output grows only as far as the data really goes, and stops one byte past the
        // limit (enough to know the frame is too large).
        var scratch = [UInt8](repeating: 0, count: min(limit + 1, Self.streamingChunkSize))
        var output: [UInt8] = []
        var consumed = 0
        var finished = false
        while !finished, output.count <= limit {
            let room = min(scratch.count, limit + 1 - output.count)  // >= 1 because output.count <= limit.
            let step = scratch.withUnsafeMutableBytes { dst in
                body.withUnsafeBytes { src in
                    var input = ZSTD_inBuffer(src: src.baseAddress, size: src.count, pos: consumed)
                    var out = ZSTD_outBuffer(dst: dst.baseAddress, size: room, pos: 0)
                    let result = ZSTD_decompressStream(dctx, &out, &input)
                    return (result: result, consumed: input.pos, produced: out.pos)
                }
            }
            if ZstdResult.isError(step.result) {
                throw Self.error(for: step.result, call: "ZSTD_decompressStream")
            }
            let progressed = step.consumed != consumed || step.produced != 0
            consumed = step.consumed
            output.append(contentsOf: scratch[0..<step.produced])
            if step.result == 0 {
                finished = true
            } else if !progressed {
                // All input consumed, output room left, frame not finished: cut off.
                throw WireError(.truncated, offset: body.count, "zstd frame is cut off after \(body.count) bytes")
            }
        }
        if output.count > limit {
            if exact {
                throw WireError(
                    .contentSizeMismatch, "header declares content size \(limit) but the zstd frame decompresses to more")
            }
            throw WireError(
                .decompressedSizeExceeded, "zstd frame decompresses to more than the \(limit)-byte limit")
        }
        if exact, output.count != limit {
            throw WireError(
                .contentSizeMismatch,
                "header declares content size \(limit) but the zstd frame decompresses to \(output.count)")
        }
        guard consumed == body.count else {
            throw WireError(.trailingBytes, offset: consumed, "\(body.count - consumed) bytes follow the zstd frame")
        }
        return output
    }

    /// Maps a libzstd decompression error to a typed error.
    static func error(for code: Int, call: String) -> WireError {
        let name = ZstdResult.name(code)
        switch ZstdResult.errorCode(code) {
        case ZSTD_error_dictionary_wrong:
            return WireError(.dictionaryMismatch, "\(call): \(name)")
        case ZSTD_error_frameParameter_windowTooLarge:
            return WireError(.limitExceeded, "\(call): the frame's window is over the 2^windowLogMax cap: \(name)")
        case ZSTD_error_srcSize_wrong:
            return WireError(.truncated, "\(call): \(name)")
        case ZSTD_error_dstSize_tooSmall:
            return WireError(.contentSizeMismatch, "\(call): frame produces more than it declares: \(name)")
        default:
            return WireError(.decompressionFailed, "\(call): \(name)")
        }
    }
}
