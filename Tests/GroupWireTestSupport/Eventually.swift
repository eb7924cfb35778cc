import Testing

/// A wait that ran past its outer bound: the event it waited for did not happen.
package struct WaitTimedOut: Error, CustomStringConvertible {
    /// What was awaited and for how long.
    package let description: String

    /// Wraps `description`.
    package init(description: String) { self.description = description }
}

/// Waits until `condition` holds, checking it after every short pause.
///
/// This is how a test over real sockets and processes waits for the event it needs (a
/// message, a close, a log line, a metric): the test asserts on the event, never on how long
/// it took. `within` is one generous outer bound that exists only so that a hung test ends;
/// it is not a time any behaviour depends on, so a busy machine only makes the wait longer.
/// For a timer's meaning (a grace period, a timeout), use a virtual clock instead and move it.
/// - Parameters:
///   - what: what is awaited, for the failure message.
///   - within: the outer bound (default 120 s).
///   - state: what the failure message adds about the state the wait ended in (what was
///     seen instead), so that a wait that times out once says why.
///   - condition: the event's test; it may be async and may throw.
/// - Throws: ``WaitTimedOut`` when `within` passes first, naming what and where, or what
///   `condition` throws.
package func eventually(
    _ what: String, within: Duration = .seconds(120), state: (() -> String)? = nil,
    sourceLocation: SourceLocation = #_sourceLocation, _ condition: () async throws -> Bool
) async throws {
    let deadline = ContinuousClock.now + within
    var pause = Duration.microseconds(200)
    while try await !condition() {
        guard ContinuousClock.now < deadline else {
            let seen = state.map { "; \($0())" } ?? ""
            throw WaitTimedOut(
                description:
                    "\(sourceLocation.fileName):\(sourceLocation.line): timed out after \(within) waiting for \(what)\(seen)")
        }
        // The poll interval, growing to 20 ms: nothing waits on this pause's length.
        try await Task.sleep(for: pause)
        pause = min(pause * 2, .milliseconds(20))
    }
}
