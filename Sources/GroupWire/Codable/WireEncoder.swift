#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Encodes any `Encodable` value into GroupWire's compact binary Codable form
/// (Spec/FORMAT.md, "Encoding of arbitrary Codable values").
///
/// The output is one wire-type byte followed by the value's data. Keyed containers keep
/// their keys: by name, or by number for keys with a non-negative `intValue` (declare
/// `enum CodingKeys: Int, CodingKey` for the smallest output). A ``WireDecoder`` built from
/// a newer or older version of the type skips keys it does not know and reads missing
/// optional keys as nil; switching a type between named and numbered keys is a breaking
/// change. Doubles that are exact as Floats take four bytes.
///
/// ```swift
/// let bytes = try WireEncoder().encode(stroke)
/// let back = try WireDecoder().decode(UpsertStroke.self, from: bytes)
/// ```
public struct WireEncoder: Sendable {
    /// Values handed to every `Encoder.userInfo` during encoding.
    public var userInfo: [CodingUserInfoKey: any Sendable]

    /// Bounds shared with ``WireDecoder``; the encoder uses `maxNestingDepth`, so it never
    /// writes a value its decoder would refuse as too deep (or overflows the stack).
    public var limits: Limits

    /// Creates an encoder.
    /// - Parameters:
    ///   - limits: the nesting depth to refuse beyond (the decoder's, by default).
    ///   - userInfo: values the encoded types can read from `Encoder.userInfo`.
    public init(limits: Limits = .default, userInfo: [CodingUserInfoKey: any Sendable] = [:]) {
        self.limits = limits
        self.userInfo = userInfo
    }

    /// Encodes `value`.
    /// - Parameter value: the value to encode.
    /// - Returns: the encoded bytes: a wire-type byte, then the value's data.
    /// - Throws: what `value`'s `encode(to:)` throws, or `EncodingError.invalidValue` when a
    ///   container is misused (used after its value finished, or a keyed and an unkeyed
    ///   container asked of one value) or values nest deeper than `limits.maxNestingDepth`.
    public func encode<T: Encodable>(_ value: T) throws -> [UInt8] {
        let core = WireEncoderCore(userInfo: userInfo, maxDepth: limits.maxNestingDepth)
        core.writer.write(0)
        try core.encodeValue(value, typeOffset: 0, path: .none)
        if let failure = core.failure {
            throw failure
        }
        return core.writer.bytes
    }

    /// Encodes `value` into `Data`.
    /// - Parameter value: the value to encode.
    /// - Returns: the same bytes as ``encode(_:)``.
    /// - Throws: what ``encode(_:)`` throws.
    public func encodeData<T: Encodable>(_ value: T) throws -> Data {
        Data(try encode(value))
    }
}
