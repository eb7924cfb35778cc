import GroupWireSession
import Synchronization

/// The events waiting for one hub participant, handed out as its reader asks for them.
///
/// The hub's endpoints read through this instead of a buffered `AsyncStream`, so the hub
/// can tell when a participant has taken everything delivered to it: an event counts as
/// taken only once the reader's `next()` has returned it in the reader's own task. A busy
/// machine can leave a resumed reader waiting to run; ``InProcessHub/settle()`` waits for
/// that instead of moving simulated time on without it.
final class HubMailbox: Sendable {
    private struct State {
        var buffer: [TransportEvent] = []
        var head = 0
        var finished = false
        var reason: String?
        var waiter: UnsafeContinuation<TransportEvent?, Never>?
        /// Events handed to a resumed reader that has not yet returned them.
        var handing = 0
        /// Whether anybody reads this mailbox (a participant nobody reads is never waited for).
        var read = false
    }

    private let state = Mutex(State())

    /// The stream the endpoint exposes; it ends after ``finish()`` and what came before it.
    var stream: AsyncStream<TransportEvent> {
        AsyncStream(unfolding: { [self] in await next() })
    }

    /// Adds `event` for the reader.
    func yield(_ event: TransportEvent) {
        let waiter = state.withLock { state -> UnsafeContinuation<TransportEvent?, Never>? in
            guard !state.finished else { return nil }
            guard let waiter = state.waiter else {
                state.buffer.append(event)
                return nil
            }
            state.waiter = nil
            state.handing += 1
            return waiter
        }
        waiter?.resume(returning: event)
    }

    /// Why the stream ended, once it has.
    var finishReason: String? { state.withLock { $0.reason } }

    /// Ends the stream after the events already added, for `reason`.
    func finish(reason: String) {
        let waiter = state.withLock { state -> UnsafeContinuation<TransportEvent?, Never>? in
            if !state.finished { state.reason = reason }
            state.finished = true
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(returning: nil)
    }

    /// Whether the reader has taken every event added (or nobody reads this mailbox).
    var isTaken: Bool {
        state.withLock { state in !state.read || (state.head == state.buffer.count && state.handing == 0) }
    }

    /// The waiter is resumed exactly once: it is taken out of the state under the lock by
    /// whoever resumes it (an event, the finish, the cancellation), so an unchecked
    /// continuation is safe, and it allocates nothing per event.
    private func next() async -> TransportEvent? {
        let event = await withTaskCancellationHandler {
            await withUnsafeContinuation { (continuation: UnsafeContinuation<TransportEvent?, Never>) in
                let ready = state.withLock { state -> TransportEvent?? in
                    state.read = true
                    if state.head < state.buffer.count {
                        let event = state.buffer[state.head]
                        state.head += 1
                        if state.head == state.buffer.count {
                            state.buffer.removeAll(keepingCapacity: true)
                            state.head = 0
                        }
                        state.handing += 1
                        return .some(event)
                    }
                    if state.finished || Task.isCancelled { return .some(nil) }
                    state.waiter = continuation
                    return nil
                }
                if let ready { continuation.resume(returning: ready) }
            }
        } onCancel: {
            let waiter = state.withLock { state -> UnsafeContinuation<TransportEvent?, Never>? in
                // A reader that gave up reads no more: nothing is waited for on its behalf.
                state.read = false
                defer { state.waiter = nil }
                return state.waiter
            }
            waiter?.resume(returning: nil)
        }
        if event != nil { state.withLock { $0.handing -= 1 } }
        return event
    }
}
