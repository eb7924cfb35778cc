/// What a tool command produced: its standard output, its standard error and its exit
/// status, returned as values so the command logic is testable without a process.
public struct ToolOutput: Sendable, Hashable {
    /// Text for standard output.
    public var standardOutput: String
    /// Text for standard error.
    public var standardError: String
    /// The exit status: ``success``, ``invalidInput`` or ``usageOrIOError``.
    public var exitCode: Int32

    /// Every frame was valid (or the command succeeded).
    public static let success: Int32 = 0
    /// The input was read but some frames in it are invalid.
    public static let invalidInput: Int32 = 1
    /// The command line was wrong, or a file could not be read or written, or a hex dump
    /// is not hex.
    public static let usageOrIOError: Int32 = 2

    /// Creates an output.
    public init(standardOutput: String = "", standardError: String = "", exitCode: Int32) {
        self.standardOutput = standardOutput
        self.standardError = standardError
        self.exitCode = exitCode
    }
}
