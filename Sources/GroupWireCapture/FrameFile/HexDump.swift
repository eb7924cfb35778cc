/// Bytes read from a whole text hex dump, remembering where in the text each byte came from
/// so problems found in the bytes can be reported at a line and column. It is
/// ``HexDumpReader`` run over the whole text; commands read dumps with that reader, chunk by
/// chunk.
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
/// Blank lines are skipped, and `#` starts a comment that runs to the end of the line. A
/// line is at most ``HexDumpReader/maxLineLength`` bytes long.
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

    /// The bytes the dump holds.
    public let bytes: [UInt8]
    /// Where the bytes came from in the text.
    let locations: HexDumpReader.Locations

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
        var reader = HexDumpReader(path: path, maxBytes: maxBytes)
        try reader.append(text)
        try reader.finish()
        bytes = reader.takeBytes()
        locations = reader.locations
    }

    /// The line and column of the digits of byte `offset`, or nil if it is out of range.
    public func location(ofByte offset: Int) -> Location? {
        guard offset < bytes.count else { return nil }
        return locations.location(ofByte: offset)
    }
}
