import GroupWireJSON

/// Splits spec source into tokens, reporting bad characters, unterminated strings and
/// comments as diagnostics and carrying on.
///
/// Works on the UTF-8 bytes; every index is checked against the end, so any input
/// (including invalid UTF-8 decoded as U+FFFD) lexes in linear time without trapping.
struct Lexer {
    private let bytes: [UInt8]
    private let file: String
    private var index = 0
    private var line = 1
    private var lineStart = 0
    private var sawTokenOnLine = false
    private var pendingDoc: [String] = []
    private(set) var diagnostics: [Diagnostic] = []

    private let maxDiagnostics: Int

    init(source: String, file: String, maxDiagnostics: Int) {
        self.bytes = Array(source.utf8)
        self.file = file
        self.maxDiagnostics = maxDiagnostics
    }

    /// Lexes the whole source. The last token is always `.end`.
    mutating func tokenize() -> [Token] {
        var tokens: [Token] = []
        while true {
            let token = next()
            tokens.append(token)
            if token.kind == .end { return tokens }
        }
    }

    private func peek(_ offset: Int = 0) -> UInt8? {
        let position = index + offset
        guard position >= 0, position < bytes.count else { return nil }
        return bytes[position]
    }

    private var location: SourceLocation {
        SourceLocation(file: file, line: line, column: index - lineStart + 1)
    }

    private mutating func newline() {
        line += 1
        lineStart = index
        sawTokenOnLine = false
    }

    private mutating func error(_ message: String, at location: SourceLocation, hint: String? = nil) {
        // Bounded like the parser's list, so hostile input cannot grow it without limit.
        guard diagnostics.count < maxDiagnostics else { return }
        diagnostics.append(.error(message, at: location, hint: hint))
    }

    /// Whether `byte` cannot start any token, comment or whitespace.
    private func isBadStart(_ byte: UInt8) -> Bool {
        !(Lexer.isIdentifierStart(byte) || Lexer.isDigit(byte) || byte == 0x22 || byte == 0x2F
            || "{}[]():,;=?@-. \t\r\n".utf8.contains(byte) || byte == 0x0B || byte == 0x0C)
    }

    private static func isIdentifierStart(_ byte: UInt8) -> Bool {
        (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || byte == 0x5F
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

    private func text(_ start: Int, _ end: Int) -> String {
        String(decoding: bytes[start..<end], as: UTF8.self)
    }

    private mutating func next() -> Token {
        // Bad characters are reported and skipped in a loop (not by recursion), so a long
        // run of garbage cannot exhaust the stack.
        while true {
            if let token = nextOrSkip() { return token }
        }
    }

    /// The next token, or `nil` after reporting and skipping one bad character.
    private mutating func nextOrSkip() -> Token? {
        skipTriviaCollectingDocs()
        let start = index
        let startLocation = location
        let startsLine = !sawTokenOnLine
        sawTokenOnLine = true
        let docLines = pendingDoc
        let documentation = docLines.isEmpty ? nil : docLines.joined(separator: "\n")
        pendingDoc = []
        func make(_ kind: Token.Kind, _ text: String, integer: UInt64? = nil, float: Double? = nil) -> Token {
            Token(
                kind: kind, text: text, integer: integer, float: float, location: startLocation,
                startsLine: startsLine, documentation: documentation)
        }
        guard let byte = peek() else { return make(.end, "") }

        if Lexer.isIdentifierStart(byte) {
            while let next = peek(), Lexer.isIdentifierStart(next) || Lexer.isDigit(next) { index += 1 }
            return make(.identifier, text(start, index))
        }
        if Lexer.isDigit(byte) { return lexNumber(make: make) }
        if byte == 0x22 { return make(.string, lexString(startLocation: startLocation)) }
        if byte == 0x2E, peek(1) == 0x2E, peek(2) == 0x2E {
            index += 3
            return make(.punctuation, "...")
        }
        if "{}[]():,;=?@-.".utf8.contains(byte) {
            index += 1
            return make(.punctuation, String(UnicodeScalar(byte)))
        }
        // Anything else: report one diagnostic for the whole run of bad characters, then go on.
        let scalarText = badCharacterText()
        while let next = peek(), isBadStart(next) { _ = badCharacterText() }
        error("unexpected character '\(scalarText)'", at: startLocation)
        sawTokenOnLine = !startsLine
        pendingDoc = docLines  // the docs belong to the next real token
        return nil
    }

    /// Consumes one bad character (a whole UTF-8 sequence when possible) and returns it.
    private mutating func badCharacterText() -> String {
        let start = index
        index += 1
        // Continuation bytes (10xxxxxx) belong to the same character.
        while let next = peek(), next & 0xC0 == 0x80, index - start < 4 { index += 1 }
        let result = text(start, index)
        return result.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value != 0x7F })
            ? result : result.unicodeScalars.map { "\\u{\(Hex.digits($0.value))}" }.joined()
    }

