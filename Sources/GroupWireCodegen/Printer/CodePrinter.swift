/// An indentation-aware text printer for generated Swift.
///
/// Code is emitted line by line; the printer owns the indentation, so callers never count
/// spaces. Empty lines carry no trailing spaces, and the output always ends with one newline.
public struct CodePrinter: Sendable {
    /// The text printed so far.
    public private(set) var content: String = ""
    /// The current nesting level.
    public private(set) var level: Int = 0
    /// The text of one indentation level.
    public let indentUnit: String

    /// Creates an empty printer.
    /// - Parameter indentUnit: one level of indentation (four spaces by default).
    public init(indentUnit: String = "    ") {
        self.indentUnit = indentUnit
    }

    /// Prints one line at the current indentation; an empty line gets no indentation.
    public mutating func line(_ text: String = "") {
        if !text.isEmpty {
            for _ in 0..<level {
                content.append(indentUnit)
            }
            content.append(text)
        }
        content.append("\n")
    }

    /// Prints each line of a multi-line text at the current indentation.
    public mutating func lines(_ text: String) {
        for piece in text.split(separator: "\n", omittingEmptySubsequences: false) {
            line(String(piece))
        }
    }

    /// Moves one level in.
    public mutating func indent() {
        level += 1
    }

    /// Moves one level out; does nothing at level 0.
    public mutating func outdent() {
        if level > 0 {
            level -= 1
        }
    }

    /// Prints `header`, the lines `body` prints one level in, then `footer`.
    public mutating func block(_ header: String, footer: String = "}", _ body: (inout CodePrinter) -> Void) {
        line(header)
        indent()
        body(&self)
        outdent()
        line(footer)
    }
}
