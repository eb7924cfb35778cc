import GroupWire

/// What inspection found at one place in a frame file: a valid frame with its header
/// fields and payload dump, or bytes that were rejected and why.
public struct FrameInspection: Sendable {
    /// Where the frame or rejected run starts in the frame bytes.
    public let offset: Int
    /// How many bytes it covers.
    public let length: Int
    /// The line and column of the frame's first byte, for hex files.
    public let location: HexDump.Location?
    /// The decoded frame, when valid.
    public let frame: Frame?
    /// The header fields as stored, when valid.
    public let header: FrameHeaderFields?
    /// The dump of the body, for uncompressed data and control frames.
    public let payload: PayloadDump?
    /// Why the bytes were rejected, when invalid (its offset counts from the first frame byte).
    public let error: WireError?
    /// The line and column of the error's offset, for hex files.
    public let errorLocation: HexDump.Location?

    /// Whether this is a valid frame.
    public var isValid: Bool { frame != nil }

    /// Why a valid frame's payload is not dumped: `compressed`, `fragment`, or nil when it is.
    public var payloadNotShownReason: String? {
        guard let frame else { return nil }
        if frame.compression != nil { return "compressed" }
        if frame.kind == .fragment { return "fragment" }
        return nil
    }

    /// Inspects one stream event over `contents`.
    init(event: FrameStreamEvent, contents: FrameFileContents, limits: Limits) {
        offset = event.offset
        length = event.length
        location = contents.location(ofByte: event.offset)
        switch event.result {
        case .success(let frame):
            self.frame = frame
            header = FrameHeaderFields(contents.bytes, offset: event.offset, length: event.length)
            payload = (frame.compression == nil && frame.kind != .fragment) ? PayloadDump(frame.body, limits: limits) : nil
            error = nil
            errorLocation = nil
        case .failure(let failure):
            frame = nil
            header = nil
            payload = nil
            error = failure
            errorLocation = contents.location(ofByte: min(failure.offset ?? event.offset, max(0, contents.bytes.count - 1)))
        }
    }
}
