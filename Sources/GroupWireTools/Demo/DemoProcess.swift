import Foundation
import Synchronization

/// A child process of `groupwire demo` (the relay or a participant): its standard input
/// to send commands on, its output lines and participant events as they come, and a stop
/// by process id that never leaves it running.
final class DemoProcess: Sendable {
    /// Who it is, for messages.
    let name: String
    /// Its process id.
    let pid: Int32
    private let input: FileHandle
    private let buffers = Buffers()

    /// What the output handlers fill.
    private final class Buffers: Sendable {
        let state = Mutex<(partial: [UInt8], lines: [String], events: [ParticipantEvent], exited: Bool)>(([], [], [], false))
        /// Its standard error, for a failure's message.
        let errors = Mutex<[UInt8]>([])
    }

    /// Starts `executable` with `arguments` and `environment` added to this process's.
    init(name: String, executable: URL, arguments: [String], environment: [String: String]) throws {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let input = Pipe()
        let output = Pipe()
        let errorOutput = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errorOutput
        self.name = name
        self.input = input.fileHandleForWriting
        try process.run()
        pid = process.processIdentifier
        output.fileHandleForReading.readabilityHandler = { [buffers] handle in
            let data = handle.availableData
            buffers.state.withLock { state in
                guard !data.isEmpty else {
                    state.exited = true
                    handle.readabilityHandler = nil
                    return
                }
                state.partial += data
                while let end = state.partial.firstIndex(of: UInt8(ascii: "\n")) {
                    let line = String(decoding: state.partial[..<end], as: UTF8.self)
                    state.partial.removeSubrange(...end)
                    state.lines.append(line)
                    if let event = ParticipantEvent(line: line) { state.events.append(event) }
                }
            }
        }
        errorOutput.fileHandleForReading.readabilityHandler = { [buffers] handle in
            let data = handle.availableData
            if data.isEmpty { handle.readabilityHandler = nil }
            // Keep the last 64 KiB: enough to say why it failed.
            buffers.errors.withLock { errors in
                errors += data
                if errors.count > 1 << 16 { errors.removeFirst(errors.count - (1 << 16)) }
            }
        }
    }

    /// Output lines so far.
    var lines: [String] { buffers.state.withLock { $0.lines } }
    /// Participant events so far.
    var events: [ParticipantEvent] { buffers.state.withLock { $0.events } }
    /// Whether its standard output has ended (it exited or is about to).
    var hasExited: Bool { buffers.state.withLock { $0.exited } }
    /// The end of its standard error.
    var errorText: String { String(decoding: buffers.errors.withLock { $0 }, as: UTF8.self) }

    /// Sends one command line; a process that has gone is not an error here (the wait
    /// that follows says what is missing).
    func send(_ line: String) {
        try? input.write(contentsOf: Data((line + "\n").utf8))
    }

    /// Ends its standard input: a participant quits, a relay run with `--until-stdin-closes` stops.
    func closeInput() {
        try? input.close()
    }

    /// Sends `signal` to it.
    func signal(_ number: Int32) {
        kill(pid, number)
    }

    /// Waits until it has exited (its output ended and its process is gone), at most `timeout`.
    func waitForExit(timeout: Duration) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        var goneSince: ContinuousClock.Instant?
        while ContinuousClock.now < deadline {
            if !isRunning {
                if hasExited { return true }
                // Gone, but its output has not ended: the rest may still be arriving, or a
                // process started at the same moment inherited the pipe and holds it open.
                // A moment for the rest, no longer.
                let since = goneSince ?? .now
                goneSince = since
                if since.duration(to: .now) > .seconds(1) { return true }
            }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return false
    }

    /// Whether the process is still there (a zombie not yet reaped counts as gone).
    var isRunning: Bool {
        guard kill(pid, 0) == 0 else { return false }
        let status = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
        return !status.contains(") Z ")
    }

    /// Stops it for good: `quit` and the end of input, then SIGTERM after `grace`, then SIGKILL.
    func stop(grace: Duration = .seconds(5)) async {
        send("quit")
        closeInput()
        if await waitForExit(timeout: grace) { return }
        signal(SIGTERM)
        if await waitForExit(timeout: .seconds(2)) { return }
        signal(SIGKILL)
        _ = await waitForExit(timeout: .seconds(2))
    }
}
