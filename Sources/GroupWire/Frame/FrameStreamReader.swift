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
/// Frames may stand back to back (a TCP stream, a frame file). Every byte of the stream
/// belongs to exactly one event, and the events do not depend on how the stream was cut
/// into chunks (Spec/FORMAT.md, "Reading a stream"):
/// - a valid frame, or a frame whose checksum passed but whose content is invalid
///   (version, kind, flags, headers), covers the frame's bytes;
/// - a candidate frame whose length its checksum has not confirmed (a bad length, a
///   checksum mismatch, or a frame cut off by the end of the stream) is never skipped by
///   its length: its event covers its magic byte and the bytes up to the next `0xC7`, and
///   reading resumes there, so a valid frame inside the candidate's claimed length is not
///   lost;
/// - a run of bytes without a magic byte that follows a frame (or starts the stream) is one
///   ``WireError/Kind/badMagic`` event.
///
/// Feed it with ``append(_:)``, take events with ``nextEvent()`` until it returns nil, and
/// at the end of the stream call ``finish()`` and take the remaining events the same way.
/// The reader buffers at most one candidate frame (``Limits/maxFrameSize``) plus the chunk
/// being appended; while it waits for the rest of a long candidate, the frames after it
/// wait too.
public struct FrameStreamReader: Sendable {
    private let decoder: FrameDecoder
    private var buffer: [UInt8] = []
    /// Index in `buffer` of the first unread byte.
    private var start = 0
    /// Stream offset of `buffer[0]`.
    private var base = 0
    /// An event for bytes that are not a frame, still growing: where it starts and why its
    /// first byte was rejected. It ends at the next candidate's magic byte.
    private var pending: (offset: Int, error: WireError)?
    /// Whether ``finish()`` was called: no more bytes will come.
    private var ended = false

    /// Creates a reader.
    public init(limits: Limits = .default) {
        decoder = FrameDecoder(limits: limits)
    }

    /// The number of bytes received but not yet returned as frames or errors.
    public var bufferedByteCount: Int { buffer.count - start }

    /// Adds received bytes. Appending after ``finish()`` is a programming error and is
    /// ignored.
    public mutating func append(_ chunk: some Sequence<UInt8>) {
        guard !ended else { return }
        if start > 0, start >= buffer.count / 2 {
            base += start
            buffer.removeFirst(start)
            start = 0
        }
        buffer.append(contentsOf: chunk)
    }

    /// Says that the stream has ended: bytes still buffered are read to the end (a cut-off
    /// candidate frame is reported as ``WireError/Kind/truncated`` and the bytes after its
    /// magic byte are read again). Take the remaining events with ``nextEvent()``.
    public mutating func finish() {
        ended = true
    }

    /// Returns the next frame or error, or nil when more bytes are needed (or, after
    /// ``finish()``, when every byte has been reported).
    public mutating func nextEvent() -> FrameStreamEvent? {
        var frame = Frame(kind: .data, typeID: 0, body: [])
        while true {
            switch decoder.scan(buffer, from: start, into: &frame) {
            case .needMore:
                if start < buffer.count {
                    // A magic byte at `start`: it ends a pending run even though its frame is
                    // incomplete, as a whole-stream read would.
                    if let run = takePending() { return run }
                    guard ended else { return nil }
                    // The stream ended inside this candidate: its length was never confirmed,
                    // so read the bytes after its magic byte again.
                    let bytes = buffer.count - start
                    pending = (
                        base + start,
                        WireError(
                            .truncated, offset: base + start,
                            "stream ends after \(bytes) byte\(bytes == 1 ? "" : "s") of a frame; the bytes after its magic byte are read again"
                        )
                    )
                    start += 1
                    continue
                }
                if ended, let run = takePending() { return run }
                return nil
            case .frame(_, let end):
                if let run = takePending() { return run }  // the frame is found again on the next call
                let event = FrameStreamEvent(offset: base + start, length: end - start, result: .success(frame))
                start = end
                return event
            case .unconfirmed(let error):
                if let run = takePending() { return run }
                pending = (base + start, error.shifted(by: base))
                start += 1
            case .invalid(let error, let resume):
                if error.kind == .badMagic {
                    // Non-frame bytes join the pending event (a failed candidate or a run),
                    // however they were chunked.
                    if pending == nil { pending = (base + start, error.shifted(by: base)) }
                    start = resume
                    continue
                }
                if let run = takePending() { return run }
                let event = FrameStreamEvent(
                    offset: base + start, length: resume - start,
                    result: .failure(error.shifted(by: base)))
                start = resume
                return event
            }
        }
    }

    /// The bytes of `event` if they are still buffered: always for the event ``nextEvent()``
    /// returned last when it is a frame or an error found after the checksum passed, until
    /// the next ``append(_:)``. Use it to read a frame's bytes as they were received.
    public func bytes(of event: FrameStreamEvent) -> ArraySlice<UInt8>? {
        let first = event.offset - base
        guard first >= 0, event.length >= 0, first <= buffer.count - event.length else { return nil }
        return buffer[first..<(first + event.length)]
    }

    /// Reports the pending non-frame event, which ends at `start`.
    private mutating func takePending() -> FrameStreamEvent? {
        guard let (offset, error) = pending else { return nil }
        pending = nil
        let length = base + start - offset
        var reported = error
        if error.kind == .badMagic {
            reported = WireError(
                .badMagic, offset: offset,
                "\(length) byte\(length == 1 ? "" : "s") before the next frame are not a frame (no magic byte 0xC7)")
        }
        return FrameStreamEvent(offset: offset, length: length, result: .failure(reported))
    }
}
