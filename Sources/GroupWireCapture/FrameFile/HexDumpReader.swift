import GroupWireJSON

/// Reads a text hex dump chunk by chunk: the bytes it spells come out as the lines that
/// hold them are complete, and each byte's line and column is kept while it may still be
/// asked for, so a dump of any size is read in bounded memory.
///
/// The accepted layouts are those of ``HexDump`` (plain hex, `xxd -p`, `xxd`, `hexdump -C`,
/// `*` repeat lines, `#` comments). A line is at most ``maxLineLength`` bytes long.
public struct HexDumpReader: Sendable {
    /// Where runs of bytes start in the text, for mapping byte offsets back to lines and
    /// columns.
    struct Locations: Sendable {
        /// Byte `byteOffset` is at `line:column`, and each following byte of the run `step`
        /// columns further on.
        struct Anchor: Sendable {
            let byteOffset: Int
            let line: Int
            let column: Int
            let step: Int
        }

        /// Run starts in ascending byte offset.
        var anchors: [Anchor] = []
        /// Index of the first anchor still kept (earlier ones are forgotten).
        var first = 0

        /// The line and column of byte `offset`, or nil before the first kept anchor.
        func location(ofByte offset: Int) -> HexDump.Location? {
            guard first < anchors.count, offset >= anchors[first].byteOffset else { return nil }
            // The last anchor at or before `offset`.
            var low = first
            var high = anchors.count - 1
            while low < high {
                let mid = (low + high + 1) / 2
                if anchors[mid].byteOffset <= offset { low = mid } else { high = mid - 1 }
            }
            let anchor = anchors[low]
            return HexDump.Location(line: anchor.line, column: anchor.column + anchor.step * (offset - anchor.byteOffset))
        }

        /// Drops the anchors that only locate bytes before `offset`.
        mutating func forget(before offset: Int) {
            while first + 1 < anchors.count, anchors[first + 1].byteOffset <= offset { first += 1 }
            if first > 1024, first >= anchors.count / 2 {
                anchors.removeFirst(first)
                first = 0
            }
        }
    }

    /// The longest line accepted, in bytes (1 MiB): longer lines are
    /// ``FrameFileError/Kind/badHexDigit`` errors rather than unbounded buffers.
    public static let maxLineLength = 1 << 20

    /// The file's name, for diagnostics.
    public let path: String
    /// The most bytes the dump may expand to.
    public let maxBytes: Int
    /// Byte locations still kept.
    private(set) var locations = Locations()
    /// Bytes produced and not yet taken (repeats are expanded when taken).
    private var output: [UInt8] = []
    /// `*` expansions waiting in `output`: `count` copies of `pattern`, placed after
    /// `output[..<after]`.
    private var repeats: [(pattern: [UInt8], count: Int, after: Int)] = []
    /// How many bytes the dump has spelled so far (taken or not).
    private(set) var produced = 0
    /// The current line's text (the part received so far, then the whole line).
    private var text: [UInt8] = []
    /// The current line's bytes.
    private var lineBytes: [UInt8] = []
    private var lineNumber = 1
    private var finished = false
    /// Set once a `hexdump -C` line is seen: every line then starts with an offset.
    private var canonical = false
    /// The offset and bytes of the last line that had an offset column.
    private var lastLine: (offset: Int, bytes: [UInt8])?
    /// A `*` line waiting for the next offset, with its position.
    private var pendingRepeat: HexDump.Location?

    /// Creates a reader.
    /// - Parameters:
    ///   - path: the file's name, for diagnostics.
    ///   - maxBytes: the most bytes the dump may expand to (default: no limit).
    public init(path: String, maxBytes: Int = .max) {
        self.path = path
        self.maxBytes = maxBytes
    }

