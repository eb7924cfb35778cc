/// Where a command writes while it runs: standard output and standard error. Commands that
/// read frames print each result as soon as it is known, through this, rather than
/// collecting a ``ToolResult``.
public struct ToolOutput {
    private let writeOutput: ([UInt8]) -> Void
    private let writeMessages: (String) -> Void
    private let flushOutput: () -> Void

    /// Creates an output.
    /// - Parameters:
    ///   - output: writes bytes to standard output (it may buffer them).
    ///   - messages: writes text to standard error.
    ///   - flush: writes out what `output` buffered; called before the command waits for
    ///     more input, so that results already known are seen at once.
    public init(output: @escaping ([UInt8]) -> Void, messages: @escaping (String) -> Void, flush: @escaping () -> Void = {}) {
        writeOutput = output
        writeMessages = messages
        flushOutput = flush
    }

    /// Writes bytes to standard output.
    public func write(_ bytes: [UInt8]) {
        writeOutput(bytes)
    }

    /// Writes text to standard output.
    public func write(_ text: String) {
        writeOutput(Array(text.utf8))
    }

    /// Writes text (whole lines) to standard error.
    public func message(_ text: String) {
        writeMessages(text)
    }

    /// Writes out buffered standard output.
    public func flush() {
        flushOutput()
    }

    /// Runs `body` with an output that collects everything, and returns what it wrote
    /// with the status it returned.
    public static func collecting(_ body: (ToolOutput) -> ToolStatus) -> ToolResult {
        final class Collector {
            var result = ToolResult()
        }
        let collector = Collector()
        let output = ToolOutput(output: { collector.result.output += $0 }, messages: { collector.result.messages += $0 })
        let status = body(output)
        collector.result.status = status
        return collector.result
    }
}
