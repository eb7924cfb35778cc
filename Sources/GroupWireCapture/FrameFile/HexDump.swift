/// Bytes read from a text hex dump, remembering where in the text each byte came from so
/// problems found in the bytes can be reported at a line and column.
///
/// Accepted layouts (they may be mixed line by line):
/// - plain hex, bytes as pairs of digits, any spacing: `c7 01 0a`, `c7010a` (`xxd -p`);
///   a token may start with `0x` (`0xc7 0x01`, `0xc7010a`); upper or lower case;
/// - `xxd`: an offset column ending in `:`, the hex, then two spaces and an ASCII column
///   that is ignored;
/// - `hexdump -C`: an offset column, the hex, then an ASCII column between `|` bars that
///   is ignored; the last line holding only the final offset is accepted;
/// - a `*` line (from `hexdump -C` or `xxd -a`), which stands for repeats of the line
///   before it up to the offset of the line after it.
///
/// Blank lines are skipped, and `#` starts a comment that runs to the end of the line.
/// Offsets are only used to expand `*` lines; they are not checked otherwise. Layouts
/// that group bytes into little-endian words (`hexdump` without `-C`, `od`) are not hex
/// of the bytes in order and are not supported.
public struct HexDump: Sendable {
    /// A position in the text: 1-based line and column (byte within the line).
    public struct Location: Sendable, Hashable, CustomStringConvertible {
        /// The 1-based line.
        public let line: Int
        /// The 1-based column, counted in bytes.
        public let column: Int

        /// Creates a location.
        public init(line: Int, column: Int) {
            self.line = line
            self.column = column
        }

        /// `line:column`.
        public var description: String { "\(line):\(column)" }
    }

    /// Where a run of bytes starts in the text: byte `byteOffset` is at `line:column`, and
    /// each following byte of the run `step` columns further on.
    struct Anchor: Sendable {
        let byteOffset: Int
        let line: Int
        let column: Int
        let step: Int
    }

    /// The bytes the dump holds.
    public let bytes: [UInt8]
    /// Run starts in ascending byte offset.
    let anchors: [Anchor]

    /// The largest output accepted by default (a `*` line can stand for many bytes).
    public static let defaultMaxBytes = 256 << 20

    /// Reads the hex dump in `text`.
    /// - Parameters:
    ///   - text: the file's bytes.
    ///   - path: the file's name, for diagnostics.
    ///   - maxBytes: the most bytes the dump may expand to.
    /// - Throws: ``FrameFileError`` with the line and column of the first character that is
    ///   not hex (``FrameFileError/Kind/badHexDigit``), of a token with an odd number of
    ///   digits (``FrameFileError/Kind/oddHexDigits``), or of a `*` line that cannot be
    ///   expanded (``FrameFileError/Kind/badRepeat``).
    public init(parsing text: [UInt8], path: String, maxBytes: Int = HexDump.defaultMaxBytes) throws(FrameFileError) {
        var parser = Parser(text: text, path: path, maxBytes: maxBytes)
        try parser.run()
        bytes = parser.bytes
        anchors = parser.anchors
    }

    /// The line and column of the digits of byte `offset`, or nil if it is out of range.
    public func location(ofByte offset: Int) -> Location? {
        guard offset >= 0, offset < bytes.count, !anchors.isEmpty else { return nil }
        // The last anchor at or before `offset` (anchors[0].byteOffset is 0).
        var low = 0
        var high = anchors.count - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if anchors[mid].byteOffset <= offset { low = mid } else { high = mid - 1 }
        }
        let anchor = anchors[low]
        return Location(line: anchor.line, column: anchor.column + anchor.step * (offset - anchor.byteOffset))
    }
}

extension HexDump {
    /// The line-by-line reader behind ``init(parsing:path:maxBytes:)``.
    private struct Parser {
        let text: [UInt8]
        let path: String
        let maxBytes: Int
        var bytes: [UInt8] = []
        var anchors: [Anchor] = []
        /// Set once a `hexdump -C` line is seen: every line then starts with an offset.
        var canonical = false
        /// The offset and bytes of the last line that had an offset column.
        var lastLine: (offset: Int, bytes: ArraySlice<UInt8>)?
        /// A `*` line waiting for the next offset, with its position.
        var pendingRepeat: Location?

