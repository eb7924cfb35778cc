/// One lexical token of a spec file.
struct Token: Sendable, Hashable {
    /// What kind of token.
    enum Kind: Sendable, Hashable {
        /// A name or keyword: `[A-Za-z_][A-Za-z0-9_]*`.
        case identifier
        /// An unsigned integer literal (decimal or `0x` hex); ``Token/integer`` is `nil` on overflow.
        case integer
        /// A decimal floating-point literal; ``Token/float`` holds the value.
        case float
        /// A string literal; ``Token/text`` holds the decoded contents.
        case string
        /// Punctuation: ``Token/text`` is one of `{ } [ ] ( ) : , ; = ? @ - . ...`.
        case punctuation
        /// The end of the file.
        case end
    }

    var kind: Kind
    /// The identifier, punctuation, decoded string or literal spelling.
    var text: String
    /// The value of an integer literal, `nil` when it does not fit 64 bits.
    var integer: UInt64?
    /// The value of a float literal.
    var float: Double?
    /// Where the token starts.
    var location: SourceLocation
    /// Whether the token is the first one on its line.
    var startsLine: Bool
    /// The `///` lines directly before this token, joined with `\n`.
    var documentation: String?

    /// Whether this is the punctuation `symbol`.
    func isPunctuation(_ symbol: String) -> Bool { kind == .punctuation && text == symbol }

    /// Whether this is the identifier `word` (keywords are contextual identifiers).
    func isWord(_ word: String) -> Bool { kind == .identifier && text == word }

    /// How the token is quoted in diagnostics: `'message'`, `end of file`, `string "abc"`.
    var quoted: String {
        switch kind {
        case .end: "end of file"
        case .string: "string \"\(text)\""
        case .identifier, .integer, .float, .punctuation: "'\(text)'"
        }
    }
}
