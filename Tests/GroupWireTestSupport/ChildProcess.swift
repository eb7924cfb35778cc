import Foundation

/// Runs a child process to its end, in bounded time, for tests that drive the built tools
/// or system tools (`zstd`, `sh`) as a user would.
package enum ChildProcess {
    /// What a run produced.
    package struct Run: Sendable {
        /// The exit status (for a process ended by a signal, the signal number).
        package var status: Int32
        /// Everything the process wrote to standard output.
        package var output: [UInt8]
        /// Everything the process wrote to standard error, as text.
        package var errors: String
        /// Whether the process was killed for running past its time limit.
        package var timedOut: Bool

        /// Standard output as UTF-8 text.
        package var outputText: String { String(decoding: output, as: UTF8.self) }
    }

    /// A run that exited with a non-zero status or timed out.
    package struct Failure: Error, CustomStringConvertible {
        /// The command line and what it wrote to standard error.
        package let description: String

        /// Wraps `description`.
        package init(description: String) { self.description = description }
    }

    /// Runs `executable arguments...` with `input` on standard input and waits for it.
    /// - Parameters:
    ///   - executable: the program to run.
    ///   - arguments: its arguments.
    ///   - input: the bytes of its standard input.
    ///   - directory: its working directory (default: the repository root).
    ///   - environment: its environment (default: this process's).
    ///   - timeLimit: how long it may run before it is killed (default 120 s).
    /// - Returns: its status and both output streams.
    package static func run(
        _ executable: URL, _ arguments: [String], input: [UInt8] = [], directory: URL = RepositoryPaths.root,
        environment: [String: String]? = nil, timeLimit: Duration = .seconds(120)
    ) throws -> Run {
        let folder = try RepositoryPaths.temporaryDirectory(prefix: "groupwire-process")
        defer { try? FileManager.default.removeItem(at: folder) }
        let inputURL = folder.appendingPathComponent("stdin")
        let outputURL = folder.appendingPathComponent("stdout")
        let errorURL = folder.appendingPathComponent("stderr")
        try Data(input).write(to: inputURL)
        _ = FileManager.default.createFile(atPath: outputURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errorURL.path, contents: nil)
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = directory
        if let environment { process.environment = environment }
        // Files instead of pipes: no deadlock however much either stream holds.
        process.standardInput = try FileHandle(forReadingFrom: inputURL)
        process.standardOutput = try FileHandle(forWritingTo: outputURL)
        process.standardError = try FileHandle(forWritingTo: errorURL)
        let ended = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in ended.signal() }
        try process.run()
        // Waits for the exit itself; the limit only ends a hung child.
        let seconds = Double(timeLimit.components.seconds) + Double(timeLimit.components.attoseconds) / 1e18
        let timedOut = ended.wait(timeout: .now() + seconds) == .timedOut
        if timedOut { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        return Run(
            status: process.terminationStatus, output: [UInt8](try Data(contentsOf: outputURL)),
            errors: String(decoding: try Data(contentsOf: errorURL), as: UTF8.self), timedOut: timedOut)
    }

    /// ``run(_:_:input:directory:environment:timeLimit:)`` for async callers: the wait
    /// happens on a thread of its own, so a long child (a package build) does not hold one of
    /// the few threads every test's tasks share.
    package static func run(
        _ executable: URL, _ arguments: [String], input: [UInt8] = [], directory: URL = RepositoryPaths.root,
        environment: [String: String]? = nil, timeLimit: Duration = .seconds(120)
    ) async throws -> Run {
        try await withCheckedThrowingContinuation { continuation in
            Thread {
                continuation.resume(
                    with: Result {
                        try run(
                            executable, arguments, input: input, directory: directory, environment: environment,
                            timeLimit: timeLimit)
                    })
            }.start()
        }
    }

    /// Runs `executable arguments...` and returns its standard output.
    /// - Throws: ``Failure`` when it exits with a non-zero status or runs past its time limit.
    @discardableResult
    package static func output(_ executable: URL, _ arguments: [String], input: [UInt8] = []) throws -> [UInt8] {
        let run = try run(executable, arguments, input: input)
        guard run.status == 0, !run.timedOut else {
            throw Failure(
                description:
                    "\(executable.path) \(arguments) exited \(run.status)\(run.timedOut ? " (time limit)" : ""): \(run.errors)")
        }
        return run.output
    }
}
