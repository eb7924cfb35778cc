#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Decodes values written by ``WireEncoder``, bounded by ``Limits``.
///
/// Every length and count is checked against the limits and against the bytes that remain
/// before anything is allocated, and nesting is bounded by ``Limits/maxNestingDepth``.
/// Malformed input raises a ``WireError`` (kind, offset, and the coding path in its context);
/// it never traps. Keys the type does not know are skipped; missing optional keys read as nil.
public struct WireDecoder: Sendable {
    /// The bounds enforced on the input.
    public var limits: Limits
    /// Values handed to every `Decoder.userInfo` during decoding.
    public var userInfo: [CodingUserInfoKey: any Sendable]

    /// Creates a decoder.
    /// - Parameters:
    ///   - limits: the bounds enforced on the input.
    ///   - userInfo: values the decoded types can read from `Decoder.userInfo`.
    public init(limits: Limits = .default, userInfo: [CodingUserInfoKey: any Sendable] = [:]) {
        self.limits = limits
        self.userInfo = userInfo
    }

    /// Decodes a `T` from `bytes`, which must hold exactly one encoded value.
    /// - Parameters:
    ///   - type: the type to decode.
    ///   - bytes: the output of ``WireEncoder/encode(_:)``.
    /// - Returns: the decoded value.
    /// - Throws: ``WireError`` (`truncated`, `typeMismatch`, `missingField`, `limitExceeded`,
    ///   `depthExceeded`, `invalidUTF8`, `invalidValue`, `unknownWireType`, `malformedVarint`,
    ///   `trailingBytes`), or what `T`'s `init(from:)` throws.
    public func decode<T: Decodable>(_ type: T.Type, from bytes: [UInt8]) throws -> T {
        var reader = ByteReader(bytes)
        guard let type = reader.peekByte() else {
            throw WireError(.truncated, offset: 0, "the input is empty: expected a wire type byte")
        }
        reader.cursor = 1
        let value = try WireValue.read(type: type, typeOffset: 0, from: &reader)
        guard reader.isAtEnd else {
            throw WireError(
                .trailingBytes, offset: reader.cursor,
                "\(reader.remaining) bytes follow the encoded value")
        }
        let core = WireDecoderCore(
            input: ByteReader(bytes), limits: limits, userInfo: userInfo,
            current: value, depth: 0)
        let result = try core.decodeRoot(T.self)
        if let deferred = core.deferredError {
            throw deferred
        }
        return result
    }

    /// Decodes a `T` from `data`.
    /// - Parameters:
    ///   - type: the type to decode.
    ///   - data: the output of ``WireEncoder/encodeData(_:)``.
    /// - Returns: the decoded value.
    /// - Throws: what the `[UInt8]` overload of `decode(_:from:)` throws.
    public func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        try decode(T.self, from: [UInt8](data))
    }
}
