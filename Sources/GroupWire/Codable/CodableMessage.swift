/// Any `Codable` type, sent as a message once it declares its type id.
///
/// ```swift
/// struct Cursor: CodableMessage {
///     static let wireTypeID: UInt64 = 900
///     var x: Double, y: Double
/// }
/// try await messenger.send(Cursor(x: 1, y: 2))
/// ```
///
/// The payload is the binary Codable form of ``WireEncoder`` (Spec/FORMAT.md, "Encoding of
/// arbitrary Codable values"), decoded by ``WireDecoder`` within the receiver's ``Limits``.
public protocol CodableMessage: MessageCodable, Codable {}

extension CodableMessage {
    /// The type's name as Swift spells it.
    public static var wireTypeName: String { String(describing: Self.self) }

    /// The value encoded by ``WireEncoder``.
    /// - Throws: the encoder's ``WireError``, or ``WireError/Kind/invalidValue`` wrapping
    ///   what the type's `encode(to:)` threw.
    public func messagePayload() throws(WireError) -> [UInt8] {
        do {
            return try WireEncoder().encode(self)
        } catch let error as WireError {
            throw error
        } catch {
            throw WireError(.invalidValue, "\(Self.wireTypeName) could not be encoded: \(error)")
        }
    }

    /// Decodes the value with ``WireDecoder`` within `limits`.
    /// - Throws: the decoder's ``WireError``, or ``WireError/Kind/invalidValue`` wrapping
    ///   what the type's `init(from:)` threw.
    public init(messagePayload payload: [UInt8], limits: Limits) throws(WireError) {
        do {
            self = try WireDecoder(limits: limits).decode(Self.self, from: payload)
        } catch let error as WireError {
            throw error
        } catch {
            throw WireError(.invalidValue, "\(Self.wireTypeName) could not be decoded: \(error)")
        }
    }
}
