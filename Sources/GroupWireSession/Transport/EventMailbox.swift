import Synchronization

/// Transport events waiting for one reader, handed out as it asks for them: what the
/// in-process hub's endpoints and the delivery layer expose as `events`.
///
/// Unlike a buffered `AsyncStream`, it can tell how far its reader got. An event counts as
/// taken once the reader's `next()` has returned it in the reader's own task (a busy
/// machine can leave a resumed reader waiting to run), and the mailbox is settled once the
/// reader also came back for the next event, so what it did with the last one is done; the
/// hub's settle waits for these before it moves simulated time on (``SettleGauge``).
package final class EventMailbox: SettleProbe {
    private struct State {
        var buffer: [TransportEvent] = []
        var head = 0
        var finished = false
        var reason: String?
        var waiter: UnsafeContinuation<TransportEvent?, Never>?
        /// Events handed to a resumed reader that has not yet returned them.
        var handing = 0
        /// Whether the reader returned an event and has not come back for the next one.
        var handling = false
        /// Whether anybody reads this mailbox (a participant nobody reads is never waited for).
        var read = false
    }

    private let state = Mutex(State())

    /// A mailbox nothing was added to; registered with ``SettleGauge/current`` if any.
    package init() {
        SettleGauge.current?.watch(self)
    }

    /// The stream of the events; it ends after ``finish(reason:)`` and what came before it.
    package var stream: AsyncStream<TransportEvent> {
        AsyncStream(unfolding: { [self] in await next() })
    }

    /// Adds `event` for the reader.
    package func yield(_ event: TransportEvent) {
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
    package var finishReason: String? { state.withLock { $0.reason } }

    /// Ends the stream after the events already added, for `reason`.
    package func finish(reason: String) {
        let waiter = state.withLock { state -> UnsafeContinuation<TransportEvent?, Never>? in
            if !state.finished { state.reason = reason }
            state.finished = true
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(returning: nil)
    }

    /// Whether the reader has taken every event added (or nobody reads this mailbox).
    package var isTaken: Bool {
        state.withLock { state in !state.read || (state.head == state.buffer.count && state.handing == 0) }
    }

    /// Whether the reader has taken every event added and came back after the last one (or
    /// nobody reads this mailbox, or it ended and nothing is left in it).
    package var isSettled: Bool {
        state.withLock { state in
            let empty = state.head == state.buffer.count && state.handing == 0
            return !state.read || empty && (!state.handling || state.finished)
        }
    }

    /// The waiter is resumed exactly once: it is taken out of the state under the lock by
    /// whoever resumes it (an event, the finish, the cancellation), so an unchecked
    /// continuation is safe, and it allocates nothing per event.
    private func next() async -> TransportEvent? {
        let event = await withTaskCancellationHandler {
            await withUnsafeContinuation { (continuation: UnsafeContinuation<TransportEvent?, Never>) in
                let ready = state.withLock { state -> TransportEvent?? in
                    state.read = true
                    state.handling = false
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
                // A reader that gave up reads no more (its stream has ended, as an
                // `AsyncStream`'s does): nothing is kept or waited for on its behalf.
                state.read = false
                state.finished = true
                state.buffer.removeAll()
                state.head = 0
                defer { state.waiter = nil }
                return state.waiter
            }
            waiter?.resume(returning: nil)
        }
        if event != nil {
            state.withLock { state in
                state.handing -= 1
                state.handling = true
            }
        }
        return event
    }
}
