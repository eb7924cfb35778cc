import GroupWireJSON

/// A 64-bit fingerprint: FNV-1a 64 over the UTF-8 bytes of a canonical form.
///
/// FNV-1a 64: start with the offset basis 0xcbf29ce484222325; for each byte, XOR it into
/// the hash, then multiply by the prime 0x100000001b3 modulo 2^64. Printed as 16 lowercase
/// hex digits.
public struct Fingerprint: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The hash value.
    public let value: UInt64

    /// Wraps a value.
    public init(value: UInt64) {
        self.value = value
    }

    /// Hashes the UTF-8 bytes of `text`.
    public init(of text: String) {
        self.value = Fingerprint.fnv1a64(text.utf8)
    }

    /// FNV-1a 64 over `bytes`.
    public static func fnv1a64(_ bytes: some Sequence<UInt8>) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            // Safe because FNV-1a is defined modulo 2^64: the multiplication wraps on purpose.
            hash = hash &* 0x0000_0100_0000_01b3
        }
        return hash
    }

    /// 16 lowercase hex digits, zero-padded.
    public var description: String {
        Hex.digits(value, width: 16)
    }

    /// Orders by value.
    public static func < (lhs: Fingerprint, rhs: Fingerprint) -> Bool { lhs.value < rhs.value }
}
