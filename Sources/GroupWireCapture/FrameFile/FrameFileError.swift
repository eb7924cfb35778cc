/// A problem reading or writing a frame file: a missing or unreadable file, or a hex dump
/// that is not hex.
///
/// A struct (not an enum) so that kinds can be added later. ``description`` is a
/// compiler-style diagnostic: `path:line:column: error: message` when the problem has a
/// position in a text file, else `path: error: message`.
public struct FrameFileError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The class of problem. Compare with `==` (for example `error.kind == .badHexDigit`).
    public struct Kind: Sendable, Hashable, CustomStringConvertible {
        /// The stable name of the kind.
        public let name: String

        init(name: String) {
            self.name = name
        }

        /// The stable name of the kind.
        public var description: String { name }

        /// No file exists at the path.
        public static let fileNotFound = Kind(name: "fileNotFound")
        /// The path exists but cannot be read (a directory, no permission, an I/O error).
        public static let unreadable = Kind(name: "unreadable")
        /// The file cannot be created or written.
        public static let unwritable = Kind(name: "unwritable")
        /// The file is larger than the reader accepts.
        public static let fileTooLarge = Kind(name: "fileTooLarge")
        /// A hex dump holds a character that is not a hex digit where one is expected.
        public static let badHexDigit = Kind(name: "badHexDigit")
        /// A hex token has an odd number of digits, so it does not make whole bytes.
        public static let oddHexDigits = Kind(name: "oddHexDigits")
        /// A `*` line (repeated lines left out) cannot be expanded.
        public static let badRepeat = Kind(name: "badRepeat")
        /// A pcapng or pcap file is malformed: a bad block length, a file that ends inside
        /// a block, a packet naming an interface that was not described.
        public static let badCapture = Kind(name: "badCapture")
        /// A capture's link type is not GroupWire's (LINKTYPE_USER0, 147).
        public static let unknownLinkType = Kind(name: "unknownLinkType")
    }

    /// What went wrong.
    public let kind: Kind
    /// The file concerned, as the user named it.
    public var path: String
    /// The 1-based line of the problem in a text file, when one applies.
    public let line: Int?
    /// The 1-based column (byte in the line) of the problem, when one applies.
    public let column: Int?
    /// The byte offset of the problem in a binary file, when one applies.
    public let offset: Int?
    /// What is wrong and, where possible, how to fix it.
    public let message: String

    /// Creates an error.
    public init(_ kind: Kind, path: String, line: Int? = nil, column: Int? = nil, offset: Int? = nil, _ message: String) {
        self.kind = kind
        self.path = path
        self.line = line
        self.column = column
        self.offset = offset
        self.message = message
    }

    /// `path:line:column: error: message`, `path: error: at byte N: message`, or
    /// `path: error: message` without a position.
    public var description: String {
        if let line {
            return "\(path):\(line):\(column ?? 1): error: \(message)"
        }
        if let offset {
            return "\(path): error: at byte \(offset): \(message)"
        }
        return "\(path): error: \(message)"
    }
}