    private mutating func lexNumber(make: (Token.Kind, String, UInt64?, Double?) -> Token) -> Token {
        let start = index
        if peek() == 0x30, peek(1) == 0x78 || peek(1) == 0x58 {
            index += 2
            var value: UInt64? = 0
            var digits = 0
            while let next = peek(), Hex.isDigit(next) {
                digits += 1
                let digit = UInt64(next <= 0x39 ? next - 0x30 : (next | 0x20) - 0x61 + 10)
                value = value.flatMap { multiplyAdd($0, 16, digit) }
                index += 1
            }
            let spelled = text(start, index)
            if digits == 0 {
                error("hex literal '\(spelled)' has no digits", at: locationAt(start))
                return make(.integer, spelled, 0, nil)
            }
            return make(.integer, spelled, value, nil)
        }
        var value: UInt64? = 0
        while let next = peek(), Lexer.isDigit(next) {
            value = value.flatMap { multiplyAdd($0, 10, UInt64(next - 0x30)) }
            index += 1
        }
        var isFloat = false
        if peek() == 0x2E, let after = peek(1), Lexer.isDigit(after) {
            isFloat = true
            index += 1
            while let next = peek(), Lexer.isDigit(next) { index += 1 }
        }
        if let e = peek(), e == 0x65 || e == 0x45 {
            var offset = 1
            if let sign = peek(1), sign == 0x2B || sign == 0x2D { offset = 2 }
            if let digit = peek(offset), Lexer.isDigit(digit) {
                isFloat = true
                index += offset
                while let next = peek(), Lexer.isDigit(next) { index += 1 }
            }
        }
        let spelled = text(start, index)
        if isFloat {
            return make(.float, spelled, nil, Double(spelled) ?? .infinity)
        }
        return make(.integer, spelled, value, nil)
    }

    private func locationAt(_ position: Int) -> SourceLocation {
        SourceLocation(file: file, line: line, column: position - lineStart + 1)
    }

    private func multiplyAdd(_ value: UInt64, _ factor: UInt64, _ digit: UInt64) -> UInt64? {
        let (product, overflow1) = value.multipliedReportingOverflow(by: factor)
        let (sum, overflow2) = product.addingReportingOverflow(digit)
        return overflow1 || overflow2 ? nil : sum
    }

    /// Lexes a string literal starting at the opening quote; returns the decoded text.
    private mutating func lexString(startLocation: SourceLocation) -> String {
        index += 1
        var scalars = String.UnicodeScalarView()
        var chunkStart = index
        func flush(_ lexer: Lexer, _ end: Int) {
            scalars.append(contentsOf: lexer.text(chunkStart, end).unicodeScalars)
        }
        while true {
            guard let byte = peek(), byte != 0x0A else {
                flush(self, index)
                error("unterminated string literal", at: startLocation, hint: "close the string with '\"' on the same line")
                return String(scalars)
            }
            if byte == 0x22 {
                flush(self, index)
                index += 1
                return String(scalars)
            }
            if byte == 0x5C {
                flush(self, index)
                let escapeLocation = location
                index += 1
                switch peek() {
                case 0x22: scalars.append("\""); index += 1
                case 0x5C: scalars.append("\\"); index += 1
                case 0x6E: scalars.append("\n"); index += 1
                case 0x74: scalars.append("\t"); index += 1
                case 0x72: scalars.append("\r"); index += 1
                case 0x30: scalars.append("\0"); index += 1
                case 0x75 where peek(1) == 0x7B:
                    index += 2
                    var value: UInt32 = 0
                    var digits = 0
                    while let next = peek(), Hex.isDigit(next), digits < 8 {
                        value = value << 4 | UInt32(next <= 0x39 ? next - 0x30 : (next | 0x20) - 0x61 + 10)
                        digits += 1
                        index += 1
                    }
                    if peek() == 0x7D, digits > 0, let scalar = UnicodeScalar(value) {
                        index += 1
                        scalars.append(scalar)
                    } else {
                        error(
                            "invalid unicode escape in string literal", at: escapeLocation,
                            hint: "write \\u{...} with 1 to 8 hex digits naming a Unicode scalar")
                    }
                default:
                    error(
                        "invalid escape sequence in string literal", at: escapeLocation,
                        hint: "use \\\", \\\\, \\n, \\t, \\r, \\0 or \\u{...}")
                }
                chunkStart = index
                continue
            }
            index += 1
        }
    }

    /// Skips spaces, newlines and comments; remembers `///` lines for the next token.
    private mutating func skipTriviaCollectingDocs() {
        while let byte = peek() {
            switch byte {
            case 0x20, 0x09, 0x0D, 0x0C, 0x0B:
                index += 1
            case 0x0A:
                index += 1
                newline()
            case 0x2F where peek(1) == 0x2F:
                let isDoc = peek(2) == 0x2F && peek(3) != 0x2F
                let start = index + (isDoc ? 3 : 2)
                while let next = peek(), next != 0x0A { index += 1 }
                if isDoc {
                    var docLine = text(start, index)
                    if docLine.hasPrefix(" ") { docLine.removeFirst() }
                    if docLine.hasSuffix("\r") { docLine.removeLast() }
                    pendingDoc.append(docLine)
                } else {
                    // A plain comment between doc lines and a token detaches nothing; keep the docs.
                }
            case 0x2F where peek(1) == 0x2A:
                let startLocation = location
                index += 2
                var closed = false
                while let next = peek() {
                    if next == 0x2A, peek(1) == 0x2F {
                        index += 2
                        closed = true
                        break
                    }
                    index += 1
                    if next == 0x0A { newline() }
                }
                if !closed {
                    error("unterminated block comment", at: startLocation, hint: "close the comment with '*/'")
                }
            default:
                return
            }
        }
    }
}
