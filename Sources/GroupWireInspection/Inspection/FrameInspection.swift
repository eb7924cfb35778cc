import GroupWire
import GroupWireCapture
import GroupWireCompression

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
    /// The dump of the payload of a data or control frame: its body, decompressed first
    /// when the frame is compressed (and decompression succeeded).
    public let payload: PayloadDump?
    /// The length of the decompressed payload, when the body was decompressed to dump it.
    public let decompressedLength: Int?
    /// Why a compressed body could not be decompressed (an unknown dictionary, a corrupt
    /// zstd frame, a size over the limits).
    public let decompressionError: WireError?
    /// Why the bytes were rejected, when invalid (its offset counts from the first frame byte).
    public let error: WireError?
    /// The line and column of the error's offset, for hex files.
    public let errorLocation: HexDump.Location?

    /// Whether this is a valid frame.
    public var isValid: Bool { frame != nil }

    /// Why a valid frame's payload is not dumped: `fragment` (a piece of a body),
    /// `compressed` (decompression failed, see ``decompressionError``), or nil when it is.
    public var payloadNotShownReason: String? {
        guard let frame, payload == nil else { return nil }
        return frame.kind == .fragment ? "fragment" : "compressed"
    }

    /// Inspects one event of a frame file.
    /// - Parameters:
    ///   - fileEvent: the frame or rejected run, with its place in the file.
    ///   - limits: the limits payload dumps are checked against.
    ///   - decompressor: decompresses compressed bodies to dump them; nil reports each
    ///     compressed body as not dumped.
    public init(_ fileEvent: FrameFileEvent, limits: Limits = .default, decompressor: PayloadCompressor?) {
        self.init(
            event: fileEvent.event, location: fileEvent.location, errorLocation: fileEvent.errorLocation,
            header: fileEvent.header, limits: limits, decompressor: decompressor)
    }

    /// Inspects one stream event.
    /// - Parameters:
    ///   - event: the frame or rejected run.
    ///   - location: where the event starts in a hex file.
    ///   - errorLocation: where the error's offset is in a hex file.
    ///   - header: the frame's header fields as stored, for a valid frame.
    ///   - limits: the limits payload dumps are checked against.
    ///   - decompressor: decompresses compressed bodies to dump them.
    init(
        event: FrameStreamEvent, location: HexDump.Location?, errorLocation: HexDump.Location?, header: FrameHeaderFields?,
        limits: Limits, decompressor: PayloadCompressor?
    ) {
        offset = event.offset
        length = event.length
        self.location = location
        switch event.result {
        case .success(let frame):
            self.frame = frame
            self.header = header
            var payload: PayloadDump?
            var decompressedLength: Int?
            var decompressionError: WireError?
            if frame.kind != .fragment {
                if let info = frame.compression {
                    do {
                        guard let decompressor else {
                            throw WireError(.invalidValue, "no zstd decompressor is available")
                        }
                        let bytes = try decompressor.decompress(frame.body, info: info)
                        payload = PayloadDump(bytes, limits: limits)
                        decompressedLength = bytes.count
                    } catch let failure as WireError {
                        decompressionError = failure
                    } catch {
                        decompressionError = WireError(.invalidValue, "\(error)")
                    }
                } else {
                    payload = PayloadDump(frame.body, limits: limits)
                }
            }
            self.payload = payload
            self.decompressedLength = decompressedLength
            self.decompressionError = decompressionError
            error = nil
            self.errorLocation = nil
        case .failure(let failure):
            frame = nil
            self.header = nil
            payload = nil
            decompressedLength = nil
            decompressionError = nil
            error = failure
            self.errorLocation = errorLocation
        }
    }
}