        init(text: [UInt8], path: String, maxBytes: Int) {
            self.text = text
            self.path = path
            self.maxBytes = maxBytes
        }

        mutating func run() throws(FrameFileError) {
            var lineStart = 0
            var lineNumber = 1
            while lineStart < text.count {
                var lineEnd = lineStart
                while lineEnd < text.count, text[lineEnd] != UInt8(ascii: "\n") { lineEnd += 1 }
                var end = lineEnd
                if end > lineStart, text[end - 1] == UInt8(ascii: "\r") { end -= 1 }
                try line(lineStart..<end, number: lineNumber)
                lineStart = lineEnd + 1
                lineNumber += 1
            }
            if let star = pendingRepeat {
                throw error(.badRepeat, star, "a '*' line must be followed by a line with an offset column")
            }
        }

        func error(_ kind: FrameFileError.Kind, _ location: Location, _ message: String) -> FrameFileError {
            FrameFileError(kind, path: path, line: location.line, column: location.column, message)
        }

        /// Reads one line; `range` excludes the line break.
        mutating func line(_ range: Range<Int>, number: Int) throws(FrameFileError) {
            let lineStart = range.lowerBound
            func column(_ index: Int) -> Int { index - lineStart + 1 }
            var first = range.lowerBound
            while first < range.upperBound, isSpace(text[first]) { first += 1 }
            guard first < range.upperBound, text[first] != UInt8(ascii: "#") else { return }

            if text[first] == UInt8(ascii: "*"), rest(of: range, after: first + 1).allSatisfy(isSpace) {
                let here = Location(line: number, column: column(first))
                guard lastLine != nil, !(lastLine?.bytes.isEmpty ?? true) else {
                    throw error(
                        .badRepeat, here, "a '*' line must follow a line with an offset column and bytes (hexdump -C, xxd -a)")
                }
                pendingRepeat = here
                return
            }

            var area = first..<range.upperBound
            var offset: Int?
            var digitsEnd = first
            while digitsEnd < range.upperBound, isHexDigit(text[digitsEnd]) { digitsEnd += 1 }
            // A bar opens hexdump -C's ASCII column, unless a comment holds it.
            let hash = text[range].firstIndex(of: UInt8(ascii: "#")) ?? range.upperBound
            let bar = text[range.lowerBound..<hash].firstIndex(of: UInt8(ascii: "|"))
            if digitsEnd > first, digitsEnd < range.upperBound, text[digitsEnd] == UInt8(ascii: ":") {
                // xxd: "00000010: c701 0a00  ..ascii..": the hex ends at the first double space.
                offset = try parseOffset(first..<digitsEnd, line: number, column: column(first))
                var start = digitsEnd + 1
                while start < range.upperBound, isSpace(text[start]) { start += 1 }
                var stop = start
                while stop < range.upperBound {
                    if isSpace(text[stop]), stop + 1 < range.upperBound, isSpace(text[stop + 1]) { break }
                    stop += 1
                }
                area = start..<stop
            } else if bar != nil || canonical {
                // hexdump -C: "00000010  c7 01 0a 00  |..ascii..|"; the last line is an offset alone.
                canonical = true
                let stop = bar ?? range.upperBound
                guard digitsEnd > first, digitsEnd == stop || isSpace(text[digitsEnd]) else {
                    let bad = digitsEnd < stop ? digitsEnd : first
                    throw error(
                        .badHexDigit, Location(line: number, column: column(bad)),
                        "expected an offset column (hex digits) at the start of a hexdump -C line")
                }
                offset = try parseOffset(first..<digitsEnd, line: number, column: column(first))
                area = digitsEnd..<stop
            }
            // A comment may end any line.
            if let hash = text[area].firstIndex(of: UInt8(ascii: "#")) {
                area = area.lowerBound..<hash
            }

            if let offset {
                if let star = pendingRepeat {
                    try expandRepeat(to: offset, star: star)
                    pendingRepeat = nil
                }
            }
            let lineBytesStart = bytes.count
            try tokens(in: area, line: number, lineStart: lineStart)
            if let offset {
                // safe because: lineBytesStart <= bytes.count (only appended since).
                lastLine = (offset, bytes[lineBytesStart...])
            }
        }

        func rest(of range: Range<Int>, after index: Int) -> ArraySlice<UInt8> {
            text[min(index, range.upperBound)..<range.upperBound]
        }

