/// Prints diagnostics compiler-style, with the source line and a caret under the column.
public struct DiagnosticRenderer: Sendable {
    private var linesByFile: [String: [String]]

    /// Creates a renderer over the sources the diagnostics point into.
    /// - Parameter sources: file path to source text.
    public init(sources: [String: String]) {
        // Split on LF bytes, as the lexer counts lines (splitting Characters would treat
        // "\r\n" as one grapheme and miss the line break).
        linesByFile = sources.mapValues { text in
            text.utf8.split(separator: 0x0A, omittingEmptySubsequences: false).map { line in
                var bytes = Array(line)
                if bytes.last == 0x0D { bytes.removeLast() }
                return String(decoding: bytes, as: UTF8.self)
            }
        }
    }

    /// The text of `line` (1-based) in `file`, or `nil` when unknown.
    public func sourceLine(file: String, line: Int) -> String? {
        guard let lines = linesByFile[file], line >= 1, line <= lines.count else { return nil }
        return lines[line - 1]
    }

    /// One diagnostic as a compiler-style block (see ``Diagnostic/rendered(sourceLine:)``).
    public func render(_ diagnostic: Diagnostic) -> String {
        diagnostic.rendered(sourceLine: sourceLine(file: diagnostic.location.file, line: diagnostic.location.line))
    }

    /// All diagnostics, each as a block, separated by newlines, with a trailing newline
    /// (empty string when there are none).
    public func render(_ diagnostics: [Diagnostic]) -> String {
        diagnostics.map { render($0) + "\n" }.joined()
    }
}
