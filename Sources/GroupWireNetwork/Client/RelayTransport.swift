import Foundation
import GroupWire
import GroupWireRelay
import GroupWireSession
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
import NIOWebSocket
import Synchronization

/// A `Transport` over a GroupWire relay (Spec/RELAY.md): the same
/// shape as the in-process hub, so a `Messenger`, its sessions and negotiation work the same
/// across processes and machines.
///
/// The relay's membership messages become `joined` and `left` events (the welcome's members
/// first); delivered frames become messages with the source the relay stamped. Frames travel
/// over one TCP connection, so without ``RelayReconnect`` the transport is reliable and
/// ordered while connected, and when the connection ends every participant leaves and the
/// events finish.
///
/// With ``RelayReconnect`` a connection that is lost (not closed by either side) is made
/// again with backoff, and the relay gives the participant its place back within its
/// reconnect grace period: nobody sees it leave. Frames in flight when the connection broke
/// are lost, so the transport then says it is neither reliable nor ordered, and a
/// `DeliveryTransport` over it numbers, acknowledges and sends again what was lost:
///
/// ```swift
/// let relay = try await RelayTransport.connect(host: "127.0.0.1", port: port, token: token, reconnect: RelayReconnect())
/// let messenger = Messenger(transport: DeliveryTransport(over: relay))   // reliable mode loses nothing across a reconnect
/// ```
public final class RelayTransport: Transport {
    /// This participant, as the relay named it.
    public let localParticipant: ParticipantID
    /// Never reliable: a relay drops what is sent to a participant within its reconnect
    /// grace (Spec/RELAY.md, "Reconnecting") and says nothing, whether this client
    /// reconnects or another does, so every client of a relay runs a delivery layer (with
    /// its acknowledgements: peers that did not would give each other up). Ordered while
    /// connected without ``RelayReconnect``, not with it; messages up to the relay's frame size.
    public let guarantees: TransportGuarantees
    /// Deliveries and membership changes, in the relay's order.
    public let events: AsyncStream<TransportEvent>
    /// What the relay said first: identity, room, frame size, who was there.
    public let welcome: RelayWelcome
    /// The room, from the welcome.
    public var roomName: String { welcome.room }
    /// The clock given to ``connect(host:port:token:inSubprotocol:tls:reconnect:timeout:idleTimeout:clock:group:)``;
    /// the layers above read it too.
    public let clock: TimerClock

    private let shared: Shared
    private let reconnects: Bool

    /// One WebSocket connection to the relay.
    fileprivate struct Link: Sendable {
        let channel: any Channel
        let writer: NIOAsyncChannelOutboundWriter<WebSocketFrame>
    }

    fileprivate struct State {
        var closed = false
        var closing = false
        var link: Link?
        var members: Set<ParticipantID> = []
        /// Which of the dialer's addresses the connection goes to.
        var address = 0
        var error: RelayError?
        var statistics = RelayTransportStatistics()
    }

    /// What the connection's task and the transport share.
    fileprivate final class Shared: Sendable {
        let state = Mutex(State())
    }

    private init(welcome: RelayWelcome, events: AsyncStream<TransportEvent>, shared: Shared, reconnects: Bool, clock: TimerClock)
    {
        self.welcome = welcome
        self.clock = clock
        localParticipant = ParticipantID(uuid: welcome.you.id)
        guarantees = TransportGuarantees(isReliable: false, isOrdered: !reconnects, maxMessageSize: welcome.maxFrameSize)
        self.events = events
        self.shared = shared
        self.reconnects = reconnects
    }

