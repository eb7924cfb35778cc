/// One outcome of reading a stream of frames: a frame, or an invalid frame or run of
/// bytes that was skipped.
public struct FrameStreamEvent: Sendable, Hashable {
    /// Where the frame or invalid run starts, counted from the first byte of the stream.
    public let offset: Int
    /// How many bytes of the stream it covers.
    public let length: Int
    /// The frame, or the reason the bytes were rejected (its offset is a stream offset).
    public let result: Result<Frame, WireError>

    /// Creates an event.
    public init(offset: Int, length: Int, result: Result<Frame, WireError>) {
        self.offset = offset
        self.length = length
        self.result = result
    }

    /// The frame, if this event is one.
    public var frame: Frame? {
        if case .success(let frame) = result { return frame }
        return nil
    }

    /// The error, if the bytes were rejected.
    public var error: WireError? {
        if case .failure(let error) = result { return error }
        return nil
    }
}

/// Cuts a byte stream that arrives in chunks of any size into frames.
///
/// Frames may stand back to back (a TCP stream, a frame file). An invalid frame is
/// reported as an event and skipped (Spec/FORMAT.md, "Reading a stream"), so frames already
/// read and frames after it are not lost. The reader buffers at most one frame
/// (``Limits/maxFrameSize``) plus the chunk being appended.
public struct FrameStreamReader: Sendable {
    private let decoder: FrameDecoder
    private var buffer: [UInt8] = []
    /// Index in `buffer` of the first unread byte.
    private var start = 0
    /// Stream offset of `buffer[0]`.
    private var base = 0
    /// Stream offset where a run of bytes without a magic byte began, not yet reported.
    private var garbageStart: Int?

    /// Creates a reader.
    public init(limits: Limits = .default) {
        decoder = FrameDecoder(limits: limits)
    }

    /// The number of bytes received but not yet returned as frames or errors.
    public var bufferedByteCount: Int { buffer.count - start }

    /// Adds received bytes.
    public mutating func append(_ chunk: some Sequence<UInt8>) {
        if start > 0, start >= buffer.count / 2 {
            base += start
            buffer.removeFirst(start)
            start = 0
        }
        buffer.append(contentsOf: chunk)
    }

    /// Returns the next frame or error, or nil when more bytes are needed.
    public mutating func nextEvent() -> FrameStreamEvent? {
        while true {
            switch decoder.scan(buffer, from: start) {
            case .needMore:
                // A magic byte at `start` ends a pending run of non-frame bytes even though
                // its frame is incomplete: report the run now, as a whole-stream read would.
                if start < buffer.count, let pending = takeGarbage(endingAt: start) {
                    return pending
                }
                return nil
            case .frame(let frame, let end):
                if let pending = takeGarbage(endingAt: start) {
                    return pending  // the frame is found again on the next call
                }
                let event = FrameStreamEvent(offset: base + start, length: end - start, result: .success(frame))
                start = end
                return event
            case .invalid(let error, let resume):
                if error.kind == .badMagic {
                    // Merge a run of non-frame bytes into one event, however it was chunked.
                    if garbageStart == nil { garbageStart = base + start }
                    start = resume
                    if resume < buffer.count, let pending = takeGarbage(endingAt: resume) {
                        return pending
                    }
                    continue
                }
                if let pending = takeGarbage(endingAt: start) {
                    return pending
                }
                let event = FrameStreamEvent(offset: base + start, length: resume - start,
                                             result: .failure(error.shifted(by: base)))
                start = resume
                return event
            }
        }
    }

    /// Ends the stream: reports bytes left over as a truncated frame or a garbage run.
    public mutating func finish() -> FrameStreamEvent? {
        if let pending = takeGarbage(endingAt: buffer.count) {
            start = buffer.count
            return pending
        }
        guard start < buffer.count else { return nil }
        let leftover = buffer.count - start
        let event = FrameStreamEvent(
            offset: base + start, length: leftover,
            result: .failure(WireError(.truncated, offset: base + start,
                                       "stream ends inside a frame: \(leftover) bytes of an incomplete frame")))
        start = buffer.count
        return event
    }

    /// Reports a pending run of non-frame bytes that ends at buffer index `end`.
    private mutating func takeGarbage(endingAt end: Int) -> FrameStreamEvent? {
        guard let runStart = garbageStart else { return nil }
        garbageStart = nil
        let length = base + end - runStart
        return FrameStreamEvent(
            offset: runStart, length: length,
            result: .failure(WireError(.badMagic, offset: runStart,
                                       "\(length) byte\(length == 1 ? "" : "s") before the next frame are not a frame (no magic byte 0xC7)")))
    }
}
