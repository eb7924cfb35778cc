import GroupWire
import Synchronization

/// What the session layer hears from a messenger: control messages and membership.
enum SessionInput: Sendable {
    /// A control message (kind 1) from a participant.
    case control(ReceivedControl)
    /// A participant became reachable.
    case joined(ParticipantID)
    /// A participant is no longer reachable.
    case left(ParticipantID)
    /// The transport closed, for the reason given: nobody is reachable any more.
    case closed(String)
}

/// A control message as received.
struct ReceivedControl: Sendable {
    /// Who sent it.
    let source: ParticipantID
    /// Its control id.
    let controlID: UInt64
    /// Its body, decompressed and reassembled.
    let payload: [UInt8]
}

/// Hands session input from the receiving task to the session layer's observer, in order:
/// control messages that come before there is an observer (a coordinator made after the
/// messenger started receiving) wait in a bounded backlog, and whatever arrives while the
/// backlog is handed over waits behind it.
final class SessionInputRelay: Sendable {
    /// Where session input goes now.
    enum Route {
        /// To the observer, now (outside the lock).
        case observer(@Sendable (SessionInput) -> Void)
        /// Into the backlog, for the observer to get later.
        case kept
        /// Nowhere: no observer and a full backlog, or membership before an observer
        /// (which its start snapshot covers).
        case dropped
    }

    private struct State {
        var observer: (@Sendable (SessionInput) -> Void)?
        var backlog: [SessionInput] = []
        /// The payload bytes of the control messages in the backlog.
        var backlogBytes = 0
        /// Whether ``observe(_:)`` is handing the backlog over.
        var replaying = false
    }

    /// The most session control messages, and their most payload bytes, kept before a
    /// coordinator observes; beyond either, later ones are counted unrouted.
    static let maxBacklog = (messages: 256, bytes: 256 << 10)

    private let state = Mutex(State())

    /// Starts handing input to `observer`: first the backlog, outside the lock (the
    /// observer sends), until it stays empty; the receiving task queues behind it
    /// meanwhile. `start`, called as the observer is set, takes a snapshot (who is
    /// reachable) that membership input from then on builds on.
    func observe(start: () -> Void, _ observer: @escaping @Sendable (SessionInput) -> Void) {
        state.withLock { state in
            start()
            state.observer = observer
            state.replaying = true
        }
        while true {
            let backlog = state.withLock { state -> [SessionInput] in
                defer {
                    state.backlog = []
                    state.backlogBytes = 0
                }
                if state.backlog.isEmpty { state.replaying = false }
                return state.backlog
            }
            guard !backlog.isEmpty else { return }
            for input in backlog { observer(input) }
        }
    }

    /// Where `input` goes (kept inputs are kept by this call); the caller hands it to a
    /// returned observer.
    func route(_ input: SessionInput) -> Route {
        state.withLock { state in
            if state.replaying {
                state.backlog.append(input)
                return .kept
            }
            if let observer = state.observer { return .observer(observer) }
            // The end is kept whatever the bound: a coordinator made later must see it.
            if case .closed = input {
                state.backlog.append(input)
                return .kept
            }
            guard case .control(let control) = input, state.backlog.count < Self.maxBacklog.messages,
                state.backlogBytes + control.payload.count <= Self.maxBacklog.bytes
            else { return .dropped }
            state.backlog.append(input)
            state.backlogBytes += control.payload.count
            return .kept
        }
    }

    /// Hands `input` to the observer, now or later.
    func deliver(_ input: SessionInput) {
        if case .observer(let observer) = route(input) { observer(input) }
    }
}