    /// Connects to the relay at `host`:`port` with `token` and waits for the welcome.
    /// - Parameters:
    ///   - host: the relay's address.
    ///   - port: the relay's port.
    ///   - token: an access token for the room (`groupwire token`, or the app's server).
    ///   - inSubprotocol: send the token as the `groupwire.token.` subprotocol instead of the
    ///     `token` query parameter (what a browser can do either way).
    ///   - tls: connect over TLS (`wss://`), checking the relay's certificate this way; nil
    ///     connects plain.
    ///   - reconnect: make a lost connection again, as this says; nil ends the transport
    ///     when the connection ends.
    ///   - timeout: how long to wait for the welcome before giving up.
    ///   - idleTimeout: how long the relay may stay silent (no message, ping or pong): after
    ///     half of it the transport pings the relay (which answers), after all of it the
    ///     connection is taken for lost, as the relay does with a silent client, so a
    ///     half-open connection is found from this end too (and made again with `reconnect`).
    ///   - clock: the time the timeout and the reconnect pauses are measured on (tests pass
    ///     a virtual one); default the system's.
    ///   - group: the event loops the connection runs on.
    /// - Throws: ``RelayConnectError`` when the relay refuses (a token it does not accept)
    ///   or the connection fails (a certificate that does not verify included).
    public static func connect(
        host: String, port: Int, token: String, inSubprotocol: Bool = false, tls: RelayClientTLS? = nil,
        reconnect: RelayReconnect? = nil, timeout: Duration = .seconds(10), idleTimeout: Duration = .seconds(30),
        clock: TimerClock = .continuous, group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton
    ) async throws(RelayConnectError) -> RelayTransport {
        let context: (NIOSSLContext, serverName: String)?
        do {
            context = try tls.map { tls throws(RelayTLSError) in (try tls.context(), tls.serverName ?? host) }
        } catch {
            throw RelayConnectError(status: nil, reason: "TLS: \(error)")
        }
        let dialer = Dialer(
            addresses: [RelayAddress(host: host, port: port)] + (reconnect?.alternatives ?? []), token: token,
            inSubprotocol: inSubprotocol, tls: context, group: group, clock: clock, idleTimeout: idleTimeout)
        // The socket, once there is one, so that a timeout can close it (which fails
        // whatever waits on it; a future's wait cannot be cancelled otherwise).
        let socket = SocketBox()
        let timeoutEnd = clock.now() + timeout
        let timer = Task {
            try await clock.sleep(timeoutEnd)
            socket.timedOut()
        }
        defer { timer.cancel() }
        do {
            let channel = try await dialer.dial(socket: socket)
            return try await start(channel, dialer: dialer, reconnect: reconnect)
        } catch {
            if socket.didTimeOut {
                throw RelayConnectError(status: nil, reason: "no welcome from \(host):\(port) within \(timeout)")
            }
            throw error
        }
    }

    /// Runs the connection in a task: hands back the welcome, then turns what arrives into
    /// events until the connection ends, making it again when it was lost and ``RelayReconnect``
    /// was given.
    private static func start(
        _ first: NIOAsyncChannel<WebSocketFrame, WebSocketFrame>, dialer: Dialer, reconnect: RelayReconnect?
    ) async throws(RelayConnectError) -> RelayTransport {
        let (events, continuation) = AsyncStream<TransportEvent>.makeStream()
        let shared = Shared()
        let welcome: RelayWelcome
        do {
            welcome = try await withCheckedThrowingContinuation { ready in
                Task {
                    var pending: CheckedContinuation<RelayWelcome, any Error>? = ready
                    var channel = first
                    while true {
                        let ending = await read(channel, dialer: dialer, shared: shared, events: continuation) { welcome in
                            pending?.resume(returning: welcome)
                            pending = nil
                        }
                        if let waiting = pending {
                            if case .failed(let error) = ending {
                                waiting.resume(throwing: error)
                            } else {
                                waiting.resume(
                                    throwing: RelayConnectError(status: nil, reason: "the relay closed before its welcome"))
                            }
                            pending = nil
                            break
                        }
                        guard let reconnect, case .lost = ending, let next = await Self.again(dialer, reconnect, shared: shared)
                        else { break }
                        channel = next
                    }
                    let members = shared.state.withLock { state -> Set<ParticipantID> in
                        state.closed = true
                        state.link = nil
                        defer { state.members = [] }
                        return state.members
                    }
                    for member in members.sorted() { continuation.yield(.left(member)) }
                    continuation.finish()
                }
            }
        } catch let error as RelayConnectError {
            throw error
        } catch {
            throw RelayConnectError(status: nil, reason: "the connection failed before the welcome: \(error)")
        }
        return RelayTransport(welcome: welcome, events: events, shared: shared, reconnects: reconnect != nil, clock: dialer.clock)
    }

