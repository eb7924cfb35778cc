/// A position in a spec source file.
///
/// Lines and columns are 1-based. A column counts UTF-8 bytes from the start of its line,
/// so a tab or a multi-byte character each advance it by their encoded length.
public struct SourceLocation: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The path of the file, as given to the compiler or the loader.
    public var file: String
    /// The 1-based line number.
    public var line: Int
    /// The 1-based column (UTF-8 byte) in the line.
    public var column: Int

    /// Creates a location.
    /// - Parameters:
    ///   - file: the path of the file.
    ///   - line: the 1-based line.
    ///   - column: the 1-based UTF-8 column.
    public init(file: String, line: Int, column: Int) {
        self.file = file
        self.line = line
        self.column = column
    }

    /// `file:line:col`, the compiler-style prefix of a diagnostic.
    public var description: String { "\(file):\(line):\(column)" }

    /// Orders locations by file, then line, then column.
    public static func < (lhs: SourceLocation, rhs: SourceLocation) -> Bool {
        (lhs.file, lhs.line, lhs.column) < (rhs.file, rhs.line, rhs.column)
    }
}
