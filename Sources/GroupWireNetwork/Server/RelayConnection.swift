import Foundation
import GroupWireRelay
import Logging
import NIOCore
import NIOWebSocket
import Synchronization

/// One client of the relay: its member and room, the messages waiting to be written to it
/// (bounded in bytes: past the bound it is dropped as too slow, never waited for), its send
/// rate, and why it left.
final class RelayConnection: Sendable {
    /// What the connection's writer writes, in order.
    enum Outgoing: Sendable {
        case message([UInt8])
        case pong(ByteBuffer)
        case close(WebSocketErrorCode)
    }

    private struct State {
        var queuedBytes = 0
        var closing = false
        var leaveReason: RelayLeaveReason = .closed
        var tokens: Double
        var lastRefill: ContinuousClock.Instant
    }

    let member: RelayMember
    let room: String
    let outgoing: AsyncStream<Outgoing>
    private let continuation: AsyncStream<Outgoing>.Continuation
    private let channel: any Channel
    private let configuration: RelayServerConfiguration
    private let state: Mutex<State>
    private let logger: Logger
    private let metrics: RelayMetrics

    init(member: RelayMember, room: String, channel: any Channel, configuration: RelayServerConfiguration, logger: Logger,
         metrics: RelayMetrics) {
        self.logger = logger
        self.metrics = metrics
        self.member = member
        self.room = room
        self.channel = channel
        self.configuration = configuration
        (outgoing, continuation) = AsyncStream<Outgoing>.makeStream()
        state = Mutex(State(tokens: Double(configuration.burst), lastRefill: .now))
    }

    /// Queues `bytes` for the client.
    /// - Returns: whether it was queued: not when the connection is closing, nor when the
    ///   client's queue would pass ``RelayServerConfiguration/maxQueuedBytes`` (it is then
    ///   dropped as too slow and gets nothing more).
    @discardableResult
    func enqueue(_ bytes: [UInt8]) -> Bool {
        let accepted = state.withLock { state -> Bool? in
            guard !state.closing else { return nil }
            guard state.queuedBytes + bytes.count <= configuration.maxQueuedBytes else { return false }
            state.queuedBytes += bytes.count
            return true
        }
        guard let accepted else { return false }
        guard accepted else {
            drop(RelayError(.tooSlow, "more than \(configuration.maxQueuedBytes) bytes waited to be written to \(member.identity)"),
                 reason: .tooSlow, code: .unknown(1013))
            return false
        }
        continuation.yield(.message(bytes))
        return true
    }

    /// The writer wrote `count` bytes of the queue.
    func written(_ count: Int) {
        state.withLock { $0.queuedBytes -= count }
    }

    /// Answers a ping.
    func pong(_ data: ByteBuffer) {
        continuation.yield(.pong(data))
    }

    /// Whether the client may send one more message now (a token bucket of
    /// ``RelayServerConfiguration/burst`` filled at ``RelayServerConfiguration/maxMessagesPerSecond``).
    func admit() -> Bool {
        state.withLock { state in
            let now = ContinuousClock.now
            let elapsed = state.lastRefill.duration(to: now)
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
            continuation.yield(.message(RelayMessage.error(error).encoded()))
        }
        continuation.yield(.close(code))
        continuation.finish()
    }

    /// Ends the connection now, without waiting for its queue: for a client that does not
    /// read. The error is written only if the socket still takes it.
    func drop(_ error: RelayError, reason: RelayLeaveReason, code: WebSocketErrorCode) {
        finish(error, reason: reason, code: code)
        close()
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

    /// Why the client left, once it has.
    var leaveReason: RelayLeaveReason { state.withLock { $0.leaveReason } }
}
