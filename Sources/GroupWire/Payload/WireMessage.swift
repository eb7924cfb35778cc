/// A value that encodes itself straight to the field-tagged payload format, without
/// Codable containers. Generated structs, enums and unions adopt it.
public protocol WirePayloadCodable: Sendable {
    /// Appends this value's fields to `writer`.
    func encodeWire(to writer: inout PayloadWriter)

    /// Decodes a value from the fields `reader` holds, reading to its end.
    /// - Throws: a ``WireError`` for malformed input.
    init(decodingWire reader: inout PayloadReader) throws(WireError)

    /// The value's payload bytes. A requirement (with a default below) so generated types'
    /// exact-size, one-allocation encoder is used from generic code too.
    func wirePayload() -> [UInt8]

    /// For generated code: the exact number of bytes ``_encodeWire(into:)`` writes, or nil
    /// (the default) when it is not known without encoding.
    var _exactWireSize: Int? { get }

    /// For generated code: writes the payload into `sink`, which has room for exactly
    /// ``_exactWireSize`` bytes (so a messenger writes it straight into a frame).
    func _encodeWire(into sink: inout _WireSink)
}

extension WirePayloadCodable {
    /// Not known without encoding.
    public var _exactWireSize: Int? { nil }

    /// Writes ``wirePayload()``.
    public func _encodeWire(into sink: inout _WireSink) {
        sink.writeRaw(wirePayload())
    }
}

/// A top-level message of a spec: a payload type with a stable type id that frames carry.
/// Generated messages adopt it; their payload is the field-tagged format.
public protocol WireMessage: WirePayloadCodable, MessageCodable {}

extension WireMessage {
    /// The field-tagged payload (``WirePayloadCodable/wirePayload()``).
    @inlinable
    public func messagePayload() throws(WireError) -> [UInt8] {
        wirePayload()
    }

    /// ``WirePayloadCodable/_exactWireSize``.
    public var _exactPayloadSize: Int? { _exactWireSize }

    /// ``WirePayloadCodable/_encodeWire(into:)``.
    public func _encodePayload(into sink: inout _WireSink) {
        _encodeWire(into: &sink)
    }

    /// Decodes the payload where it stands in `bytes` (a frame), without copying it; error
    /// offsets count from the payload's first byte, as for ``init(messagePayload:limits:)``.
    public init(_messagePayload bytes: [UInt8], in range: Range<Int>, limits: Limits) throws(WireError) {
        do throws(WireError) {
            var reader = PayloadReader(reader: try ByteReader(bytes, range: range), limits: limits)
            try self.init(decodingWire: &reader)
            guard reader.isAtEnd else {
                throw WireError(
                    .trailingBytes, offset: reader.reader.position, "\(reader.reader.remaining) bytes follow the message")
            }
        } catch {
            throw error.shifted(by: -range.lowerBound)
        }
    }

    /// Decodes the field-tagged payload (``WirePayloadCodable/init(wirePayload:limits:)``).
    @inlinable
    public init(messagePayload payload: [UInt8], limits: Limits) throws(WireError) {
        try self.init(wirePayload: payload, limits: limits)
    }
}

extension WirePayloadCodable {
    /// The value's payload bytes.
    public func wirePayload() -> [UInt8] {
        var writer = PayloadWriter()
        encodeWire(to: &writer)
        return writer.bytes
    }

    /// Decodes a value from a whole payload.
    /// Inlinable so it is specialized for the decoded type: unspecialized, the value was
    /// decoded into a temporary and copied out through its value witness (about 6% of a
    /// PlaybackState decode).
    /// - Throws: a ``WireError`` for malformed input.
    @inlinable
    public init(wirePayload bytes: [UInt8], limits: Limits = .default) throws(WireError) {
        var reader = PayloadReader(bytes, limits: limits)
        try self.init(decodingWire: &reader)
        guard reader.isAtEnd else {
            throw WireError(.trailingBytes, offset: reader.reader.position, "\(reader.reader.remaining) bytes follow the message")
        }
    }
}

extension WireMessage {
    /// This message as a data frame.
    /// - Throws: ``WireError/Kind/frameTooLarge`` when the message does not fit one frame
    ///   under `limits` (fragment it instead).
    public func wireFrame(limits: Limits = .default) throws(WireError) -> [UInt8] {
        let payload = wirePayload()
        var writer = ByteWriter()
        try payload.withUnsafeWireBytes { (body) throws(WireError) in
            try FrameEncoder(limits: limits).encode(kind: .data, typeID: Self.wireTypeID, body: body, into: &writer)
        }
        return writer.bytes
    }
}