    /// How one connection ended.
    private enum Ending {
        /// A close frame, from the relay or answering ours.
        case closed
        /// Without a close frame: the socket ended or failed.
        case lost
        /// Before or at the welcome: what went wrong.
        case failed(any Error)
    }

    /// Reads one connection until it ends: the welcome (membership brought up to date
    /// with it, then `welcomed`), deliveries and membership as events.
    private static func read(
        _ channel: NIOAsyncChannel<WebSocketFrame, WebSocketFrame>, dialer: Dialer, shared: Shared,
        events: AsyncStream<TransportEvent>.Continuation,
        welcomed: (RelayWelcome) -> Void
    ) async -> Ending {
        var welcome: RelayWelcome?
        // Frames up to the size the welcome announces (the relay's --max-frame).
        var limits = RelayLimits()
        do {
            return try await channel.executeThenClose { inbound, outbound in
                let (clock, idle) = (dialer.clock, dialer.idleTimeout)
                let heard = Mutex((at: clock.now(), pinged: false))
                // The idle check, four times per idle timeout: ping a relay silent for half of
                // it, close a connection silent for all of it (the read below then ends: lost).
                let watchdog = Task {
                    var next = clock.now() + idle / 4
                    while !Task.isCancelled {
                        do { try await clock.sleep(next) } catch { return }
                        let now = clock.now()
                        next = max(next + idle / 4, now)
                        let (ping, silent) = heard.withLock { state -> (Bool, Bool) in
                            let silence = now - state.at
                            guard silence < idle else { return (false, true) }
                            guard silence >= idle / 2, !state.pinged else { return (false, false) }
                            state.pinged = true
                            return (true, false)
                        }
                        if silent {
                            channel.channel.close(promise: nil)
                            return
                        }
                        if ping {
                            try? await outbound.write(
                                WebSocketFrame(fin: true, opcode: .ping, maskKey: .random(), data: ByteBuffer()))
                        }
                    }
                }
                defer { watchdog.cancel() }
                for try await frame in inbound {
                    heard.withLock { $0 = (clock.now(), false) }
                    guard frame.opcode == .binary else {
                        if frame.opcode == .connectionClose { return .closed }
                        if frame.opcode == .ping {
                            // The relay's idle check: answered at once, as RFC 6455 asks.
                            try await outbound.write(
                                WebSocketFrame(fin: true, opcode: .pong, maskKey: .random(), data: frame.unmaskedData))
                        }
                        continue
                    }
                    var data = frame.unmaskedData
                    shared.state.withLock { state in
                        state.statistics.messagesReceived += 1
                        state.statistics.bytesReceived += data.readableBytes
                    }
                    let message = try RelayMessage(decoding: data.readBytes(length: data.readableBytes) ?? [], limits: limits)
                    guard welcome != nil else {
                        guard case .welcome(let first) = message else {
                            throw RelayConnectError(status: nil, reason: "the relay's first message is not a welcome: \(message)")
                        }
                        welcome = first
                        limits.maxFrameSize = first.maxFrameSize
                        // Who is there now against who was (nobody, on the first connection).
                        let now = Set(first.members.map { ParticipantID(uuid: $0.id) })
                        let (gone, new) = shared.state.withLock { state -> ([ParticipantID], [ParticipantID]) in
                            let gone = state.members.subtracting(now).sorted()
                            let new = now.subtracting(state.members).sorted()
                            state.members = now
                            state.link = Link(channel: channel.channel, writer: outbound)
                            return (gone, new)
                        }
                        for participant in gone { events.yield(.left(participant)) }
                        for participant in new { events.yield(.joined(participant)) }
                        welcomed(first)
                        continue
                    }
                    Self.handle(message, shared: shared, events: events)
                }
                return welcome == nil
                    ? .failed(RelayConnectError(status: nil, reason: "the relay closed before its welcome")) : .lost
            }
        } catch {
            return welcome == nil ? .failed(error) : .lost
        }
    }

