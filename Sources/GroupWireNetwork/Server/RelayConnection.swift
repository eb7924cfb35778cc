import Foundation
import GroupWireRelay
import Logging
import NIOCore
import NIOWebSocket
import Synchronization

/// One client of the relay: its member and room, the messages waiting to be written to it
/// (bounded in bytes: past the bound it is dropped as too slow, never waited for), its send
/// rate, and why it left.
///
/// The writer takes everything queued at once (``take()``) and writes it in one go, one
/// flush for many messages; a forwarded message is one buffer shared by all its recipients.
final class RelayConnection: Sendable {
    /// What the connection's writer writes, in order.
    enum Outgoing: Sendable {
        case message(ByteBuffer)
        case pong(ByteBuffer)
        case ping
        case close(WebSocketErrorCode)
    }

    private struct State {
        var queuedBytes = 0
        var closing = false
        var leaveReason: RelayLeaveReason = .closed
        var tokens: Double
        var lastRefill: Duration
        /// When the client was last heard from (any frame), and whether it was pinged since.
        var lastHeard: Duration
        var pinged = false
        /// Written by the writer in order; after ``finished`` nothing more is added.
        var pending: [Outgoing] = []
        var finished = false
        /// The writer, waiting for something to write.
        var waiter: CheckedContinuation<[Outgoing]?, Never>?
        var cancelled = false
    }

    let member: RelayMember
    let room: String
    private let channel: any Channel
    private let configuration: RelayServerConfiguration
    private let state: Mutex<State>
    private let logger: Logger
    private let metrics: RelayMetrics

    init(
        member: RelayMember, room: String, channel: any Channel, configuration: RelayServerConfiguration, logger: Logger,
        metrics: RelayMetrics
    ) {
        self.logger = logger
        self.metrics = metrics
        self.member = member
        self.room = room
        self.channel = channel
        self.configuration = configuration
        let now = configuration.clock.now()
        state = Mutex(State(tokens: Double(configuration.burst), lastRefill: now, lastHeard: now))
    }

    /// Queues `bytes` for the client.
    /// - Returns: whether it was queued: not when the connection is closing, nor when the
    ///   client's queue would pass ``RelayServerConfiguration/maxQueuedBytes`` (it is then
    ///   dropped as too slow and gets nothing more).
    @discardableResult
    func enqueue(_ bytes: [UInt8]) -> Bool {
        enqueue(ByteBuffer(bytes: bytes))
    }

    /// Queues `message` (shared, not copied, when it goes to several recipients).
    @discardableResult
    func enqueue(_ message: ByteBuffer) -> Bool {
        let size = message.readableBytes
        let (accepted, waiter) = state.withLock { state -> (Bool?, (CheckedContinuation<[Outgoing]?, Never>, [Outgoing])?) in
            guard !state.closing else { return (nil, nil) }
            guard state.queuedBytes + size <= configuration.maxQueuedBytes else { return (false, nil) }
            state.queuedBytes += size
            state.pending.append(.message(message))
            return (true, Self.wake(&state))
        }
        if let (continuation, items) = waiter { continuation.resume(returning: items) }
        guard let accepted else { return false }
        guard accepted else {
            drop(
                RelayError(
                    .tooSlow, "more than \(configuration.maxQueuedBytes) bytes waited to be written to \(member.identity)"),
                reason: .tooSlow, code: .unknown(1013))
            return false
        }
        return true
    }

    /// The waiting writer and everything pending, taken from `state`, if the writer waits.
    private static func wake(_ state: inout State) -> (CheckedContinuation<[Outgoing]?, Never>, [Outgoing])? {
        guard let waiter = state.waiter else { return nil }
        state.waiter = nil
        defer { state.pending = [] }
        return (waiter, state.pending)
    }

    /// Adds `item` to the queue, and finishes it after `item` when `last`.
    private func push(_ item: Outgoing, last: Bool = false) {
        let waiter = state.withLock { state -> (CheckedContinuation<[Outgoing]?, Never>, [Outgoing]?)? in
            guard !state.finished else { return nil }
            state.pending.append(item)
            if last { state.finished = true }
            return Self.wake(&state)
        }
        if let (continuation, items) = waiter { continuation.resume(returning: items) }
    }

