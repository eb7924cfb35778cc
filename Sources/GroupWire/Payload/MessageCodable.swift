/// A value a messenger can carry: a stable type id that frames name it by, and a way to
/// turn it into message payload bytes and back.
///
/// Generated types adopt it through ``WireMessage`` (the field-tagged payload format); any
/// `Codable` type adopts it through ``CodableMessage`` (the binary Codable format of
/// ``WireEncoder``). Within one application every message type has its own id; a
/// ``MessageRegistry`` rejects two types with one id.
public protocol MessageCodable: Sendable {
    /// The message's type id, 1 ... 2^32-1, unique within an application.
    static var wireTypeID: UInt64 { get }
    /// The message's name, for diagnostics and inspection.
    static var wireTypeName: String { get }

    /// The message's payload: the body of its data frame before compression.
    /// - Throws: a ``WireError`` when the value cannot be encoded.
    func messagePayload() throws(WireError) -> [UInt8]

    /// Decodes a message from a whole payload.
    /// - Parameters:
    ///   - payload: the payload bytes, decompressed and reassembled.
    ///   - limits: the bounds enforced while decoding.
    /// - Throws: a ``WireError`` for malformed input.
    init(messagePayload payload: [UInt8], limits: Limits) throws(WireError)

    /// For the messenger: the exact payload size when the type can write its payload
    /// straight into a frame (generated messages), nil (the default) otherwise.
    var _exactPayloadSize: Int? { get }

    /// For the messenger: writes the payload into `sink`, which has room for exactly
    /// ``_exactPayloadSize`` bytes. Called only when that is not nil.
    func _encodePayload(into sink: inout _WireSink)

    /// For the messenger: decodes the payload that stands at `range` of `bytes` (a frame),
    /// copying it only where the type needs a payload of its own (the default). Error
    /// offsets count from the payload's first byte.
    init(_messagePayload bytes: [UInt8], in range: Range<Int>, limits: Limits) throws(WireError)
}

extension MessageCodable {
    /// Not known without encoding.
    public var _exactPayloadSize: Int? { nil }

    /// Writes ``messagePayload()``; never called while ``_exactPayloadSize`` is nil.
    public func _encodePayload(into sink: inout _WireSink) {
        if let payload = try? messagePayload() {
            sink.writeRaw(payload)
        }
    }

    /// Copies the payload out and decodes it with ``init(messagePayload:limits:)``.
    public init(_messagePayload bytes: [UInt8], in range: Range<Int>, limits: Limits) throws(WireError) {
        guard range.lowerBound >= 0, range.upperBound <= bytes.count else {
            throw WireError(.truncated, "payload range \(range) is outside the \(bytes.count)-byte frame")
        }
        try self.init(messagePayload: Array(bytes[range]), limits: limits)
    }
}