    /// Makes a lost connection again: attempts with doubling pauses until one is welcomed,
    /// the transport is closed, the relay refuses, or ``RelayReconnect/within`` has passed.
    private static func again(_ dialer: Dialer, _ policy: RelayReconnect, shared: Shared) async -> NIOAsyncChannel<
        WebSocketFrame, WebSocketFrame
    >? {
        shared.state.withLock { $0.link = nil }
        let clock = dialer.clock
        let deadline = clock.now() + policy.within
        var pause = policy.firstDelay
        // The relay just lost first, then each other in turn.
        let lost = shared.state.withLock { $0.address }
        var attempt = 0
        while clock.now() < deadline, !shared.state.withLock({ $0.closing }) {
            defer { attempt += 1 }
            try? await clock.sleep(min(clock.now() + pause, deadline))
            pause = min(pause * 2, policy.maxDelay)
            let socket = SocketBox()
            let attemptEnd = clock.now() + policy.attemptTimeout
            let timer = Task {
                try await clock.sleep(attemptEnd)
                socket.timedOut()
            }
            defer { timer.cancel() }
            do throws(RelayConnectError) {
                let channel = try await dialer.dial(socket: socket, attempt: lost + attempt)
                // Closed while this attempt was under way: the new connection is not wanted.
                guard !shared.state.withLock({ $0.closing }) else {
                    try? await channel.channel.close()
                    return nil
                }
                shared.state.withLock { state in
                    state.statistics.reconnects += 1
                    state.address = (lost + attempt) % dialer.addresses.count
                }
                return channel
            } catch {
                // A refusal (an expired token, say) will not change: stop.
                if error.status != nil { return nil }
            }
        }
        return nil
    }

    private static func handle(_ message: RelayMessage, shared: Shared, events: AsyncStream<TransportEvent>.Continuation) {
        switch message {
        case .deliver(let source, let frame):
            events.yield(.message(TransportMessage(source: ParticipantID(uuid: source), bytes: frame, arrival: .zero)))
        case .joined(let member):
            let id = ParticipantID(uuid: member.id)
            // A replaced connection's identity joins again without having left here.
            if shared.state.withLock({ $0.members.insert(id).inserted }) { events.yield(.joined(id)) }
        case .left(let id, _):
            let participant = ParticipantID(uuid: id)
            if shared.state.withLock({ $0.members.remove(participant) != nil }) { events.yield(.left(participant)) }
        case .error(let error):
            shared.state.withLock { $0.error = error }
        case .send, .welcome:
            break
        }
    }

    /// The largest WebSocket message a client reads: a deliver header and a frame of the
    /// largest `--max-frame` the relay accepts (16 MiB).
    static let largestMessage = (16 << 20) + 64

    /// Sends one frame through the relay. While a lost connection is being made again the
    /// frame is dropped (counted in ``RelayTransportStatistics/framesDroppedWhileReconnecting``).
    /// - Throws: `messageTooLarge` over the relay's frame size, `transportClosed` after the
    ///   connection ended.
    public func send(_ bytes: [UInt8], to recipients: Recipients) async throws(WireError) {
        guard bytes.count <= welcome.maxFrameSize else {
            throw WireError(.messageTooLarge, "a frame of \(bytes.count) bytes, over the relay's \(welcome.maxFrameSize)")
        }
        if let participants = recipients.participants, participants.isEmpty { return }
        let (closed, link) = shared.state.withLock { ($0.closed, $0.link) }
        guard !closed else { throw WireError(.transportClosed, "the relay connection has ended") }
        guard let link else {
            shared.state.withLock { $0.statistics.framesDroppedWhileReconnecting += 1 }
            return
        }
        let message = RelayMessage.send(to: recipients.participants.map { $0.sorted().map(\.uuid) }, frame: bytes).encoded()
        do {
            try await link.writer.write(
                WebSocketFrame(fin: true, opcode: .binary, maskKey: .random(), data: ByteBuffer(bytes: message)))
        } catch {
            guard reconnects, !shared.state.withLock({ $0.closed }) else {
                throw WireError(.transportClosed, "the relay connection has ended: \(error)")
            }
            shared.state.withLock { $0.statistics.framesDroppedWhileReconnecting += 1 }
            return
        }
        shared.state.withLock { state in
            state.statistics.messagesSent += 1
            state.statistics.bytesSent += message.count
        }
    }

