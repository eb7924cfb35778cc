import CZstd
import GroupWire
import GroupWireJSON

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
            create: { () throws(WireError) in
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
    /// - Throws: `WireError` of kind `.truncated`, `.trailingBytes`, `.decompressionFailed`,
    ///   `.unknownDictionary`, `.dictionaryMismatch`, `.contentSizeMismatch`,
    ///   `.decompressedSizeExceeded` or `.limitExceeded` (window too large); never traps.
    public func decompress(_ body: [UInt8], expectedSize: Int? = nil, dictionary: ZstdDictionary? = nil) throws(WireError)
        -> [UInt8]
    {
        // One scoped view of the bytes serves the checks and the decoding. (withUnsafeBytes
        // and _withUnsafeGuaranteedRef rethrow untyped errors: a Result keeps the type.)
        try body.withUnsafeBytes { raw in
            Result { () throws(WireError) -> [UInt8] in
                // safe because the caller's reference keeps the dictionary alive for the call.
                let dictionary = DictionaryHandle(dictionary)
                let declaredSize = try inspect(raw, expectedSize: expectedSize, dictionary: dictionary)
                // borrow/giveBack rather than pool.withContext: no closure context to capture
                // body, dictionary and self into (three retains and releases per message).
                let borrowed = try pool.borrow()
                defer { pool.giveBack(borrowed) }
                // safe because the borrowed +1 reference keeps the context alive until giveBack.
                return try borrowed._withUnsafeGuaranteedRef { context in
                    Result { () throws(WireError) -> [UInt8] in
                        try decode(
                            body, raw, declaredSize: declaredSize, expectedSize: expectedSize, dictionary: dictionary,
                            context: context)
                    }
                }.get()
            }
        }.get()
    }

    /// Decompresses a body whose dictionary (when `dictionaryID` is not 0) comes from
    /// `store`: the receiver's path through ``PayloadCompressor``.
    ///
    /// The context remembers the dictionary it last looked up, in which store, and the
    /// store's ``DictionaryStore/generation`` then: a receiver getting message after
    /// message with the same dictionary skips the store's lock and hash lookup, while any
    /// add or remove forces a fresh lookup. The dictionary is resolved before the frame
    /// checks (an unknown id is reported first, as before), which is why a context is
    /// borrowed before them; the checks still all run before the output is allocated.
    /// - Throws: `WireError` `.unknownDictionary` naming the id when the store lacks it;
    ///   otherwise as ``decompress(_:expectedSize:dictionary:)``.
    @inline(__always)  // one call less on the receiver's per-message path (PayloadCompressor).
    func decompress(_ body: [UInt8], expectedSize: Int?, dictionaryID: UInt32, from store: DictionaryStore) throws(WireError)
        -> [UInt8]
    {
        let borrowed = try pool.borrow()
        defer { pool.giveBack(borrowed) }
        // safe because the borrowed +1 reference keeps the context alive until giveBack.
        return try borrowed._withUnsafeGuaranteedRef { context in
            Result { () throws(WireError) -> [UInt8] in
                // Handles, not references: no reference counting on the per-message path; safe
                // because the context keeps the looked-up dictionary and its store alive.
                var dictionary = DictionaryHandle.none
                if dictionaryID != 0 {
                    let generation = store.generation
                    if let lookup = context.lookupKey, lookup.dictionary.id == dictionaryID,
                        lookup.store == ObjectIdentifier(store), lookup.generation == generation
                    {
                        dictionary = lookup.dictionary
                    } else {
                        dictionary = try Self.lookUp(dictionaryID, in: store, generation: generation, context: context)
                    }
                }
                return try body.withUnsafeBytes { raw in
                    Result { () throws(WireError) -> [UInt8] in
                        let declaredSize = try inspect(raw, expectedSize: expectedSize, dictionary: dictionary)
                        return try decode(
                            body, raw, declaredSize: declaredSize, expectedSize: expectedSize, dictionary: dictionary,
                            context: context)
                    }
                }.get()
            }
        }.get()
    }

    /// Looks `id` up in `store` (under its lock) and records the lookup in `context`.
    @inline(never)
    private static func lookUp(_ id: UInt32, in store: DictionaryStore, generation: UInt64, context: ZstdContext)
        throws(WireError)
        -> DictionaryHandle
    {
        guard let found = store.dictionary(id: id) else {
            throw WireError(
                .unknownDictionary, "frame was compressed with dictionary \(id), which this receiver does not have")
        }
        // The generation read before the lookup: a change since then only makes the next
        // call look up again.
        return context.rememberLookup(of: found, in: store, generation: generation)
    }

    /// Decodes a checked body (`raw` is a view of `body`) with a borrowed context.
    @inline(__always)
    private func decode(
        _ body: [UInt8], _ raw: UnsafeRawBufferPointer, declaredSize: Int?, expectedSize: Int?, dictionary: DictionaryHandle,
        context: ZstdContext
    ) throws(WireError) -> [UInt8] {
        if let declaredSize {
            // One-pass decoding starts from a clean state on every call and takes the
            // dictionary as an argument, so the context needs no preparing.
            return try Self.decompressKnownSize(
                raw, size: declaredSize, dictionary: dictionary.decompressionDictionary, dctx: context.pointer)
        }
        // Streaming uses the dictionary the context references; change it only when needed.
        let object = dictionary.object?.takeUnretainedValue()
        if context.dictionary !== object {
            try Self.reference(object, in: context)
        }
        return try decompressStreaming(body, expectedSize: expectedSize, context: context)
    }

    /// Points `context` at `dictionary` (or at none) for streaming.
    @inline(never)
    private static func reference(_ dictionary: ZstdDictionary?, in context: ZstdContext) throws(WireError) {
        let result = ZSTD_DCtx_refDDict(context.pointer, dictionary?.decompressionDictionary.pointer)
        if ZstdResult.isError(result) {
            context.isReusable = false
            throw WireError(.decompressionFailed, "ZSTD_DCtx_refDDict failed: \(ZstdResult.name(result))")
        }
        context.dictionary = dictionary
    }

    /// Checks 1 to 3 of the type's documentation, before anything is allocated.
    ///
    /// The common frame (see ``ZstdFrameExtent/singleBlockFrame(_:)``) passes in one short
    /// pass; any other frame, and every frame that fails a check, goes through
    /// ``inspectFully(_:expectedSize:dictionary:)``, which decides the same way and words
    /// the error.
    /// - Returns: the size the zstd frame declares, nil when it declares none.
    @inline(__always)
    private func inspect(_ raw: UnsafeRawBufferPointer, expectedSize: Int?, dictionary: DictionaryHandle) throws(WireError)
        -> Int?
    {
        if let frame = ZstdFrameExtent.singleBlockFrame(raw), frame.contentSize <= UInt64(maxOutputSize),
            frame.dictionaryID == 0 || frame.dictionaryID == dictionary.id
        {
            let declared = Int(frame.contentSize)  // safe because contentSize <= maxOutputSize, an Int.
            if expectedSize == nil || expectedSize == declared {
                return declared
            }
        }
        return try inspectFully(raw, expectedSize: expectedSize, dictionary: dictionary)
    }

    /// Checks 1 to 3 of the type's documentation for any body: one pass over the frame's
    /// header and block headers, then the dictionary id and the sizes.
    /// - Returns: the size the zstd frame declares, nil when it declares none.
    @inline(never)
    private func inspectFully(_ raw: UnsafeRawBufferPointer, expectedSize: Int?, dictionary: DictionaryHandle) throws(WireError)
        -> Int?
    {
        if let expectedSize {
            guard expectedSize >= 0, expectedSize <= maxOutputSize else {
                throw Self.expectedSizeError(expectedSize, limit: maxOutputSize)
            }
        }
        let header = try Self.measureFrame(raw)
        let frameDictionaryID = header.dictionaryID
        if frameDictionaryID != 0, frameDictionaryID != dictionary.id {
            throw Self.dictionaryError(frameDictionaryID, given: dictionary)
        }
        guard let contentSize = header.contentSize else {
            return nil
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
        return declared
    }

    /// Check 1: `raw` is exactly one standard zstd frame. One pass over the header and the
    /// block headers finds where the frame ends (ZSTD_findFrameCompressedSize's verdicts,
    /// cross-checked in tests); libzstd then decodes exactly these bytes.
    @inline(__always)
    private static func measureFrame(_ raw: UnsafeRawBufferPointer) throws(WireError) -> ZstdFrameHeader {
        // safe because raw.count >= 4 is checked first; the magic is 0xFD2FB528 LE.
        guard raw.count >= 4, UInt32(littleEndian: raw.loadUnaligned(as: UInt32.self)) == 0xFD2F_B528 else {
            throw notAFrameError(raw)
        }
        switch ZstdFrameExtent.measure(raw) {
        case .truncated:
            throw WireError(.truncated, offset: 0, "zstd frame is cut off after \(raw.count) bytes")
        case .invalid(let reason):
            throw WireError(.decompressionFailed, "zstd frame is invalid: \(reason)")
        case .frame(let header, let frameSize):
            guard frameSize == raw.count else {
                throw WireError(
                    .trailingBytes, offset: frameSize,
                    "\(raw.count - frameSize) bytes follow the zstd frame; a body is exactly one frame")
            }
            return header
        }
    }

    @inline(never)
    private static func expectedSizeError(_ expectedSize: Int, limit: Int) -> WireError {
        guard expectedSize >= 0 else {
            return WireError(.invalidValue, "expected size \(expectedSize) is negative")
        }
        return WireError(
            .decompressedSizeExceeded, "declared content size \(expectedSize) is over the \(limit)-byte limit")
    }

    @inline(never)
    private static func notAFrameError(_ raw: UnsafeRawBufferPointer) -> WireError {
        guard raw.count >= 4 else {
            return WireError(.truncated, offset: 0, "a zstd frame needs at least 4 bytes, have \(raw.count)")
        }
        let magic = Array(raw.prefix(4))
        if ZstdFormat.startsWithSkippableMagic(magic) {
            return WireError(.decompressionFailed, offset: 0, "body is a zstd skippable frame; a data frame is required")
        }
        let seen = magic.map { Hex.digits($0, uppercase: true) }.joined(separator: " ")
        return WireError(.decompressionFailed, offset: 0, "not a zstd frame: magic \(seen), expected 28 B5 2F FD")
    }

    @inline(never)
    private static func dictionaryError(_ frameDictionaryID: UInt32, given dictionary: DictionaryHandle) -> WireError {
        guard dictionary.id != 0 else {
            return WireError(.unknownDictionary, "zstd frame needs dictionary \(frameDictionaryID) but none was given")
        }
        return WireError(
            .dictionaryMismatch,
            "zstd frame was compressed with dictionary \(frameDictionaryID), not \(dictionary.id)")
    }

    private static func decompressKnownSize(
        _ src: UnsafeRawBufferPointer, size: Int, dictionary: OpaquePointer?, dctx: OpaquePointer
    ) throws(WireError) -> [UInt8] {
        // One extra byte of capacity (and never a zero-capacity buffer): a frame whose blocks
        // produce more than it declared is reported by libzstd, not silently cut.
        var written = 0
        let output = [UInt8](unsafeUninitializedCapacity: size + 1) { buffer, initialized in
            written = ZSTD_decompress_usingDDict(
                dctx, buffer.baseAddress, buffer.count, src.baseAddress, src.count, dictionary)
            // An error code is a negative Int here, never equal to size (>= 0).
            initialized = written == size ? size : 0
        }
        guard written == size else {
            throw knownSizeError(written: written, size: size)
        }
        return output
    }

    @inline(never)
    private static func knownSizeError(written: Int, size: Int) -> WireError {
        if ZstdResult.isError(written) {
            return error(for: written, call: "ZSTD_decompress_usingDDict")
        }
        return WireError(.contentSizeMismatch, "zstd frame declares \(size) bytes but decompressed to \(written)")
    }

    /// Decodes a frame that does not declare its size, then resets the context's session
    /// (it may have stopped early: error, cap) before the context is reused.
    @inline(never)
    private func decompressStreaming(_ body: [UInt8], expectedSize: Int?, context: ZstdContext) throws(WireError) -> [UInt8] {
        defer {
            if ZstdResult.isError(ZSTD_DCtx_reset(context.pointer, ZSTD_reset_session_only)) {
                context.isReusable = false
            }
        }
        return try decompressStreaming(
            body, limit: expectedSize ?? maxOutputSize, exact: expectedSize != nil, dctx: context.pointer)
    }

    private func decompressStreaming(_ body: [UInt8], limit: Int, exact: Bool, dctx: OpaquePointer) throws(WireError) -> [UInt8] {
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