    /// Everything queued now, in order, waiting until there is something; nil once the
    /// queue is finished and written, or the writer's task is cancelled.
    func take() async -> [Outgoing]? {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<[Outgoing]?, Never>) in
                let ready = state.withLock { state -> [Outgoing]?? in
                    if !state.pending.isEmpty {
                        defer { state.pending = [] }
                        return .some(state.pending)
                    }
                    if state.finished || state.cancelled { return .some(nil) }
                    state.waiter = continuation
                    return .none
                }
                if let ready { continuation.resume(returning: ready) }
            }
        } onCancel: {
            let waiter = state.withLock { state -> CheckedContinuation<[Outgoing]?, Never>? in
                state.cancelled = true
                defer { state.waiter = nil }
                return state.waiter
            }
            waiter?.resume(returning: nil)
        }
    }

    /// The writer wrote `count` bytes of the queue.
    func written(_ count: Int) {
        state.withLock { $0.queuedBytes -= count }
    }

    /// Answers a ping.
    func pong(_ data: ByteBuffer) {
        push(.pong(data))
    }

    /// The client was heard from now (any frame).
    func heard() {
        let now = configuration.clock.now()
        state.withLock { state in
            state.lastHeard = now
            state.pinged = false
        }
    }

    /// The idle check at `now` (``RelayServerConfiguration/idleTimeout``): a client silent
    /// for half the timeout is pinged once; one silent for all of it is closed and leaves as
    /// `lost`, its place kept for the reconnect grace as for a cut.
    func checkLiveness(now: Duration) {
        let timeout = configuration.idleTimeout
        enum Action { case none, ping, close }
        let action = state.withLock { state -> Action in
            guard !state.closing else { return .none }
            let silence = now - state.lastHeard
            if silence >= timeout {
                state.leaveReason = .lost
                return .close
            }
            guard silence >= timeout / 2, !state.pinged else { return .none }
            state.pinged = true
            return .ping
        }
        switch action {
        case .none:
            break
        case .ping:
            push(.ping)
        case .close:
            logger.info("silent past the idle timeout", metadata: ["timeout": "\(timeout)"])
            close()
        }
    }

    /// Whether the client may send one more message now (a token bucket of
    /// ``RelayServerConfiguration/burst`` filled at ``RelayServerConfiguration/maxMessagesPerSecond``);
    /// the client counts as heard from either way.
    func admit() -> Bool {
        state.withLock { state in
            let now = configuration.clock.now()
            state.lastHeard = now
            state.pinged = false
            let elapsed = now - state.lastRefill
            state.lastRefill = now
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            state.tokens = min(Double(configuration.burst), state.tokens + seconds * Double(configuration.maxMessagesPerSecond))
            guard state.tokens >= 1 else { return false }
            state.tokens -= 1
            return true
        }
    }

    /// Ends the connection politely: `error` (if any), then a close frame with `code`,
    /// after what is already queued. Others will see it leave with `reason`.
    func finish(_ error: RelayError?, reason: RelayLeaveReason, code: WebSocketErrorCode) {
        let first = state.withLock { state -> Bool in
            guard !state.closing else { return false }
            state.closing = true
            state.leaveReason = reason
            return true
        }
        guard first else { return }
        if let error {
            if error.code != .shuttingDown, error.code != .replaced { metrics.dropped(error.code) }
            logger.warning("closing the connection", metadata: ["code": "\(error.code)", "reason": "\(error.message)"])
            push(.message(ByteBuffer(bytes: RelayMessage.error(error).encoded())))
        }
        push(.close(code), last: true)
    }

    /// Ends the connection without waiting for its queue: for a client that does not read.
    /// The error and the close are queued (a client that reads again within a second gets
    /// them); then the socket is reset, so neither the relay's queue nor the kernel's
    /// buffers outlive a client that will never take them.
    func drop(_ error: RelayError, reason: RelayLeaveReason, code: WebSocketErrorCode) {
        finish(error, reason: reason, code: code)
        let clock = configuration.clock
        let deadline = clock.now() + .seconds(1)
        Task { [self] in
            try? await clock.sleep(deadline)
            reset()
        }
    }

    /// Closes the socket abortively: SO_LINGER 0 makes the close a reset (RST), which frees
    /// the kernel's send buffer at once instead of keeping it while the peer's window stays
    /// closed (FIN-WAIT-1).
    func reset() {
        let channel = channel
        guard let options = channel as? any SocketOptionProvider else {
            channel.close(mode: .all, promise: nil)
            return
        }
        options.setSoLinger(linger(l_onoff: 1, l_linger: 0)).whenComplete { _ in channel.close(mode: .all, promise: nil) }
    }

    /// Closes the socket now, whatever is still queued.
    func close() {
        channel.close(mode: .all, promise: nil)
    }

    /// Notes that the connection was lost (not closed by either side's close frame).
    func lost() {
        state.withLock { state in
            if !state.closing { state.leaveReason = .lost }
        }
    }

    /// When the client was last heard from, on the relay's clock.
    var lastHeard: Duration { state.withLock { $0.lastHeard } }

    /// Why the client left, once it has.
    var leaveReason: RelayLeaveReason { state.withLock { $0.leaveReason } }
}
