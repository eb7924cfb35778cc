/// How a `groupwire` command ended: its exit status.
package struct ToolStatus: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// The process exit code.
    package let rawValue: Int32

    /// Creates a status from an exit code.
    package init(rawValue: Int32) {
        self.rawValue = rawValue
    }

    /// Exit 0: success (for `spec diff`, compatible).
    package static let ok = ToolStatus(rawValue: 0)
    /// Exit 1: the input data is invalid (bad JSON, bad frames; for `spec diff`, breaking).
    package static let invalidInput = ToolStatus(rawValue: 1)
    /// Exit 2: a usage, spec or I/O error.
    package static let failure = ToolStatus(rawValue: 2)

    /// The exit code as text.
    package var description: String { String(rawValue) }
}

/// What a `groupwire` command produced: bytes for standard output, text for standard
/// error, and an exit status. Commands compute it without touching the process, so tests
/// can check all three.
package struct ToolResult: Sendable, Hashable {
    /// Bytes for standard output.
    package var output: [UInt8]
    /// Text for standard error: diagnostics and `groupwire: error: …` lines.
    package var messages: String
    /// The exit status.
    package var status: ToolStatus

    /// Creates a result.
    package init(output: [UInt8] = [], messages: String = "", status: ToolStatus = .ok) {
        self.output = output
        self.messages = messages
        self.status = status
    }

    /// A result with only an error line (`groupwire: error: <message>`) and `status`.
    package static func error(_ message: String, status: ToolStatus) -> ToolResult {
        ToolResult(messages: ToolResult.errorLine(message), status: status)
    }

    /// `groupwire: error: <message>` with a newline.
    package static func errorLine(_ message: String) -> String {
        "groupwire: error: \(message)\n"
    }

    /// Standard output as UTF-8 text.
    package var outputText: String { String(decoding: output, as: UTF8.self) }
}

/// A failure that ends a command early, carrying what to print and the exit status.
package struct ToolFailure: Error {
    package let result: ToolResult

    package init(_ message: String, status: ToolStatus = .failure) {
        result = .error(message, status: status)
    }

    package init(result: ToolResult) {
        self.result = result
    }
}
