import Foundation
import Synchronization
import Testing

/// A long-running child process (a relay, a participant, the demo) that a test starts,
/// reads while it runs, and always stops: ``stop()`` kills it by its process id, and so does
/// releasing the handle, so a failing test leaves nothing running.
///
/// ```swift
/// let relay = try RunningProcess(binary, ["relay", "--port", "0"])
/// defer { relay.stop() }
/// try await relay.waitForOutput(containing: "listening on")
/// ```
package final class RunningProcess: Sendable {
    /// Text a stream of the process wrote so far.
    package final class Text: @unchecked Sendable {
        // safe because: `text` is only read or written with `condition` locked.
        private let condition = NSCondition()
        private var text = ""

        /// Creates empty text.
        package init() {}

        /// Appends what was read and wakes blocking waiters.
        package func append(_ data: Data) {
            condition.lock()
            text += String(decoding: data, as: UTF8.self)
            condition.broadcast()
            condition.unlock()
        }

        /// Everything so far.
        package var value: String {
            condition.lock()
            defer { condition.unlock() }
            return text
        }

        /// Blocks this thread until `predicate` holds for the text, and runs `then` at once
        /// on this thread (before any task gets to run): for a test that must act on output
        /// right away even when the task pool is busy.
        /// - Returns: whether `predicate` came to hold within `within`.
        package func waitBlocking(within: Duration, until predicate: (String) -> Bool, then: () -> Void = {}) -> Bool {
            let seconds = Double(within.components.seconds) + Double(within.components.attoseconds) / 1e18
            let deadline = Date(timeIntervalSinceNow: seconds)
            condition.lock()
            defer { condition.unlock() }
            while !predicate(text) {
                guard condition.wait(until: deadline) else { return predicate(text) }
            }
            then()
            return true
        }
    }

    /// The process (already running).
    package let process: Process
    /// What it wrote to standard output so far.
    package let output = Text()
    /// What it wrote to standard error so far.
    package let errors = Text()
    private let pipes: [Pipe]
    private let exited = Text()

    /// Starts `executable arguments...`.
    /// - Parameters:
    ///   - executable: the program.
    ///   - arguments: its arguments.
    ///   - environment: its environment (default: this process's).
    ///   - directory: its working directory (default: the repository root).
    /// - Throws: what `Process.run()` throws when it cannot start.
    package init(
        _ executable: URL, _ arguments: [String], environment: [String: String]? = nil, directory: URL = RepositoryPaths.root
    ) throws {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = directory
        if let environment { process.environment = environment }
        let outputPipe = Pipe()
        let errorPipe = Pipe()
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = outputPipe
        process.standardError = errorPipe
        let (output, errors, exited) = (output, errors, self.exited)
        outputPipe.fileHandleForReading.readabilityHandler = { handle in output.append(handle.availableData) }
        errorPipe.fileHandleForReading.readabilityHandler = { handle in errors.append(handle.availableData) }
        process.terminationHandler = { _ in exited.append(Data("exited".utf8)) }
        self.process = process
        pipes = [outputPipe, errorPipe]
        try process.run()
    }

    deinit { stop() }

    /// The process id.
    package var pid: Int32 { process.processIdentifier }

    /// Whether the process has ended.
    package var hasExited: Bool { !exited.value.isEmpty || !process.isRunning }

    /// Sends `signal` (SIGTERM, SIGKILL, SIGINT) to the process if it still runs.
    package func signal(_ signal: Int32) {
        if process.isRunning { kill(process.processIdentifier, signal) }
    }

    /// Kills the process by its id if it still runs and stops reading its output.
    package func stop() {
        signal(SIGKILL)
        for pipe in pipes { pipe.fileHandleForReading.readabilityHandler = nil }
    }

    /// Waits until standard output contains `text`.
    /// - Throws: ``WaitTimedOut`` naming the output so far, or an error when the process
    ///   ends without printing it.
    package func waitForOutput(containing text: String, within: Duration = .seconds(120)) async throws {
        try await wait(for: text, in: output, within: within)
    }

    /// Waits until standard error (the log) contains `text`.
    package func waitForErrors(containing text: String, within: Duration = .seconds(120)) async throws {
        try await wait(for: text, in: errors, within: within)
    }

    /// Waits until the process has exited and returns its status.
    package func waitForExit(within: Duration = .seconds(120)) async throws -> Int32 {
        try await eventually("process \(pid) to exit", within: within) { hasExited }
        process.waitUntilExit()
        return process.terminationStatus
    }

    private func wait(for text: String, in stream: Text, within: Duration) async throws {
        var exitedAt: ContinuousClock.Instant?
        try await eventually("\"\(text)\" from process \(pid)", within: within) {
            if stream.value.contains(text) { return true }
            guard hasExited else { return false }
            // Ended without it: what it wrote last may still be in the pipe, so give the
            // reader a while before calling it a failure (this only shortens a failing wait).
            let since = exitedAt ?? ContinuousClock.now
            exitedAt = since
            guard since.duration(to: .now) < .seconds(10) else {
                throw WaitTimedOut(
                    description: "process \(pid) exited without printing \"\(text)\": \(output.value) \(errors.value)")
            }
            return false
        }
    }
}
