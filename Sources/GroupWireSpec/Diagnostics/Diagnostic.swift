/// One problem found in a spec: a value, never thrown.
///
/// The parser and the checks collect every diagnostic they find in one run. Print one with
/// ``description`` (`file:line:col: error: message`) or, with the source line and a caret,
/// through ``rendered(sourceLine:)`` or ``DiagnosticRenderer``.
public struct Diagnostic: Sendable, Hashable, CustomStringConvertible {
    /// How serious a diagnostic is.
    public struct Severity: Sendable, Hashable, Comparable, CustomStringConvertible {
        private let rank: Int
        /// The word printed after the location: `error`, `warning` or `note`.
        public let name: String

        private init(rank: Int, name: String) {
            self.rank = rank
            self.name = name
        }

        /// The spec is invalid; no model should be generated from it.
        public static let error = Severity(rank: 2, name: "error")
        /// The spec is valid but probably not what was meant.
        public static let warning = Severity(rank: 1, name: "warning")
        /// Extra information attached to an error or warning.
        public static let note = Severity(rank: 0, name: "note")

        /// The printed word.
        public var description: String { name }

        /// Orders severities: note < warning < error.
        public static func < (lhs: Severity, rhs: Severity) -> Bool { lhs.rank < rhs.rank }
    }

    /// A related location with its own explanation, e.g. where a duplicate was first declared.
    public struct Note: Sendable, Hashable {
        /// What the note says.
        public var message: String
        /// Where it points.
        public var location: SourceLocation

        /// Creates a note.
        public init(_ message: String, at location: SourceLocation) {
            self.message = message
            self.location = location
        }
    }

    /// How serious the problem is.
    public var severity: Severity
    /// What is wrong, in one line.
    public var message: String
    /// Where it is.
    public var location: SourceLocation
    /// How to fix it, when the fix is clear.
    public var hint: String?
    /// Related locations.
    public var notes: [Note]

    /// Creates a diagnostic.
    /// - Parameters:
    ///   - severity: error, warning or note.
    ///   - message: what is wrong.
    ///   - location: where.
    ///   - hint: how to fix it, if clear.
    ///   - notes: related locations.
    public init(_ severity: Severity, _ message: String, at location: SourceLocation, hint: String? = nil, notes: [Note] = []) {
        self.severity = severity
        self.message = message
        self.location = location
        self.hint = hint
        self.notes = notes
    }

    /// Creates an error diagnostic.
    public static func error(_ message: String, at location: SourceLocation, hint: String? = nil, notes: [Note] = [])
        -> Diagnostic
    {
        Diagnostic(.error, message, at: location, hint: hint, notes: notes)
    }

    /// Creates a warning diagnostic.
    public static func warning(_ message: String, at location: SourceLocation, hint: String? = nil, notes: [Note] = [])
        -> Diagnostic
    {
        Diagnostic(.warning, message, at: location, hint: hint, notes: notes)
    }

    /// The first line only: `file:line:col: error: message`.
    public var description: String { "\(location): \(severity): \(message)" }

    /// The compiler-style block: the first line, the source line, a caret under the column,
    /// then the hint and notes as `note:` lines.
    /// - Parameter sourceLine: the text of the line the diagnostic points at, if known.
    /// - Returns: the lines joined with `\n`, without a trailing newline.
    public func rendered(sourceLine: String?) -> String {
        var lines = [description]
        if let sourceLine {
            lines.append(sourceLine)
            lines.append(Diagnostic.caretLine(for: sourceLine, column: location.column))
        }
        if let hint {
            lines.append("\(location): note: \(hint)")
        }
        for note in notes {
            lines.append("\(note.location): note: \(note.message)")
        }
        return lines.joined(separator: "\n")
    }

    /// Spaces (tabs kept as tabs) up to the column, then `^`. Looks only at the first
    /// `column - 1` bytes of the line.
    static func caretLine(for sourceLine: String, column: Int) -> String {
        let prefix = String(decoding: sourceLine.utf8.prefix(max(0, column - 1)), as: UTF8.self)
        var caret = ""
        for scalar in prefix.unicodeScalars {
            caret.append(scalar == "\t" ? "\t" : " ")
        }
        return caret + "^"
    }
}
