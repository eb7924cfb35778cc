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
}
