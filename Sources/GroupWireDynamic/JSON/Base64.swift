/// Standard base64 with padding (RFC 4648 §4), the JSON form of `Bytes` values.
enum Base64 {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    /// Encodes bytes as padded base64 text.
    static func encode(_ bytes: [UInt8]) -> String {
        var output: [UInt8] = []
        output.reserveCapacity((bytes.count + 2) / 3 * 4)
        var index = 0
        while index + 3 <= bytes.count {
            // safe because: the loop condition keeps index + 2 inside bytes.
            let chunk = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2])
            appendQuad(chunk, count: 4, into: &output)
            index += 3
        }
        switch bytes.count - index {
        case 1:
            appendQuad(UInt32(bytes[index]) << 16, count: 2, into: &output)
            output.append(contentsOf: "==".utf8)
        case 2:
            appendQuad(UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8, count: 3, into: &output)
            output.append(UInt8(ascii: "="))
        default:
            break
        }
        return String(decoding: output, as: UTF8.self)
    }

    private static func appendQuad(_ chunk: UInt32, count: Int, into output: inout [UInt8]) {
        for shift in [18, 12, 6, 0].prefix(count) {
            output.append(alphabet[Int((chunk >> UInt32(shift)) & 0x3F)])
        }
    }

    /// Decodes padded base64 text; nil when the text is not canonical padded base64
    /// (wrong length, a character outside the alphabet, misplaced padding, non-zero pad bits).
    static func decode(_ text: String) -> [UInt8]? {
        let input = Array(text.utf8)
        guard input.count % 4 == 0 else { return nil }
        var output: [UInt8] = []
        output.reserveCapacity(input.count / 4 * 3)
        var index = 0
        while index < input.count {
            let isLast = index + 4 == input.count
            var values: [UInt32] = []
            var padding = 0
            for offset in 0..<4 {
                // safe because: input.count is a multiple of 4 and index < input.count steps by 4.
                let byte = input[index + offset]
                if byte == UInt8(ascii: "=") {
                    // Padding only in the last quad, only in its last two places, and only at the end.
                    guard isLast, offset >= 2 else { return nil }
                    padding += 1
                    continue
                }
                guard padding == 0, let value = sextet(byte) else { return nil }
                values.append(value)
            }
            let chunk = values.enumerated().reduce(UInt32(0)) { $0 | $1.element << UInt32(18 - 6 * $1.offset) }
            let produced = 3 - padding
            // Canonical form: bits below the last produced byte are zero.
            let unusedMask: UInt32 = padding == 0 ? 0 : (padding == 1 ? 0xFF : 0xFFFF)
            guard chunk & unusedMask == 0 else { return nil }
            for position in 0..<produced {
                output.append(UInt8(truncatingIfNeeded: chunk >> UInt32(16 - 8 * position)))
            }
            index += 4
        }
        return output
    }

    private static func sextet(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): UInt32(byte - UInt8(ascii: "A"))
        case UInt8(ascii: "a")...UInt8(ascii: "z"): UInt32(byte - UInt8(ascii: "a")) + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0")) + 52
        case UInt8(ascii: "+"): 62
        case UInt8(ascii: "/"): 63
        default: nil
        }
    }
}