    /// Reads more text; the bytes of the lines it completes can then be taken.
    /// - Throws: ``FrameFileError`` at the line and column of the first problem (see
    ///   ``HexDump/init(parsing:path:maxBytes:)``), or for a line over ``maxLineLength``.
    public mutating func append(_ chunk: some Collection<UInt8>) throws(FrameFileError) {
        var rest = chunk[...]
        while let newline = rest.firstIndex(of: UInt8(ascii: "\n")) {
            text.append(contentsOf: rest[..<newline])
            try endLine()
            rest = rest[rest.index(after: newline)...]
        }
        text.append(contentsOf: rest)
        guard text.count <= Self.maxLineLength else {
            throw FrameFileError(
                .badHexDigit, path: path, line: lineNumber, column: 1,
                "line is longer than \(Self.maxLineLength) bytes; a hex dump keeps lines short")
        }
    }

    /// Ends the text: reads its last line, if it has no line break.
    /// - Throws: ``FrameFileError`` as ``append(_:)`` does, or for a `*` line at the end.
    public mutating func finish() throws(FrameFileError) {
        guard !finished else { return }
        finished = true
        if !text.isEmpty { try endLine() }
        if let star = pendingRepeat {
            throw error(.badRepeat, star, "a '*' line must be followed by a line with an offset column")
        }
    }

    /// Takes up to `limit` of the bytes read so far.
    public mutating func takeBytes(limit: Int = .max) -> [UInt8] {
        var taken: [UInt8] = []
        while taken.count < limit {
            if let next = repeats.first, next.after == 0 {
                let copies = min(next.count, max(1, (limit - taken.count) / next.pattern.count))
                for _ in 0..<copies { taken.append(contentsOf: next.pattern) }
                if copies == next.count {
                    repeats.removeFirst()
                } else {
                    repeats[0].count -= copies
                }
                continue
            }
            let plain = min(repeats.first?.after ?? output.count, limit - taken.count)
            guard plain > 0 else { break }
            taken.append(contentsOf: output[..<plain])
            output.removeFirst(plain)
            for index in repeats.indices { repeats[index].after -= plain }
        }
        return taken
    }

    /// Whether bytes are waiting to be taken.
    public var hasBytes: Bool { !output.isEmpty || !repeats.isEmpty }

    /// The line and column of byte `offset` of the dump, if it is still known.
    public func location(ofByte offset: Int) -> HexDump.Location? {
        guard offset >= 0, offset < produced else { return nil }
        return locations.location(ofByte: offset)
    }

    /// Forgets the locations of bytes before `offset` (they will not be asked for again),
    /// keeping memory flat over a long dump.
    public mutating func forgetLocations(before offset: Int) {
        locations.forget(before: offset)
    }

    /// Reads the line in `text` (a CR before the line break is dropped).
    private mutating func endLine() throws(FrameFileError) {
        var end = text.count
        if end > 0, text[end - 1] == UInt8(ascii: "\r") { end -= 1 }
        try line(0..<end, number: lineNumber)
        lineNumber += 1
        text.removeAll(keepingCapacity: true)
    }

    private func error(_ kind: FrameFileError.Kind, _ location: HexDump.Location, _ message: String) -> FrameFileError {
        FrameFileError(kind, path: path, line: location.line, column: location.column, message)
    }

