/// Text that is not valid JSON (RFC 8259), with where the problem is.
///
/// ``JSONParser`` throws it; ``offset`` is the byte offset of the problem in the input,
/// ``line`` and ``column`` the same place for people (both 1-based, the column in bytes).
public struct JSONSyntaxError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The byte offset of the problem in the JSON text.
    public let offset: Int
    /// The 1-based line of ``offset``.
    public let line: Int
    /// The 1-based column (in bytes) of ``offset``.
    public let column: Int
    /// What was expected and what was found.
    public let context: String

    /// Creates an error at a byte offset of the JSON text.
    /// - Parameters:
    ///   - offset: the byte offset of the problem.
    ///   - line: the 1-based line of `offset`.
    ///   - column: the 1-based column (in bytes) of `offset`.
    ///   - context: what was expected and what was found.
    public init(offset: Int, line: Int, column: Int, _ context: String) {
        self.offset = offset
        self.line = line
        self.column = column
        self.context = context
    }

    /// `invalid JSON at line 3, column 7: ...`.
    public var description: String {
        "invalid JSON at line \(line), column \(column): \(context)"
    }
}
