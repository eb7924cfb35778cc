/// Hex text for frames: lowercase on output; on input any case, whitespace ignored.
package enum HexText {
    /// Lowercase hex digits of `bytes`.
    package static func encode(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            output.append(digits[Int(byte >> 4)])
            output.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// The bytes hex text spells, ignoring whitespace.
    /// - Returns: the bytes, or the offset of the first character that is not a hex digit
    ///   (or of the dangling last digit).
    package static func decode(_ text: [UInt8]) -> Result<[UInt8], HexTextError> {
        var output: [UInt8] = []
        output.reserveCapacity(text.count / 2)
        var high: UInt8?
        var highOffset = 0
        for (offset, byte) in text.enumerated() {
            if isJSONWhitespace(byte) { continue }
            guard let value = digit(byte) else {
                return .failure(HexTextError(offset: offset, message: "character at offset \(offset) is not a hex digit"))
            }
            if let pending = high {
                output.append(pending << 4 | value)
                high = nil
            } else {
                high = value
                highOffset = offset
            }
        }
        if high != nil {
            return .failure(HexTextError(offset: highOffset, message: "odd number of hex digits; the last one is at offset \(highOffset)"))
        }
        return .success(output)
    }

    /// Whether `text` looks like hex rather than raw frames: its first non-whitespace byte
    /// is a hex digit (raw frames start with the magic byte 0xC7).
    package static func looksLikeHex(_ text: [UInt8]) -> Bool {
        guard let first = text.first(where: { !isJSONWhitespace($0) }) else { return false }
        return digit(first) != nil
    }

    private static func digit(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}

/// Hex text that could not be decoded.
package struct HexTextError: Error, Sendable, Hashable {
    /// The offset of the offending character in the text.
    package let offset: Int
    /// What is wrong.
    package let message: String
}
