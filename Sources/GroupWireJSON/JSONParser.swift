/// Parses JSON text (RFC 8259) into a ``JSONValue``, without trapping on any input.
///
/// Nesting is bounded by ``maxDepth``; duplicate object keys, unpaired surrogate escapes,
/// invalid UTF-8, control characters in strings and trailing content are errors. Numbers
/// keep their literal text (at most ``maxNumberLength`` characters).
public struct JSONParser: Sendable {
    /// The deepest nesting of arrays and objects accepted.
    public var maxDepth: Int
    /// The longest number literal accepted, in characters.
    public var maxNumberLength: Int

    /// Creates a parser.
    /// - Parameters:
    ///   - maxDepth: the deepest nesting of arrays and objects accepted (default 512).
    ///   - maxNumberLength: the longest number literal accepted (default 256 characters).
    public init(maxDepth: Int = 512, maxNumberLength: Int = 256) {
        self.maxDepth = maxDepth
        self.maxNumberLength = maxNumberLength
    }

    /// Parses one JSON value that fills `bytes` (surrounding whitespace allowed).
    /// - Throws: ``JSONSyntaxError`` with the offset, line and column of the problem.
    public func parse(_ bytes: [UInt8]) throws(JSONSyntaxError) -> JSONValue {
        var state = State(bytes: bytes, maxDepth: maxDepth, maxNumberLength: maxNumberLength)
        state.skipWhitespace()
        let value = try state.parseValue(depth: 0)
        state.skipWhitespace()
        guard state.position == bytes.count else {
            throw state.error("unexpected \(state.describeCurrent()) after the JSON value")
        }
        return value
    }

    /// Parses one JSON value from text.
    /// - Throws: ``JSONSyntaxError``.
    public func parse(_ text: String) throws(JSONSyntaxError) -> JSONValue {
        try parse(Array(text.utf8))
    }

    private struct State {
        let bytes: [UInt8]
        let maxDepth: Int
        let maxNumberLength: Int
        var position = 0

        init(bytes: [UInt8], maxDepth: Int, maxNumberLength: Int) {
            self.bytes = bytes
            self.maxDepth = maxDepth
            self.maxNumberLength = maxNumberLength
        }

        /// The byte at the cursor, or nil at the end.
        var current: UInt8? { position < bytes.count ? bytes[position] : nil }

        func describeCurrent() -> String {
            guard let byte = current else { return "end of input" }
            if byte >= 0x20, byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
            return "byte 0x\(Hex.digits(byte, uppercase: true))"
        }

        func error(_ message: String, at offset: Int? = nil) -> JSONSyntaxError {
            let offset = min(offset ?? position, bytes.count)
            var line = 1
            var lineStart = 0
            // safe because: offset was clamped to bytes.count above.
            for index in 0..<offset where bytes[index] == UInt8(ascii: "\n") {
                line += 1
                lineStart = index + 1
            }
            return JSONSyntaxError(offset: offset, line: line, column: offset - lineStart + 1, message)
        }

        mutating func skipWhitespace() {
            while let byte = current, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 {
                position += 1
            }
        }

        mutating func expect(_ literal: StaticString, value: JSONValue) throws(JSONSyntaxError) -> JSONValue {
            let start = position
            let expected = literal.withUTF8Buffer { Array($0) }
            for byte in expected {
                guard current == byte else {
                    throw error("invalid literal; expected '\(literal)'", at: start)
                }
                position += 1
            }
            return value
        }

        mutating func parseValue(depth: Int) throws(JSONSyntaxError) -> JSONValue {
            guard let byte = current else { throw error("expected a value, found end of input") }
            switch byte {
            case UInt8(ascii: "{"): return try parseObject(depth: depth + 1)
            case UInt8(ascii: "["): return try parseArray(depth: depth + 1)
            case UInt8(ascii: "\""): return .string(try parseString())
            case UInt8(ascii: "t"): return try expect("true", value: .bool(true))
            case UInt8(ascii: "f"): return try expect("false", value: .bool(false))
            case UInt8(ascii: "n"): return try expect("null", value: .null)
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
            default: throw error("expected a value, found \(describeCurrent())")
            }
        }

        mutating func parseObject(depth: Int) throws(JSONSyntaxError) -> JSONValue {
            guard depth <= maxDepth else { throw error("nesting is deeper than \(maxDepth) levels") }
            position += 1  // "{"
            var members: [String: JSONValue] = [:]
            skipWhitespace()
            if current == UInt8(ascii: "}") {
                position += 1
                return .object(members)
            }
            while true {
                skipWhitespace()
                let keyOffset = position
                guard current == UInt8(ascii: "\"") else {
                    throw error("expected a member name in double quotes, found \(describeCurrent())")
                }
                let key = try parseString()
                skipWhitespace()
                guard current == UInt8(ascii: ":") else {
                    throw error("expected ':' after a member name, found \(describeCurrent())")
                }
                position += 1
                skipWhitespace()
                let value = try parseValue(depth: depth)
                guard members.updateValue(value, forKey: key) == nil else {
                    throw error("duplicate member name \(JSONWriter().string(.string(key)))", at: keyOffset)
                }
                skipWhitespace()
                switch current {
                case UInt8(ascii: ","): position += 1
                case UInt8(ascii: "}"):
                    position += 1
                    return .object(members)
                default: throw error("expected ',' or '}' in an object, found \(describeCurrent())")
                }
            }
        }