    /// What this transport has sent and received so far.
    public var statistics: RelayTransportStatistics { shared.state.withLock { $0.statistics } }

    /// Sends one relay message as it is, for tests of what the relay refuses.
    func sendUnchecked(_ message: [UInt8], asText: Bool = false) async throws {
        guard let link = shared.state.withLock({ $0.link }) else { throw WireError(.transportClosed, "not connected") }
        try await link.writer.write(
            WebSocketFrame(fin: true, opcode: asText ? .text : .binary, maskKey: .random(), data: ByteBuffer(bytes: message)))
    }

    /// Ends the current connection abruptly, without a close frame, as a network fault
    /// would: for tests of reconnecting.
    func cutConnection() {
        shared.state.withLock { $0.link }?.channel.close(promise: nil)
    }

    /// Why the connection ended, once ``events`` has finished: the relay's error (a limit,
    /// a refusal, shutting down), a connection lost (and, with ``RelayReconnect``, not
    /// taken back in time), or ``close()``.
    public var closeReason: String? {
        shared.state.withLock { state in
            guard state.closed else { return nil }
            if let error = state.error { return "the relay closed the connection: \(error)" }
            if state.closing { return "this participant closed the connection" }
            return reconnects
                ? "the connection to the relay was lost and not taken back within the reconnect period"
                : "the connection to the relay was lost"
        }
    }

    /// The last error the relay reported, if any (before it closed the connection).
    public var relayError: RelayError? { shared.state.withLock { $0.error } }

    /// Closes the connection: the relay tells the others this participant left.
    public func close() async {
        let link = shared.state.withLock { state in
            state.closing = true
            return state.link
        }
        guard let link else { return }
        var data = ByteBuffer()
        data.write(webSocketErrorCode: .normalClosure)
        try? await link.writer.write(WebSocketFrame(fin: true, opcode: .connectionClose, maskKey: .random(), data: data))
        try? await link.channel.close()
    }
}

/// How a ``RelayTransport`` makes a lost connection again: attempts after pauses that
/// double from ``firstDelay`` up to ``maxDelay``, for at most ``within``, which should be
/// the relay's reconnect grace period (`groupwire relay --reconnect-grace`, 3 seconds by
/// default): after it the relay has told the others this participant left.
public struct RelayReconnect: Sendable {
    /// Other relays to try, in turn with the first, when the connection is lost: the other
    /// nodes of a cluster (`groupwire relay --cluster`), where the participant keeps its
    /// place as on the node it left (Spec/RELAY.md, "Clustering"). Default none.
    public var alternatives: [RelayAddress] = []
    /// How long to keep trying after the connection is lost. Default 3 seconds.
    public var within: Duration
    /// The pause before the first attempt. Default 50 ms.
    public var firstDelay: Duration
    /// The longest pause between attempts. Default 1 second.
    public var maxDelay: Duration
    /// How long one attempt may take. Default 2 seconds.
    public var attemptTimeout: Duration

    /// Creates a policy; every argument defaults to the documented default.
    public init(
        within: Duration = .seconds(3), firstDelay: Duration = .milliseconds(50), maxDelay: Duration = .seconds(1),
        attemptTimeout: Duration = .seconds(2), alternatives: [RelayAddress] = []
    ) {
        self.alternatives = alternatives
        self.within = within
        self.firstDelay = firstDelay
        self.maxDelay = maxDelay
        self.attemptTimeout = attemptTimeout
    }
}

/// Where a relay listens.
public struct RelayAddress: Sendable, Hashable, CustomStringConvertible {
    /// Its host name or address.
    public var host: String
    /// Its port.
    public var port: Int

    /// An address.
    public init(host: String, port: Int) {
        self.host = host
        self.port = port
    }

