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
/// Everything for the client is written on its channel's event loop: the first message
/// queued while nothing is pending schedules one write of everything pending then, with one
/// flush, so a burst from many senders costs one hop to the loop and one system call. The
/// relay frames what it writes itself (a server's frames are unmasked and unfragmented,
/// RFC 6455 5.2) into one buffer per batch, below NIO's frame encoder: small messages are
/// copied into it, a large one is written as it is, one buffer shared by all its
/// recipients. The connection closes when its close frame is written and the client has
/// closed its side, or a second after the close frame when the client has not.
final class RelayConnection: Sendable {
    /// What is written to the client, in order.
    private enum Outgoing: Sendable {
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
        /// Written in order on the event loop; after ``finished`` nothing more is added.
        var pending: [Outgoing] = []
        var finished = false
        /// A write of ``pending`` is scheduled on the event loop.
        var scheduled = false
        /// The close frame went out (or could not); the client has stopped sending (its
        /// close, the end of its stream, or a violation).
        var closeWritten = false
        var readingEnded = false
    }

    let member: RelayMember
    let room: String
    /// What precedes each frame this client sends on its way to the others: the deliver
    /// type and the client's id (Spec/RELAY.md, "deliver").
    let deliverHeader: [UInt8]
    private let channel: any Channel
    /// The context of the channel's WebSocket frame encoder: what is written through it
    /// goes to the socket (or TLS) as it is.
    private let framedOutput: NIOLoopBound<ChannelHandlerContext>
    private let configuration: RelayServerConfiguration
    private let state: Mutex<State>
    private let logger: Logger
    private let metrics: RelayMetrics

