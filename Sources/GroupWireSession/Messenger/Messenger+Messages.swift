import DequeModule
import Synchronization

extension Messenger {
    /// A stream of messages of one type, each with its ``MessageContext``, in the order the
    /// messenger received them: what a messenger's and a session's `messages(of:)` return.
    ///
    /// ```swift
    /// for await (stroke, context) in try messenger.messages(of: UpsertStroke.self) { … }
    /// ```
    ///
    /// It keeps what arrives until it is read (without a bound, like the platform
    /// messenger's stream), and it ends when the messenger's transport closes or its session
    /// ends here, after yielding what it kept. It stops listening when the task reading it
    /// is cancelled (what it kept is still returned, then the end), and drops what it kept
    /// when the stream and every iterator made from it are gone. One task reads it at a time
    /// (a second concurrent reader traps, as with `AsyncStream`); a reader on an actor (the
    /// main actor) waits there, without a hop per message.
    ///
    /// Its own type rather than an `AsyncStream`, because each message passes through it
    /// once per listener: specialized for the message type where `messages(of:)` is called,
    /// it hands a message over without the runtime's generic-type lookups and without a
    /// cancellation handler while messages are waiting (Benchmarks/README.md, the messenger
    /// over the hub).
    public struct Messages<Message: Sendable>: AsyncSequence, Sendable {
        /// A message and where it came from.
        public typealias Element = (message: Message, context: MessageContext)
        /// Reading never fails: the stream ends instead.
        public typealias Failure = Never

        @usableFromInline let buffer: MessageBuffer<Message>
        @usableFromInline let lifetime: MessageStreamLifetime

        /// A stream nothing feeds yet.
        @inlinable init() {
            let buffer = MessageBuffer<Message>()
            self.buffer = buffer
            lifetime = MessageStreamLifetime { buffer.terminate() }
        }

        /// An iterator over the messages.
        public func makeAsyncIterator() -> Iterator {
            Iterator(buffer: buffer, lifetime: lifetime)
        }

        /// Reads a ``Messenger/Messages`` stream.
        public struct Iterator: AsyncIteratorProtocol {
            @usableFromInline let buffer: MessageBuffer<Message>
            @usableFromInline let lifetime: MessageStreamLifetime

            init(buffer: MessageBuffer<Message>, lifetime: MessageStreamLifetime) {
                self.buffer = buffer
                self.lifetime = lifetime
            }

            /// The next message, waiting for one if none is kept; nil once the stream ended
            /// (or the reading task was cancelled, after what was kept).
            @inlinable public mutating func next() async -> Element? {
                await buffer.next(isolation: nil)
            }

            /// ``next()`` on the caller's actor, which `for await` calls: a reader on an actor
            /// is not moved off it and back for each message.
            @inlinable public mutating func next(isolation actor: isolated (any Actor)?) async -> Element? {
                await buffer.next(isolation: actor)
            }
        }
    }
}

/// Ends a stream when the last copy of it (and of its iterators) goes.
@usableFromInline
final class MessageStreamLifetime: Sendable {
    let end: @Sendable () -> Void

    @usableFromInline init(end: @escaping @Sendable () -> Void) {
        self.end = end
    }

    deinit { end() }
}

/// What a ``Messenger/Messages`` stream keeps between the messenger, which appends and
/// finishes, and the one task that reads. The reader waits on an unchecked continuation,
/// which whoever resumes it (an append, the finish, the cancellation) takes out of the state
/// under the lock, so it is resumed exactly once.
@usableFromInline
final class MessageBuffer<Message: Sendable>: SettleProbe {
    @usableFromInline
    struct State {
        @usableFromInline var elements = Deque<(message: Message, context: MessageContext)>()
        /// The reader, while it waits for a message.
        @usableFromInline var reader: UnsafeContinuation<Void, Never>?
        /// Nothing more is appended: the messenger finished the stream, or the reader went.
        @usableFromInline var finished = false
        /// What stops the messenger feeding the stream; run once, when it finishes.
        @usableFromInline var onTermination: (@Sendable () -> Void)?
        /// Whether the reader took a message and has not come back for the next one.
        @usableFromInline var handling = false

        @usableFromInline init() {}
    }

    /// What `take` found.
    @usableFromInline
    enum Taken {
        case element((message: Message, context: MessageContext))
        case empty
        case ended
    }

    @usableFromInline let state: Mutex<State>

    @usableFromInline init() {
        state = Mutex(State())
    }

    /// Keeps `message` for the reader and wakes it if it waits; dropped once the stream
    /// finished.
    @inlinable func append(_ message: Message, context: MessageContext) {
        let reader = state.withLock { state -> UnsafeContinuation<Void, Never>? in
            guard !state.finished else { return nil }
            state.elements.append((message, context))
            defer { state.reader = nil }
            return state.reader
        }
        reader?.resume()
    }

    /// Ends the stream after what it keeps.
    @usableFromInline func finish() {
        end(dropping: false)
    }

    /// Ends the stream now, dropping what it keeps: nobody will read it.
    @usableFromInline func terminate() {
        end(dropping: true)
    }

    private func end(dropping: Bool) {
        let (reader, onTermination) = state.withLock { state in
            state.finished = true
            if dropping { state.elements.removeAll() }
            defer {
                state.reader = nil
                state.onTermination = nil
            }
            return (state.reader, state.onTermination)
        }
        reader?.resume()
        onTermination?()
    }

    /// Sets what stops the feeding; run at once when the stream has finished already.
    @usableFromInline func setOnTermination(_ handler: @escaping @Sendable () -> Void) {
        let finished = state.withLock { state in
            if !state.finished { state.onTermination = handler }
            return state.finished
        }
        if finished { handler() }
    }

    @inlinable func take() -> Taken {
        state.withLock { state in
            if let first = state.elements.popFirst() {
                state.handling = true
                return .element(first)
            }
            state.handling = false
            return state.finished ? .ended : .empty
        }
    }

    /// Whether the reader has handled every message kept for it: none is waiting and it
    /// came back after the last one (or the stream ended). A simulation's settle waits for
    /// this (``SettleGauge``).
    @usableFromInline var isSettled: Bool {
        state.withLock { state in state.finished || state.elements.isEmpty && !state.handling }
    }

    /// The next message: one kept is returned without suspending; otherwise the reader
    /// waits (on `actor`) for an append or the end, and a cancelled reader ends the stream.
    @inlinable func next(isolation actor: isolated (any Actor)?) async -> (message: Message, context: MessageContext)? {
        while true {
            switch take() {
            case .element(let element): return element
            case .ended: return nil
            case .empty: break
            }
            // A cancelled reader stops the stream's feeding; what was kept for it (a message
            // appended as the cancellation came) is still returned before the end.
            if Task.isCancelled {
                finish()
                continue
            }
            await withTaskCancellationHandler {
                await withUnsafeContinuation { (continuation: UnsafeContinuation<Void, Never>) in
                    let ready = state.withLock { state -> Bool in
                        if !state.elements.isEmpty || state.finished { return true }
                        precondition(state.reader == nil, "a Messenger.Messages stream is read by one task at a time")
                        state.reader = continuation
                        return false
                    }
                    if ready { continuation.resume() }
                }
            } onCancel: {
                finish()
            }
        }
    }
}
