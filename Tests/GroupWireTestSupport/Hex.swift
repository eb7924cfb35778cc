/// Hex text and bytes, for every test target: vectors, expected encodings and failure
/// messages. The one parser refuses what is not hex rather than guessing, so a typo in a
/// test's expected bytes fails the test instead of testing other bytes.
package enum Hex {
    /// The bytes `text` spells, two digits a byte, either case. ASCII whitespace (spaces,
    /// tabs, newlines) is ignored anywhere, so tests may write bytes in groups: `"0801 f807"`.
    /// Throws ``HexError`` at the first character that is not a hex digit, or when the
    /// digits do not pair up.
    package static func bytes(_ text: String) throws(HexError) -> [UInt8] {
        var result: [UInt8] = []
        result.reserveCapacity(text.utf8.count / 2)
        var high: UInt8?
        var highOffset = 0
        for (offset, character) in text.enumerated() {
            if character.isASCII && character.isWhitespace { continue }
            guard character.isASCII, let nibble = character.hexDigitValue.map(UInt8.init) else {
                throw HexError(problem: .notAHexDigit(character), offset: offset, text: text)
            }
            if let value = high {
                result.append(value << 4 | nibble)
                high = nil
            } else {
                high = nibble
                highOffset = offset
            }
        }
        if high != nil {
            throw HexError(problem: .oddDigitCount, offset: highOffset, text: text)
        }
        return result
    }

    /// Lowercase hex of `bytes`, two digits a byte, with `separator` between bytes (none by
    /// default): the form the vectors and ``bytes(_:)`` use.
    package static func string(_ bytes: some Sequence<UInt8>, separator: String = "") -> String {
        let digits: [Character] = Array("0123456789abcdef")
        var result = ""
        for byte in bytes {
            if !result.isEmpty { result += separator }
            result.append(digits[Int(byte >> 4)])
            result.append(digits[Int(byte & 0x0F)])
        }
        return result
    }
}

/// Hex text that ``Hex/bytes(_:)`` refuses: what is wrong, where, and the text itself.
package struct HexError: Error, CustomStringConvertible, Equatable, Sendable {
    /// What is wrong with the text.
    package enum Problem: Equatable, Sendable {
        /// A character that is neither a hex digit nor ASCII whitespace.
        case notAHexDigit(Character)
        /// An odd number of digits: the last one has no partner.
        case oddDigitCount
    }

    /// What is wrong with the text.
    package let problem: Problem
    /// The offset in characters of `text` (whitespace counted) of the character that is not
    /// a hex digit, or of the digit left without a partner.
    package let offset: Int
    /// The text that was parsed.
    package let text: String

    /// An error for `text`: `problem` at character `offset`.
    package init(problem: Problem, offset: Int, text: String) {
        self.problem = problem
        self.offset = offset
        self.text = text
    }

    /// The problem, its offset, and the text around it (at most 40 characters either side).
    package var description: String {
        let what: String
        switch problem {
        case .notAHexDigit(let character): what = "\(String(reflecting: String(character))) is not a hex digit"
        case .oddDigitCount: what = "odd number of hex digits: the digit has no partner"
        }
        let characters = Array(text)
        let start = max(0, offset - 40)
        let end = min(characters.count, offset + 41)
        let excerpt = (start > 0 ? "…" : "") + String(characters[start..<end]) + (end < characters.count ? "…" : "")
        return "\(what) at offset \(offset) of hex text \(String(reflecting: excerpt))"
    }
}