        mutating func parseArray(depth: Int) throws(JSONSyntaxError) -> JSONValue {
            guard depth <= maxDepth else { throw error("nesting is deeper than \(maxDepth) levels") }
            position += 1  // "["
            var elements: [JSONValue] = []
            skipWhitespace()
            if current == UInt8(ascii: "]") {
                position += 1
                return .array(elements)
            }
            while true {
                skipWhitespace()
                elements.append(try parseValue(depth: depth))
                skipWhitespace()
                switch current {
                case UInt8(ascii: ","): position += 1
                case UInt8(ascii: "]"):
                    position += 1
                    return .array(elements)
                default: throw error("expected ',' or ']' in an array, found \(describeCurrent())")
                }
            }
        }

        mutating func parseString() throws(JSONSyntaxError) -> String {
            let start = position
            position += 1  // opening quote
            var utf8: [UInt8] = []
            while true {
                guard let byte = current else { throw error("unterminated string", at: start) }
                switch byte {
                case UInt8(ascii: "\""):
                    position += 1
                    guard let text = String(validating: utf8, as: UTF8.self) else {
                        throw error("string is not valid UTF-8", at: start)
                    }
                    return text
                case UInt8(ascii: "\\"):
                    position += 1
                    try parseEscape(into: &utf8)
                case 0..<0x20:
                    throw error("control character 0x\(Hex.digits(byte, uppercase: true)) must be escaped in a string")
                default:
                    utf8.append(byte)
                    position += 1
                }
            }
        }

        mutating func parseEscape(into utf8: inout [UInt8]) throws(JSONSyntaxError) {
            guard let byte = current else { throw error("unterminated escape sequence") }
            position += 1
            switch byte {
            case UInt8(ascii: "\""): utf8.append(UInt8(ascii: "\""))
            case UInt8(ascii: "\\"): utf8.append(UInt8(ascii: "\\"))
            case UInt8(ascii: "/"): utf8.append(UInt8(ascii: "/"))
            case UInt8(ascii: "b"): utf8.append(0x08)
            case UInt8(ascii: "f"): utf8.append(0x0C)
            case UInt8(ascii: "n"): utf8.append(0x0A)
            case UInt8(ascii: "r"): utf8.append(0x0D)
            case UInt8(ascii: "t"): utf8.append(0x09)
            case UInt8(ascii: "u"):
                let escapeStart = position - 2
                var scalar = UInt32(try parseHex4())
                if (0xD800...0xDBFF).contains(scalar) {
                    // safe because: position + 1 < bytes.count is checked before the subscript.
                    guard current == UInt8(ascii: "\\"), position + 1 < bytes.count, bytes[position + 1] == UInt8(ascii: "u")
                    else {
                        throw error("unpaired high surrogate escape", at: escapeStart)
                    }
                    position += 2
                    let low = UInt32(try parseHex4())
                    guard (0xDC00...0xDFFF).contains(low) else { throw error("unpaired high surrogate escape", at: escapeStart) }
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                } else if (0xDC00...0xDFFF).contains(scalar) {
                    throw error("unpaired low surrogate escape", at: escapeStart)
                }
                guard let unicode = Unicode.Scalar(scalar) else { throw error("invalid \\u escape", at: escapeStart) }
                utf8.append(contentsOf: String(Character(unicode)).utf8)
            default:
                throw error("invalid escape '\\\(Character(Unicode.Scalar(byte)))'", at: position - 2)
            }
        }

        mutating func parseHex4() throws(JSONSyntaxError) -> UInt16 {
            var value: UInt16 = 0
            for _ in 0..<4 {
                guard let byte = current else { throw error("expected 4 hex digits in a \\u escape") }
                guard let digit = Hex.value(of: byte) else {
                    throw error("expected 4 hex digits in a \\u escape, found \(describeCurrent())")
                }
                value = value << 4 | UInt16(digit)
                position += 1
            }
            return value
        }

        mutating func parseNumber() throws(JSONSyntaxError) -> JSONNumber {
            let start = position
            if current == UInt8(ascii: "-") { position += 1 }
            guard let first = current, isDigit(first) else { throw error("expected a digit in a number") }
            if first == UInt8(ascii: "0") {
                position += 1
                if let next = current, isDigit(next) { throw error("a number may not have leading zeros", at: start) }
            } else {
                skipDigits()
            }
            if current == UInt8(ascii: ".") {
                position += 1
                guard let next = current, isDigit(next) else { throw error("expected a digit after '.' in a number") }
                skipDigits()
            }
            if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
                position += 1
                if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { position += 1 }
                guard let next = current, isDigit(next) else { throw error("expected a digit in a number's exponent") }
                skipDigits()
            }
            guard position - start <= maxNumberLength else {
                throw error("number literal is longer than \(maxNumberLength) characters", at: start)
            }
            // safe because: start <= position <= bytes.count (position only moves over read bytes).
            return JSONNumber(validatedText: String(decoding: bytes[start..<position], as: UTF8.self))
        }

        func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }

        mutating func skipDigits() {
            while let byte = current, isDigit(byte) { position += 1 }
        }
    }
}