    /// `host:port`.
    public var description: String { "\(host):\(port)" }
}

/// Holds a connection's channel for a timer that closes it when an attempt takes too long.
private final class SocketBox: Sendable {
    private let state = Mutex<(channel: (any Channel)?, timedOut: Bool)>((nil, false))

    func set(_ channel: any Channel) {
        let late = state.withLock { state -> Bool in
            state.channel = channel
            return state.timedOut
        }
        if late { channel.close(promise: nil) }
    }

    func timedOut() {
        state.withLock { state -> (any Channel)? in
            state.timedOut = true
            return state.channel
        }?.close(promise: nil)
    }

    var didTimeOut: Bool { state.withLock { $0.timedOut } }
}

/// What it takes to open a connection to the relay, kept for reconnecting.
private struct Dialer: Sendable {
    /// The relays to dial: the first one, then the alternatives of ``RelayReconnect``.
    let addresses: [RelayAddress]
    let token: String
    let inSubprotocol: Bool
    let tls: (NIOSSLContext, serverName: String)?
    let group: any EventLoopGroup
    /// What the connect timeout, the reconnect pauses and the idle timeout are measured on.
    let clock: TimerClock
    /// How long the relay may stay silent before the connection is taken for lost.
    let idleTimeout: Duration

    /// Connects to the relay of attempt `attempt` (the addresses in turn, the first for
    /// attempt 0) and upgrades to WebSocket; `socket` gets the channel as soon as there is one.
    func dial(socket: SocketBox, attempt: Int = 0) async throws(RelayConnectError) -> NIOAsyncChannel<
        WebSocketFrame, WebSocketFrame
    > {
        let address = addresses[attempt % addresses.count]
        let (host, port, token, inSubprotocol, tls) = (address.host, address.port, token, inSubprotocol, tls)
        let upgraded: EventLoopFuture<UpgradeOutcome>
        do {
            upgraded = try await ClientBootstrap(group: group)
                .channelOption(.socketOption(.tcp_nodelay), value: 1)
                .connect(host: host, port: port) { channel in
                    socket.set(channel)
                    return channel.eventLoop.makeCompletedFuture {
                        if let (context, serverName) = tls {
                            try channel.pipeline.syncOperations.addHandler(
                                NIOSSLClientHandler(context: context, serverHostname: RelayClientTLS.sniName(serverName)))
                        }
                        let upgrader = NIOTypedWebSocketClientUpgrader<UpgradeOutcome>(
                            maxFrameSize: RelayTransport.largestMessage,
                            upgradePipelineHandler: { channel, _ in
                                channel.eventLoop.makeCompletedFuture {
                                    try channel.pipeline.syncOperations.addHandler(
                                        NIOWebSocketFrameAggregator(
                                            minNonFinalFragmentSize: 0, maxAccumulatedFrameCount: 1_024,
                                            maxAccumulatedFrameSize: RelayTransport.largestMessage))
                                    return .upgraded(try NIOAsyncChannel(wrappingChannelSynchronously: channel))
                                }
                            })
                        var headers = HTTPHeaders()
                        headers.add(name: "Host", value: "\(host):\(port)")
                        var uri = RelayHandshake.path
                        if inSubprotocol {
                            headers.add(
                                name: "Sec-WebSocket-Protocol",
                                value: "\(RelayHandshake.subprotocol), \(RelayHandshake.tokenSubprotocolPrefix)\(token)")
                        } else {
                            uri += "?token=" + token
                        }
                        let request = HTTPRequestHead(version: .http1_1, method: .GET, uri: uri, headers: headers)
                        let configuration = NIOTypedHTTPClientUpgradeConfiguration<UpgradeOutcome>(
                            upgradeRequestHead: request, upgraders: [upgrader],
                            notUpgradingCompletionHandler: { channel in
                                // The refusal (401 and the token's problem) comes through once
                                // this returns: collect it to say why.
                                channel.eventLoop.makeCompletedFuture {
                                    let refusal = channel.eventLoop.makePromise(of: RelayConnectError.self)
                                    try channel.pipeline.syncOperations.addHandler(RefusalReader(refusal))
                                    return .refused(refusal.futureResult)
                                }
                            })
                        var pipeline = NIOUpgradableHTTPClientPipelineConfiguration(upgradeConfiguration: configuration)
                        // The welcome often arrives in the same read as the 101 response: the
                        // bytes after the response go on to the WebSocket decoder, not away.
                        pipeline.leftOverBytesStrategy = .forwardBytes
                        return try channel.pipeline.syncOperations.configureUpgradableHTTPClientPipeline(configuration: pipeline)
                    }
                }
        } catch {
            throw RelayConnectError(status: nil, reason: "cannot connect to \(host):\(port): \(error)")
        }
        do {
            switch try await upgraded.get() {
            case .upgraded(let websocket):
                return websocket
            case .refused(let refusal):
                throw try await refusal.get()
            }
        } catch let error as RelayConnectError {
            throw error
        } catch {
            throw RelayConnectError(status: nil, reason: "the WebSocket handshake failed: \(error)")
        }
    }
}

