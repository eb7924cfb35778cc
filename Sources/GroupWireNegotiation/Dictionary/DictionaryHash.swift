import GroupWire
import GroupWireJSON

/// The content hash that identifies a compression dictionary in a hello: the first 8 bytes
/// of the SHA-256 digest of the dictionary file's bytes (Spec/FORMAT.md, "The hello").
///
/// A dictionary's id (its zstd Dictionary_ID) names it but says nothing about its content:
/// two different dictionaries can carry one id. Peers compare hashes, so such a pair is
/// detected rather than misused. The hash is what `sha256sum DICT | cut -c1-16` prints.
public struct DictionaryHash: Sendable, Hashable, CustomStringConvertible {
    /// The 8 digest bytes as a big-endian number: its hex digits are the digest's first 16.
    public let value: UInt64

    /// Wraps a value (the digest's first 8 bytes, big-endian).
    public init(value: UInt64) {
        self.value = value
    }

    /// Hashes a dictionary file's bytes.
    public init(of content: [UInt8]) {
        let digest = SHA256.digest(content)
        value = digest.prefix(8).reduce(0) { $0 << 8 | UInt64($1) }
    }

    /// 16 lowercase hex digits: the first 16 of the SHA-256 digest.
    public var description: String {
        Hex.digits(value, width: 16)
    }
}