    /// Reads one line; `range` excludes the line break.
    private mutating func line(_ range: Range<Int>, number: Int) throws(FrameFileError) {
        let lineStart = range.lowerBound
        func column(_ index: Int) -> Int { index - lineStart + 1 }
        var first = range.lowerBound
        while first < range.upperBound, isSpace(text[first]) { first += 1 }
        guard first < range.upperBound, text[first] != UInt8(ascii: "#") else { return }

        if text[first] == UInt8(ascii: "*"), rest(of: range, after: first + 1).allSatisfy(isSpace) {
            let here = HexDump.Location(line: number, column: column(first))
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
        while digitsEnd < range.upperBound, Hex.isDigit(text[digitsEnd]) { digitsEnd += 1 }
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
                    .badHexDigit, HexDump.Location(line: number, column: column(bad)),
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
        lineBytes.removeAll(keepingCapacity: true)
        try tokens(in: area, line: number, lineStart: lineStart)
        output.append(contentsOf: lineBytes)
        produced += lineBytes.count
        if let offset {
            lastLine = (offset, lineBytes)
        }
    }

    private func rest(of range: Range<Int>, after index: Int) -> ArraySlice<UInt8> {
        text[min(index, range.upperBound)..<range.upperBound]
    }

    private func parseOffset(_ digits: Range<Int>, line: Int, column: Int) throws(FrameFileError) -> Int {
        guard digits.count <= 15 else {
            throw error(
                .badHexDigit, HexDump.Location(line: line, column: column), "offset column of \(digits.count) digits is too long")
        }
        var value = 0
        for index in digits {
            // safe because: at most 15 hex digits, so value < 2^60.
            value = value << 4 | Int((Hex.value(of: text[index]) ?? 0))
        }
        return value
    }

    /// Appends the repeats a `*` line stands for, up to the offset of the line after it.
    private mutating func expandRepeat(to offset: Int, star: HexDump.Location) throws(FrameFileError) {
        guard let lastLine, !lastLine.bytes.isEmpty else {
            throw error(.badRepeat, star, "a '*' line must follow a line with an offset column and bytes")
        }
        let repeated = lastLine.bytes
        // safe because: offsets are below 2^60 and line lengths below the text size.
        let gap = offset - (lastLine.offset + repeated.count)
        guard gap >= 0, gap % repeated.count == 0 else {
            throw error(
                .badRepeat, star,
                "the '*' line stands for repeats of the \(repeated.count)-byte line before it, but the next offset \(offset) is not a whole number of such lines after it"
            )
        }
        guard gap <= maxBytes - produced else {
            throw error(.badRepeat, star, "the '*' line expands to \(gap) bytes, over the limit of \(maxBytes)")
        }
        guard gap > 0 else { return }
        locations.anchors.append(.init(byteOffset: produced, line: star.line, column: star.column, step: 0))
        produced += gap
        repeats.append((pattern: repeated, count: gap / repeated.count, after: output.count))
    }

    /// Reads the whitespace-separated hex tokens in `area`.
    private mutating func tokens(in area: Range<Int>, line: Int, lineStart: Int) throws(FrameFileError) {
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

    private mutating func token(_ token: Range<Int>, line: Int, lineStart: Int) throws(FrameFileError) {
        func here(_ index: Int) -> HexDump.Location { HexDump.Location(line: line, column: index - lineStart + 1) }
        var digits = token.lowerBound
        if token.count >= 2, text[digits] == UInt8(ascii: "0"), text[digits + 1] | 0x20 == UInt8(ascii: "x") {
            digits += 2
            guard digits < token.upperBound else {
                throw error(.badHexDigit, here(token.lowerBound), "'0x' must be followed by hex digits")
            }
        }
        for index in digits..<token.upperBound where !Hex.isDigit(text[index]) {
            throw error(.badHexDigit, here(index), "\(describe(text[index])) is not a hex digit")
        }
        let count = token.upperBound - digits
        guard count % 2 == 0 else {
            throw error(
                .oddHexDigits, here(token.lowerBound),
                "hex token has \(count) digits, an odd number; each byte takes two digits")
        }
        guard count / 2 <= maxBytes - produced - lineBytes.count else {
            throw error(.badRepeat, here(token.lowerBound), "the dump holds more than \(maxBytes) bytes")
        }
        locations.anchors.append(
            .init(byteOffset: produced + lineBytes.count, line: line, column: digits - lineStart + 1, step: 2))
        var index = digits
        while index < token.upperBound {
            // safe because: count is even, so index + 1 < token.upperBound.
            lineBytes.append((Hex.value(of: text[index]) ?? 0) << 4 | (Hex.value(of: text[index + 1]) ?? 0))
            index += 2
        }
    }

    private func describe(_ byte: UInt8) -> String {
        if byte >= 0x21, byte < 0x7F {
            return "'\(Character(Unicode.Scalar(byte)))'"
        }
        return "byte " + Hex.literal(byte, width: 2)
    }
}

private func isSpace(_ byte: UInt8) -> Bool {
    byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\r")
}