        func parseOffset(_ digits: Range<Int>, line: Int, column: Int) throws(FrameFileError) -> Int {
            guard digits.count <= 15 else {
                throw error(
                    .badHexDigit, Location(line: line, column: column), "offset column of \(digits.count) digits is too long")
            }
            var value = 0
            for index in digits {
                // safe because: at most 15 hex digits, so value < 2^60.
                value = value << 4 | Int(hexValue(text[index]))
            }
            return value
        }

        /// Appends the repeats a `*` line stands for, up to the offset of the line after it.
        mutating func expandRepeat(to offset: Int, star: Location) throws(FrameFileError) {
            guard let lastLine, !lastLine.bytes.isEmpty else {
                throw error(.badRepeat, star, "a '*' line must follow a line with an offset column and bytes")
            }
            let repeated = Array(lastLine.bytes)
            // safe because: offsets are below 2^60 and line lengths below the text size.
            let gap = offset - (lastLine.offset + repeated.count)
            guard gap >= 0, gap % repeated.count == 0 else {
                throw error(
                    .badRepeat, star,
                    "the '*' line stands for repeats of the \(repeated.count)-byte line before it, but the next offset \(offset) is not a whole number of such lines after it"
                )
            }
            guard gap <= maxBytes - bytes.count else {
                throw error(.badRepeat, star, "the '*' line expands to \(gap) bytes, over the limit of \(maxBytes)")
            }
            guard gap > 0 else { return }
            anchors.append(Anchor(byteOffset: bytes.count, line: star.line, column: star.column, step: 0))
            for _ in 0..<(gap / repeated.count) {
                bytes.append(contentsOf: repeated)
            }
        }

        /// Reads the whitespace-separated hex tokens in `area`.
        mutating func tokens(in area: Range<Int>, line: Int, lineStart: Int) throws(FrameFileError) {
            var index = area.lowerBound
            while index < area.upperBound {
                if isSpace(text[index]) {
                    index += 1
                    continue
                }
                var end = index
                while end < area.upperBound, !isSpace(text[end]) { end += 1 }
                try token(index..<end, line: line, lineStart: lineStart)
                index = end
            }
        }

        mutating func token(_ token: Range<Int>, line: Int, lineStart: Int) throws(FrameFileError) {
            func here(_ index: Int) -> Location { Location(line: line, column: index - lineStart + 1) }
            var digits = token.lowerBound
            if token.count >= 2, text[digits] == UInt8(ascii: "0"), text[digits + 1] | 0x20 == UInt8(ascii: "x") {
                digits += 2
                guard digits < token.upperBound else {
                    throw error(.badHexDigit, here(token.lowerBound), "'0x' must be followed by hex digits")
                }
            }
            for index in digits..<token.upperBound where !isHexDigit(text[index]) {
                throw error(.badHexDigit, here(index), "\(describe(text[index])) is not a hex digit")
            }
            let count = token.upperBound - digits
            guard count % 2 == 0 else {
                throw error(
                    .oddHexDigits, here(token.lowerBound),
                    "hex token has \(count) digits, an odd number; each byte takes two digits")
            }
            guard count / 2 <= maxBytes - bytes.count else {
                throw error(.badRepeat, here(token.lowerBound), "the dump holds more than \(maxBytes) bytes")
            }
            anchors.append(Anchor(byteOffset: bytes.count, line: line, column: digits - lineStart + 1, step: 2))
            var index = digits
            while index < token.upperBound {
                // safe because: count is even, so index + 1 < token.upperBound.
                bytes.append(hexValue(text[index]) << 4 | hexValue(text[index + 1]))
                index += 2
            }
        }

        func describe(_ byte: UInt8) -> String {
            if byte >= 0x21, byte < 0x7F {
                return "'\(Character(Unicode.Scalar(byte)))'"
            }
            let digits = String(byte, radix: 16, uppercase: true)
            return "byte 0x" + (digits.count < 2 ? "0" : "") + digits
        }
    }
}

private func isSpace(_ byte: UInt8) -> Bool {
    byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\r")
}

private func isHexDigit(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"), UInt8(ascii: "A")...UInt8(ascii: "F"):
        return true
    default:
        return false
    }
}

/// The value of a hex digit (callers check `isHexDigit` first; other bytes give 0).
private func hexValue(_ byte: UInt8) -> UInt8 {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
    default: 0
    }
}
