/// An error in JSON given to the dynamic codec: malformed JSON text, or JSON that does not
/// fit the spec type it is encoded as.
///
/// It names where the problem is: ``path`` in the document (`$.strokes[3].color`) and, for
/// syntax errors, the byte ``offset`` with its ``line`` and ``column``.
public struct JSONInputError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The class of problem. Compare with `==` (for example `error.kind == .unknownField`).
    public struct Kind: Sendable, Hashable, CustomStringConvertible {
        /// The stable name of the kind.
        public let name: String

        private init(_ name: String) {
            self.name = name
        }

        /// The stable name of the kind.
        public var description: String { name }

        /// The text is not valid JSON.
        public static let syntax = Kind("syntax")
        /// A value has another JSON type than the spec type needs (a string for a number).
        public static let typeMismatch = Kind("typeMismatch")
        /// An object has a member the spec type does not declare.
        public static let unknownField = Kind("unknownField")
        /// A number is outside the range of its integer type, or not an integer.
        public static let outOfRange = Kind("outOfRange")
        /// A value has the right JSON type but is not allowed: a malformed UUID, base64 or
        /// timestamp, an unknown enum or union case name, a union object with two members.
        public static let invalidValue = Kind("invalidValue")
        /// A string, byte string, collection or nesting level is over its `Limits` value.
        public static let limitExceeded = Kind("limitExceeded")
        /// The spec has no message or type of the requested name.
        public static let unknownType = Kind("unknownType")
        /// The encoded message does not fit one frame.
        public static let frameTooLarge = Kind("frameTooLarge")
    }

    /// What went wrong.
    public let kind: Kind
    /// Where in the document: `$` is the root, then `.member` and `[index]` steps.
    public let path: String
    /// The byte offset in the JSON text, for syntax errors.
    public let offset: Int?
    /// The 1-based line of ``offset``, for syntax errors.
    public let line: Int?
    /// The 1-based column (in bytes) of ``offset``, for syntax errors.
    public let column: Int?
    /// What was expected and what was found.
    public let context: String

    /// Creates an error at a document path.
    public init(_ kind: Kind, path: String, _ context: String) {
        self.kind = kind
        self.path = path
        self.offset = nil
        self.line = nil
        self.column = nil
        self.context = context
    }

    /// Creates a syntax error at a byte offset of the JSON text.
    public init(syntaxAt offset: Int, line: Int, column: Int, _ context: String) {
        self.kind = .syntax
        self.path = "$"
        self.offset = offset
        self.line = line
        self.column = column
        self.context = context
    }

    /// Creates a ``Kind/syntax`` error from the parser's error, keeping its position.
    public init(_ syntaxError: JSONSyntaxError) {
        self.init(syntaxAt: syntaxError.offset, line: syntaxError.line, column: syntaxError.column, syntaxError.context)
    }

    /// `line 3, column 7: ...` for syntax errors, `$.path: ...` otherwise.
    public var description: String {
        if let line, let column {
            return "invalid JSON at line \(line), column \(column): \(context)"
        }
        return "\(path): \(context)"
    }
}

/// A step in a JSON document path.
enum JSONPathComponent: Sendable {
    /// An object member.
    case key(String)
    /// An array element.
    case index(Int)

    /// Renders components as `$.a.b[2]["odd key"]`.
    static func render(_ components: [JSONPathComponent]) -> String {
        var text = "$"
        for component in components {
            switch component {
            case .index(let index):
                text += "[\(index)]"
            case .key(let key):
                if isIdentifier(key) {
                    text += "." + key
                } else {
                    text += "[" + JSONWriter().string(.string(key)) + "]"
                }
            }
        }
        return text
    }

    private static func isIdentifier(_ key: String) -> Bool {
        guard let first = key.utf8.first, !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first) else { return false }
        return key.utf8.allSatisfy { byte in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "_")
        }
    }
}
