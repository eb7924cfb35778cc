/// The package's one base64 (RFC 4648), in the two forms the formats use, and strict:
/// each decodes only the one canonical text its encoder writes for some bytes, so a
/// value has one text (a signature covers it, two peers compare it).
///
/// - ``Variant/standard``: section 4's alphabet (`+`, `/`) with `=` padding to a multiple
///   of four characters: the JSON form of `Bytes` values and of kept unknown fields.
/// - ``Variant/url``: section 5's alphabet (`-`, `_`) without padding: JWTs (the relay's
///   access tokens).
///
/// Decoding refuses (nil) any other character, whitespace included; padding in the URL
/// form, missing or misplaced padding in the standard form; a length no byte string
/// encodes to (one character left over); and set bits below the last byte in the last
/// character (`QQ==` decodes, `QR==` does not).
package enum Base64 {
    package enum Variant: Sendable {
        case standard
        case url
    }

    private static let standardAlphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
    private static let urlAlphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
    private static let standardValues = table(standardAlphabet)
    private static let urlValues = table(urlAlphabet)

    private static func table(_ alphabet: [UInt8]) -> [Int8] {
        var table = [Int8](repeating: -1, count: 256)
        for (index, character) in alphabet.enumerated() { table[Int(character)] = Int8(index) }
        return table
    }

    /// The canonical text of `bytes`.
    package static func encode(_ bytes: some Collection<UInt8>, _ variant: Variant = .standard) -> String {
        let alphabet = variant == .standard ? standardAlphabet : urlAlphabet
        let bytes = Array(bytes)
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count + 2) / 3 * 4)
        var index = 0
        while index < bytes.count {
            let count = min(3, bytes.count - index)
            // safe because: count bytes from index are inside bytes.
            var chunk = UInt32(bytes[index]) << 16
            if count > 1 { chunk |= UInt32(bytes[index + 1]) << 8 }
            if count > 2 { chunk |= UInt32(bytes[index + 2]) }
            for position in 0...count { out.append(alphabet[Int(chunk >> UInt32(18 - 6 * position) & 63)]) }
            if variant == .standard { out += Array(repeating: UInt8(ascii: "="), count: 3 - count) }
            index += 3
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The bytes whose canonical text is `text`, or nil when it is not one.
    package static func decode(_ text: some StringProtocol, _ variant: Variant = .standard) -> [UInt8]? {
        var characters = Array(text.utf8)
        if variant == .standard {
            guard characters.count % 4 == 0 else { return nil }
            var padding = 0
            while padding < 2, characters.last == UInt8(ascii: "=") {
                characters.removeLast()
                padding += 1
            }
            // Padding exactly fills the last group of four: 2 characters + 2, 3 + 1.
            guard padding == (4 - characters.count % 4) % 4 else { return nil }
        }
        guard characters.count % 4 != 1 else { return nil }
        let values = variant == .standard ? standardValues : urlValues
        var out: [UInt8] = []
        out.reserveCapacity(characters.count * 3 / 4)
        var accumulator: UInt32 = 0
        var bits = 0
        for character in characters {
            let value = values[Int(character)]
            guard value >= 0 else { return nil }
            accumulator = accumulator << 6 | UInt32(value)
            bits += 6
            if bits >= 8 {
                bits -= 8
                out.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bits)))
                accumulator &= (1 << UInt32(bits)) - 1
            }
        }
        // The leftover bits of the last character must be zero (one text per byte string).
        guard accumulator == 0 else { return nil }
        return out
    }
}
