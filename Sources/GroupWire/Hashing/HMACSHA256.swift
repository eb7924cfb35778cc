/// HMAC-SHA256 (RFC 2104, with the SHA-256 of FIPS 180-4): what signs and checks relay
/// access tokens (JWT HS256).
package enum HMACSHA256 {
    /// The 32-byte authentication code of `message` under `key`.
    package static func code(key: [UInt8], message: [UInt8]) -> [UInt8] {
        var block = key.count > 64 ? SHA256.digest(key) : key
        block += [UInt8](repeating: 0, count: 64 - block.count)
        let inner = SHA256.digest(block.map { $0 ^ 0x36 } + message)
        return SHA256.digest(block.map { $0 ^ 0x5c } + inner)
    }

    /// Whether two codes are equal, in time that depends only on their lengths.
    package static func equal(_ lhs: [UInt8], _ rhs: [UInt8]) -> Bool {
        guard lhs.count == rhs.count else { return false }
        var difference: UInt8 = 0
        for index in lhs.indices { difference |= lhs[index] ^ rhs[index] }
        return difference == 0
    }
}