/// How the WebSocket upgrade ended: a WebSocket, or the relay's HTTP refusal being read.
enum UpgradeOutcome: Sendable {
    case upgraded(NIOAsyncChannel<WebSocketFrame, WebSocketFrame>)
    case refused(EventLoopFuture<RelayConnectError>)
}

/// Reads the relay's answer to a refused upgrade (a status and a short text body, Spec/RELAY.md)
/// into the error the connect throws, then closes the connection.
final class RefusalReader: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPClientResponsePart

    /// The most body bytes kept: the relay's reasons are one line.
    static let maxReason = 1_024

    private let promise: EventLoopPromise<RelayConnectError>
    private var status: Int?
    private var body: [UInt8] = []
    private var finished = false

    init(_ promise: EventLoopPromise<RelayConnectError>) {
        self.promise = promise
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            status = Int(head.status.code)
        case .body(var buffer):
            let room = Self.maxReason - body.count
            if room > 0, let bytes = buffer.readBytes(length: min(room, buffer.readableBytes)) { body += bytes }
        case .end:
            finish()
            context.close(promise: nil)
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        finish()
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        finish()
        context.close(promise: nil)
    }

    private func finish() {
        guard !finished else { return }
        finished = true
        let text = String(decoding: body, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        let reason = text.isEmpty ? "the relay refused the connection" : "the relay refused the connection: \(text)"
        promise.succeed(RelayConnectError(status: status, reason: reason))
    }
}

/// Why ``RelayTransport/connect(host:port:token:inSubprotocol:tls:reconnect:timeout:idleTimeout:clock:group:)`` failed: the relay
/// refused the upgrade (its HTTP answer, 401 with the token's problem, says why), or the
/// connection failed.
public struct RelayConnectError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The HTTP status of a refusal (401 for a token the relay does not accept), nil when
    /// there was no answer.
    public var status: Int?
    /// The relay's reason, or what failed.
    public var reason: String

    /// Creates an error.
    public init(status: Int?, reason: String) {
        self.status = status
        self.reason = reason
    }

    /// `status: reason`.
    public var description: String { status.map { "\($0): \(reason)" } ?? reason }
}

/// What went through a ``RelayTransport``: relay messages (Spec/RELAY.md) and their bytes,
/// routing header and frame, as they travel in WebSocket binary messages (the WebSocket
/// framing's own 2 to 14 bytes not included).
public struct RelayTransportStatistics: Sendable, Hashable {
    /// Send messages written to the relay.
    public var messagesSent = 0
    /// Their bytes: routing headers and frames.
    public var bytesSent = 0
    /// Messages received from the relay: deliveries, membership, the welcome, errors.
    public var messagesReceived = 0
    /// Their bytes.
    public var bytesReceived = 0
    /// Times a lost connection was made again (``RelayReconnect``).
    public var reconnects = 0
    /// Frames not sent because the connection was lost and not yet made again (the
    /// delivery layer sends them again).
    public var framesDroppedWhileReconnecting = 0

    /// No traffic yet.
    public init() {}
}