    /// A connection on `channel`, whose pipeline has its WebSocket handlers (its frames are
    /// written below the `WebSocketFrameEncoder`); on the channel's event loop.
    /// - Throws: when the pipeline has no frame encoder.
    init(
        member: RelayMember, room: String, channel: any Channel, configuration: RelayServerConfiguration, logger: Logger,
        metrics: RelayMetrics
    ) throws {
        framedOutput = NIOLoopBound(
            try channel.pipeline.syncOperations.context(handlerType: WebSocketFrameEncoder.self), eventLoop: channel.eventLoop)
        self.logger = logger
        self.metrics = metrics
        self.member = member
        self.room = room
        deliverHeader = RelayMessage.deliverHeader(from: member.id)
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
        let (accepted, schedule) = state.withLock { state -> (Bool?, Bool) in
            guard !state.closing else { return (nil, false) }
            guard state.queuedBytes + size <= configuration.maxQueuedBytes else { return (false, false) }
            state.queuedBytes += size
            state.pending.append(.message(message))
            return (true, Self.schedule(&state))
        }
        if schedule { scheduleWrite() }
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

    /// Whether the caller is to schedule a write: the first item pending since the last.
    private static func schedule(_ state: inout State) -> Bool {
        guard !state.scheduled else { return false }
        state.scheduled = true
        return true
    }

    /// Adds `item` to the queue, and finishes it after `item` when `last`.
    private func push(_ item: Outgoing, last: Bool = false) {
        let schedule = state.withLock { state -> Bool in
            guard !state.finished else { return false }
            state.pending.append(item)
            if last { state.finished = true }
            return Self.schedule(&state)
        }
        if schedule { scheduleWrite() }
    }

    /// Schedules ``writePending()`` on the event loop: from another loop, one hop for the
    /// batch; from this one, after the read being handled, so what it adds joins the batch.
    private func scheduleWrite() {
        channel.eventLoop.execute { self.writePending() }
    }

    /// Messages up to this size are copied into the batch's buffer; larger ones are
    /// written as they are, shared by their recipients.
    private static let copyLimit = 4_096

    /// Writes everything pending, in order, with one flush (on the event loop).
    private func writePending() {
        let batch = state.withLock { state -> [Outgoing] in
            state.scheduled = false
            defer { state.pending = [] }
            return state.pending
        }
        guard !batch.isEmpty else { return }
        let output = framedOutput.value
        var capacity = 0
        for case .message(let message) in batch where message.readableBytes <= Self.copyLimit {
            capacity += message.readableBytes + 4
        }
        var buffer = channel.allocator.buffer(capacity: capacity + 16)
        var bytes = 0
        var closing = false
        for item in batch where !closing {
            switch item {
            case .message(let message):
                Self.writeFrameHeader(opcode: .binary, length: message.readableBytes, to: &buffer)
                if message.readableBytes <= Self.copyLimit {
                    buffer.writeImmutableBuffer(message)
                } else {
                    output.write(NIOAny(buffer), promise: nil)
                    output.write(NIOAny(message), promise: nil)
                    buffer = channel.allocator.buffer(capacity: capacity + 16)
                }
                bytes += message.readableBytes
            case .pong(let data):
                Self.writeFrameHeader(opcode: .pong, length: data.readableBytes, to: &buffer)
                buffer.writeImmutableBuffer(data)
            case .ping:
                Self.writeFrameHeader(opcode: .ping, length: 0, to: &buffer)
            case .close(let code):
                Self.writeFrameHeader(opcode: .connectionClose, length: 2, to: &buffer)
                buffer.write(webSocketErrorCode: code)
                closing = true
            }
        }
        // Writes complete in order: when the last is out (or failed), so is the batch.
        let done = channel.eventLoop.makePromise(of: Void.self)
        output.writeAndFlush(NIOAny(buffer), promise: done)
        done.futureResult.whenComplete { [bytes, closing] _ in
            self.written(bytes)
            if closing { self.ended(.closeWritten) }
        }
    }

    /// The header of a final, unmasked frame of `length` bytes (RFC 6455 5.2).
    static func writeFrameHeader(opcode: WebSocketOpcode, length: Int, to buffer: inout ByteBuffer) {
        buffer.writeInteger(0x80 | UInt8(webSocketOpcode: opcode))
        switch length {
        case ..<126:
            buffer.writeInteger(UInt8(length))
        case ...Int(UInt16.max):
            buffer.writeInteger(UInt8(126))
            buffer.writeInteger(UInt16(length))
        default:
            buffer.writeInteger(UInt8(127))
            buffer.writeInteger(UInt64(length))
        }
    }

    /// The writes of `count` bytes of the queue completed.
    private func written(_ count: Int) {
        guard count > 0 else { return }
        state.withLock { $0.queuedBytes -= count }
    }

    /// A side of the closing handshake.
    enum ClosingSide: Sendable {
        /// The close frame went out, or could not.
        case closeWritten
        /// The client stopped sending: its close frame, the end of its stream, a violation.
        case readingEnded
    }

    /// One side of the closing handshake is done: with both, the socket closes now; with
    /// the close frame out and the client still sending, a second later.
    func ended(_ side: ClosingSide) {
        let (both, first) = state.withLock { state -> (Bool, Bool) in
            let first: Bool
            switch side {
            case .closeWritten:
                first = !state.closeWritten
                state.closeWritten = true
            case .readingEnded:
                first = !state.readingEnded
                state.readingEnded = true
            }
            return (state.closeWritten && state.readingEnded, first)
        }
        guard first else { return }
        if both {
            close()
        } else if side == .closeWritten {
            let clock = configuration.clock
            let deadline = clock.now() + .seconds(1)
            Task { [self] in
                guard (try? await clock.sleep(deadline)) != nil else { return }
                close()
            }
        }
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
            let seconds = elapsed.seconds
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

    /// In a cluster: the connection's number on this node (its holder number), set once
    /// when it enters.
    var clusterNumber: UInt64 {
        get { number.load(ordering: .relaxed) }
        set { number.store(newValue, ordering: .relaxed) }
    }
    private let number = Atomic<UInt64>(0)

    /// The connection's room gave it a place and its welcome is queued: what it sent
    /// meanwhile is handled now, in order, and reading goes on.
    func entered(_ entry: RelayClusterEntry) {
        channel.pipeline.fireUserInboundEventTriggered(RelayConnectionHandler.Entered(entry: entry))
    }

    /// Completed when the socket has closed.
    var closeFuture: EventLoopFuture<Void> { channel.closeFuture }

    /// When the client was last heard from, on the relay's clock.
    var lastHeard: Duration { state.withLock { $0.lastHeard } }

    /// Why the client left, once it has.
    var leaveReason: RelayLeaveReason { state.withLock { $0.leaveReason } }
}
