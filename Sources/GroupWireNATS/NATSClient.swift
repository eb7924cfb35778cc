import GroupWireNATSProtocol
import GroupWireSession
import Logging
import NIOCore
import NIOPosix
import Synchronization

/// A client of NATS's core protocol on SwiftNIO: publishes, subscriptions, request-free
/// pub/sub as a relay cluster needs it.
///
/// ```swift
/// let client = NATSClient(configuration: NATSClientConfiguration(servers: [NATSServerAddress(host: "127.0.0.1")]))
/// try await client.connect()
/// let subscription = try client.subscribe(to: "rooms.>") { message in print(message.subject) }
/// try client.publish(Array("hello".utf8), to: "rooms.kitchen")
/// try await client.flush()
/// await client.close()
/// ```
///
/// - **Writes** are batched: a publish is encoded into the client's pending buffer at once
///   (so it fails then, not later, when it cannot be sent), and the buffer is written on the
///   connection's event loop with one flush for everything pending. Pending bytes are
///   bounded (``NATSClientConfiguration/maxPendingBytes``): a connection that does not keep
///   up makes `publish` fail with `slowConnection`; memory never grows past the bound.
/// - **Subscriptions** are served on the event loop that read the message, in the order
///   the server sent them; a handler must return quickly. ``messages(on:queue:)`` puts a
///   bounded stream in between for code that wants to `await`.
/// - **Reconnecting**: when the connection is lost the client tries the servers of its
///   list (and those the cluster named in INFO's `connect_urls`) in turn, pausing
///   ``NATSClientConfiguration/reconnectWait`` after each pass; once connected it
///   subscribes again and writes what was published meanwhile (up to the pending bound).
///   Core NATS delivers at most once: what was in the socket when it broke is lost.
/// - **Liveness**: it pings every ``NATSClientConfiguration/pingInterval`` and replaces a
///   connection that leaves ``NATSClientConfiguration/maxPingsOutstanding`` pings unanswered.
public final class NATSClient: Sendable {
    /// How it connects.
    public let configuration: NATSClientConfiguration
    /// What happens to its connection, in order (the newest 256 kept for a slow reader).
    public let events: AsyncStream<NATSClientEvent>
    private let eventSink: AsyncStream<NATSClientEvent>.Continuation
    private let group: any EventLoopGroup
    let logger: Logger
    private let state: Mutex<State>

    private struct Subscription {
        let subject: String
        let queue: String?
        let deliver: @Sendable (NATSMessage) -> Void
        let finish: (@Sendable () -> Void)?
        /// Messages delivered so far, and the total after which it ends (UNSUB's max).
        var delivered = 0
        var limit: Int?
    }

    private enum Phase {
        case idle, connecting, connected, reconnecting, closed
    }

    private struct State {
        var phase = Phase.idle
        var channel: (any Channel)?
        var server: NATSServerAddress?
        var info: NATSServerInfo?
        /// The configured servers, then those learned from INFO.
        var servers: [NATSServerAddress]
        var subscriptions: [UInt64: Subscription] = [:]
        var nextSubscription: UInt64 = 1
        /// Commands not yet handed to the channel.
        var output = ByteBuffer()
        /// Bytes of published commands accepted and not yet written (pending or in NIO's queue).
        var pendingBytes = 0
        var scheduled = false
        /// One entry per PING on the current connection after the greeting, oldest first:
        /// a flush's continuation, or nil for the client's own keepalive ping.
        var pongWaiters: [CheckedContinuation<Result<Void, NATSError>, Never>?] = []
        var pingsOutstanding = 0
        /// Which connection is current: a handler's reports about an older one are ignored.
        var generation = 0
        var statistics = NATSClientStatistics()
        var tasks: [Task<Void, Never>] = []
        /// An INFO that came after the greeting of a connection not yet made current.
        var earlyInfo: (generation: Int, info: NATSServerInfo)?
    }

    /// A client; nothing connects until ``connect()``.
    public init(
        configuration: NATSClientConfiguration, group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton,
        logger: Logger = Logger(label: "groupwire.nats")
    ) {
        self.configuration = configuration
        self.group = group
        self.logger = logger
        (events, eventSink) = AsyncStream.makeStream(of: NATSClientEvent.self, bufferingPolicy: .bufferingNewest(256))
        state = Mutex(State(servers: configuration.servers))
    }

    deinit {
        eventSink.finish()
    }

    // MARK: Connecting

    /// Connects to the first server of the list that answers, and keeps the client
    /// connected from then on (reconnecting when it must) until ``close()``.
    /// - Throws: `connectionFailed` naming each server's reason when none could be
    ///   reached and greeted (a refused CONNECT is `serverError`); `closed` after ``close()``.
    public func connect() async throws(NATSError) {
        let servers = try state.withLock { state throws(NATSError) -> [NATSServerAddress] in
            switch state.phase {
            case .closed: throw NATSError(.closed, "the client was closed")
            case .idle: break
            default: throw NATSError(.invalidArgument, "connect() was called already")
            }
            state.phase = .connecting
            return state.servers
        }
        var reasons: [String] = []
        var refusal: NATSError?
        for server in servers {
            do {
                try await open(server, reconnect: false)
                startPinging()
                return
            } catch {
                reasons.append("\(server): \(error.message)")
                if error.kind == .serverError { refusal = error }
            }
        }
        state.withLock { if $0.phase == .connecting { $0.phase = .idle } }
        if let refusal { throw refusal }
        throw NATSError(.connectionFailed, "no server answered: " + reasons.joined(separator: "; "))
    }

    /// Connects to `server`, greets it and makes it the current connection.
    private func open(_ server: NATSServerAddress, reconnect: Bool) async throws(NATSError) {
        let generation = state.withLock { state in
            state.generation += 1
            return state.generation
        }
        let greeting = group.next().makePromise(of: NATSServerInfo.self)
        let (options, limits) = (configuration.options, configuration.limits)
        let channel: any Channel
        do {
            channel = try await ClientBootstrap(group: group)
                .channelOption(.socketOption(.tcp_nodelay), value: 1)
                .channelOption(.socketOption(.so_keepalive), value: 1)
                .connectTimeout(
                    .nanoseconds(
                        Int64(configuration.connectTimeout.components.seconds) * 1_000_000_000
                            + configuration.connectTimeout.components.attoseconds / 1_000_000_000)
                )
                .channelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.addHandler(
                            NATSConnectionHandler(
                                client: self, server: server, generation: generation, options: options, limits: limits,
                                greeting: greeting))
                    }
                }
                .connect(host: server.host, port: server.port).get()
        } catch {
            greeting.fail(error)
            throw NATSError(.connectionFailed, server: server, "\(error)")
        }
        let info: NATSServerInfo
        do {
            info = try await withTimeout(configuration.connectTimeout, server: server) { try await greeting.futureResult.get() }
        } catch {
            channel.close(promise: nil)
            throw error
        }
        adopt(channel, server: server, info: info, generation: generation, reconnect: reconnect)
    }

    /// Runs `body`, failing with `timeout` when it takes longer than `limit` on the
    /// configuration's clock.
    private func withTimeout<T: Sendable>(
        _ limit: Duration, server: NATSServerAddress, _ body: @escaping @Sendable () async throws -> T
    ) async throws(NATSError) -> T {
        let clock = configuration.clock
        let deadline = clock.now() + limit
        let outcome = await withTaskGroup(of: Result<T, NATSError>?.self) { group in
            group.addTask {
                do {
                    return .success(try await body())
                } catch let error as NATSError {
                    return .failure(error)
                } catch {
                    return .failure(NATSError(.connectionFailed, server: server, "\(error)"))
                }
            }
            group.addTask {
                guard (try? await clock.sleep(deadline)) != nil else { return nil }
                return .failure(NATSError(.timeout, server: server, "no greeting within \(limit)"))
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first ?? .failure(NATSError(.timeout, server: server, "no greeting within \(limit)"))
        }
        return try outcome.get()
    }

    /// Makes `channel` the current connection: subscribes again, writes what waited.
    private func adopt(_ channel: any Channel, server: NATSServerAddress, info: NATSServerInfo, generation: Int, reconnect: Bool)
    {
        let (subscribe, waiting, current) = state.withLock { state -> (ByteBuffer, ByteBuffer, Bool) in
            guard state.generation == generation, state.phase != .closed else { return (ByteBuffer(), ByteBuffer(), false) }
            state.phase = .connected
            state.channel = channel
            state.server = server
            // An INFO that arrived meanwhile is newer than the greeting's.
            let info = state.earlyInfo?.generation == generation ? state.earlyInfo?.info ?? info : info
            state.earlyInfo = nil
            state.info = info
            state.pingsOutstanding = 0
            if reconnect { state.statistics.reconnects += 1 }
            let discovered = Self.learn(info, into: &state)
            // Said under the lock that made the connection current, so that an INFO read
            // meanwhile (``updated(_:generation:)``) cannot report its servers first.
            eventSink.yield(.connected(server))
            if !discovered.isEmpty { eventSink.yield(.discovered(discovered)) }
            var subscribe = ByteBuffer()
            for (id, subscription) in state.subscriptions.sorted(by: { $0.key < $1.key }) {
                subscribe.writeString("SUB \(subscription.subject)\(subscription.queue.map { " " + $0 } ?? "") \(id)\r\n")
                if let limit = subscription.limit { subscribe.writeString("UNSUB \(id) \(limit - subscription.delivered)\r\n") }
            }
            let waiting = state.output
            state.output = ByteBuffer()
            state.scheduled = false
            return (subscribe, waiting, true)
        }
        guard current else {
            channel.close(promise: nil)
            return
        }
        logger.info("connected", metadata: ["server": "\(server)", "server_name": "\(info.serverName ?? info.serverID)"])
        if subscribe.readableBytes > 0 { channel.write(subscribe, promise: nil) }
        write(waiting, on: channel)
    }

    /// Adds the servers `info` names that the list lacks; returns them.
    private static func learn(_ info: NATSServerInfo, into state: inout State) -> [NATSServerAddress] {
        var added: [NATSServerAddress] = []
        for url in info.connectURLs {
            guard let address = try? NATSServerAddress(parsing: url), !state.servers.contains(address) else { continue }
            state.servers.append(address)
            added.append(address)
        }
        return added
    }

    /// Every server the client knows now: the configured ones, then those learned.
    public var servers: [NATSServerAddress] { state.withLock { $0.servers } }

    /// The server connected to now, if any.
    public var connectedServer: NATSServerAddress? {
        state.withLock { $0.phase == .connected ? $0.server : nil }
    }

    /// The latest INFO of the current (or last) server.
    public var serverInfo: NATSServerInfo? { state.withLock { $0.info } }

    /// What the client has done so far.
    public var statistics: NATSClientStatistics { state.withLock { $0.statistics } }

    // MARK: Publishing

    /// Publishes `payload` to `subject`.
    /// - Throws: `invalidArgument` (a subject or header the protocol cannot carry),
    ///   `payloadTooLarge` (over the server's `max_payload`), `slowConnection` (the pending
    ///   bound), `notConnected` (before ``connect()``), `closed`. A publish that throws
    ///   sent nothing.
    public func publish(_ payload: ByteBuffer, to subject: String, replyTo: String? = nil, headers: NATSHeaders? = nil)
        throws(NATSError)
    {
        let block: [UInt8]?
        let line: [UInt8]
        do {
            block = try headers?.encoded()
            line = try NATSCommand.publishLine(
                subject: subject, replyTo: replyTo, headerLength: block?.count,
                totalLength: (block?.count ?? 0) + payload.readableBytes)
        } catch {
            throw NATSError(error)
        }
        let size = (block?.count ?? 0) + payload.readableBytes
        try enqueue(count: line.count + size + 2, message: size) { output in
            output.writeBytes(line)
            if let block { output.writeBytes(block) }
            output.writeImmutableBuffer(payload)
            output.writeStaticString("\r\n")
        }
    }

    /// Publishes `payload` to `subject`; as ``publish(_:to:replyTo:headers:)-(ByteBuffer,_,_,_)``.
    public func publish(_ payload: [UInt8], to subject: String, replyTo: String? = nil, headers: NATSHeaders? = nil)
        throws(NATSError)
    {
        try publish(ByteBuffer(bytes: payload), to: subject, replyTo: replyTo, headers: headers)
    }

    /// Appends `count` bytes written by `write` to the pending commands, `message` bytes
    /// of them a published message's (nil for other commands); schedules the write.
    private func enqueue(
        count: Int, message: Int?, registering waiter: CheckedContinuation<Result<Void, NATSError>, Never>?? = nil,
        _ write: (inout ByteBuffer) -> Void
    ) throws(NATSError) {
        let channel = try state.withLock { state throws(NATSError) -> (any Channel)? in
            switch state.phase {
            case .idle, .connecting: throw NATSError(.notConnected, "connect() has not succeeded")
            case .closed: throw NATSError(.closed, "the client was closed")
            case .connected, .reconnecting: break
            }
            if let message, let info = state.info, message > info.maxPayload {
                throw NATSError(
                    .payloadTooLarge, server: state.server, "a message of \(message) bytes, over max_payload \(info.maxPayload)")
            }
            guard state.pendingBytes + count <= configuration.maxPendingBytes else {
                throw NATSError(
                    .slowConnection, server: state.server,
                    "\(state.pendingBytes) bytes wait to be written; \(count) more would pass \(configuration.maxPendingBytes)")
            }
            write(&state.output)
            state.pendingBytes += count
            // A PING's waiter joins the queue with the PING, so PONGs answer them in order.
            if let waiter { state.pongWaiters.append(waiter) }
            if let message {
                state.statistics.messagesOut += 1
                state.statistics.bytesOut += message
            }
            guard state.phase == .connected, !state.scheduled, let channel = state.channel else { return nil }
            state.scheduled = true
            return channel
        }
        if let channel { channel.eventLoop.execute { self.writePending(on: channel) } }
    }

    /// Writes everything pending to `channel`, if it is still the current connection.
    private func writePending(on channel: any Channel) {
        let output = state.withLock { state -> ByteBuffer? in
            guard state.channel === channel, state.phase == .connected else { return nil }
            state.scheduled = false
            let output = state.output
            state.output = ByteBuffer()
            return output
        }
        if let output { write(output, on: channel) }
    }

    /// Writes `output` (counted in the pending bytes) and flushes; the count is released
    /// when the write completes or fails.
    private func write(_ output: ByteBuffer, on channel: any Channel) {
        let count = output.readableBytes
        guard count > 0 else {
            channel.flush()
            return
        }
        let written = channel.eventLoop.makePromise(of: Void.self)
        written.futureResult.whenComplete { _ in self.state.withLock { $0.pendingBytes -= count } }
        channel.writeAndFlush(output, promise: written)
    }

    /// Waits until the server has read everything published before it (a PING, answered
    /// by PONG after them).
    /// - Throws: `disconnected` when the connection is lost first (what was published may
    ///   or may not have arrived); as ``publish(_:to:replyTo:headers:)-(ByteBuffer,_,_,_)`` otherwise.
    public func flush() async throws(NATSError) {
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<Void, NATSError>, Never>) in
            do throws(NATSError) {
                try enqueue(count: 6, message: nil, registering: continuation) { output in output.writeStaticString("PING\r\n") }
            } catch {
                continuation.resume(returning: .failure(error))
            }
        }
        try result.get()
    }

    // MARK: Subscribing

    /// Subscribes to `subject` (wildcards allowed), in `queue`'s group if given: `deliver`
    /// is called on the connection's event loop for each message, in order; it must
    /// return quickly.
    /// - Throws: `invalidArgument` for a subject or queue the protocol cannot carry,
    ///   `closed`, `slowConnection`.
    @discardableResult
    public func subscribe(to subject: String, queue: String? = nil, _ deliver: @escaping @Sendable (NATSMessage) -> Void)
        throws(NATSError) -> NATSSubscription
    {
        try subscribe(to: subject, queue: queue, deliver: deliver, finish: nil)
    }

    private func subscribe(
        to subject: String, queue: String?, deliver: @escaping @Sendable (NATSMessage) -> Void, finish: (@Sendable () -> Void)?
    ) throws(NATSError) -> NATSSubscription {
        do {
            try NATSSubject.check(subject, wildcards: true)
            if let queue { try NATSSubject.checkQueue(queue) }
        } catch {
            throw NATSError(error)
        }
        let (id, connected) = try state.withLock { state throws(NATSError) -> (UInt64, Bool) in
            guard state.phase != .closed else { throw NATSError(.closed, "the client was closed") }
            let id = state.nextSubscription
            state.nextSubscription += 1
            state.subscriptions[id] = Subscription(subject: subject, queue: queue, deliver: deliver, finish: finish)
            return (id, state.phase == .connected)
        }
        // Before a connection (or between two), the SUB goes out when one is made.
        if connected {
            let line = "SUB \(subject)\(queue.map { " " + $0 } ?? "") \(id)\r\n"
            try? enqueue(count: line.utf8.count, message: nil) { $0.writeString(line) }
        }
        return NATSSubscription(id: id, subject: subject, queue: queue)
    }

    /// Subscribes to `subject` as ``subscribe(to:queue:_:)`` does, with the messages in a
    /// stream that holds up to ``NATSClientConfiguration/maxBufferedMessages`` for a
    /// consumer that falls behind (what arrives past that is dropped and counted in
    /// ``NATSClientStatistics/droppedMessages``). Ending the stream's iteration unsubscribes.
    public func messages(on subject: String, queue: String? = nil) throws(NATSError) -> (
        subscription: NATSSubscription, stream: AsyncStream<NATSMessage>
    ) {
        let (stream, continuation) = AsyncStream.makeStream(
            of: NATSMessage.self, bufferingPolicy: .bufferingOldest(configuration.maxBufferedMessages))
        let subscription = try subscribe(
            to: subject, queue: queue,
            deliver: { [weak self] message in
                if case .dropped = continuation.yield(message) { self?.state.withLock { $0.statistics.droppedMessages += 1 } }
            },
            finish: { continuation.finish() })
        continuation.onTermination = { [weak self] _ in self?.unsubscribe(subscription) }
        return (subscription, stream)
    }

    /// Ends `subscription` now, or after `after` more messages.
    public func unsubscribe(_ subscription: NATSSubscription, after: Int? = nil) {
        let (finish, line) = state.withLock { state -> ((@Sendable () -> Void)?, String?) in
            guard var entry = state.subscriptions[subscription.id] else { return (nil, nil) }
            let connected = state.phase == .connected
            if let after, after > 0 {
                entry.limit = entry.delivered + after
                state.subscriptions[subscription.id] = entry
                return (nil, connected ? "UNSUB \(subscription.id) \(after)\r\n" : nil)
            }
            state.subscriptions[subscription.id] = nil
            return (entry.finish, connected ? "UNSUB \(subscription.id)\r\n" : nil)
        }
        if let line { try? enqueue(count: line.utf8.count, message: nil) { $0.writeString(line) } }
        finish?()
    }

    // MARK: Closing

    /// Writes what is pending, closes the connection and ends every subscription's stream
    /// and ``events``; reconnecting stops. Waiting flushes fail with `closed`.
    public func close() async {
        let (channel, output, waiters, tasks, finishes) = state.withLock { state in
            let channel = state.phase == .connected ? state.channel : nil
            state.phase = .closed
            state.channel = nil
            let output = state.output
            state.output = ByteBuffer()
            defer {
                state.pongWaiters = []
                state.tasks = []
                state.subscriptions = [:]
            }
            return (channel, output, state.pongWaiters, state.tasks, state.subscriptions.values.compactMap(\.finish))
        }
        for task in tasks { task.cancel() }
        for waiter in waiters { waiter?.resume(returning: .failure(NATSError(.closed, "the client was closed"))) }
        for finish in finishes { finish() }
        if let channel {
            try? await channel.writeAndFlush(output)
            try? await channel.close()
        }
        logger.info("closed")
        eventSink.yield(.closed)
        eventSink.finish()
    }

    // MARK: What the connection reports (on its event loop)

    /// A message for a subscription.
    func received(_ head: NATSMessageHead, payload: ByteBuffer) {
        let (deliver, finish) = state.withLock { state -> ((@Sendable (NATSMessage) -> Void)?, (@Sendable () -> Void)?) in
            state.statistics.messagesIn += 1
            state.statistics.bytesIn += head.payloadLength
            guard var entry = state.subscriptions[head.subscription] else { return (nil, nil) }
            entry.delivered += 1
            if let limit = entry.limit, entry.delivered >= limit {
                state.subscriptions[head.subscription] = nil
                return (entry.deliver, entry.finish)
            }
            state.subscriptions[head.subscription] = entry
            return (entry.deliver, nil)
        }
        deliver?(NATSMessage(subject: head.subject, replyTo: head.replyTo, headers: head.headers, payload: payload))
        finish?()
    }

    /// A PONG: the oldest PING is answered.
    func ponged(generation: Int) {
        let waiter = state.withLock { state -> CheckedContinuation<Result<Void, NATSError>, Never>?? in
            guard state.generation == generation else { return nil }
            state.pingsOutstanding = 0
            return state.pongWaiters.isEmpty ? nil : state.pongWaiters.removeFirst()
        }
        waiter??.resume(returning: .success(()))
    }

    /// A new INFO on the current connection.
    func updated(_ info: NATSServerInfo, generation: Int) {
        let server = state.withLock { state -> NATSServerAddress? in
            guard state.generation == generation else { return nil }
            guard state.phase == .connected else {
                // Not current yet: the connection takes it when it becomes so, and says so then.
                state.earlyInfo = (generation, info)
                return nil
            }
            state.info = info
            // Under the lock, as the connection's own events are, so they keep their order.
            let discovered = Self.learn(info, into: &state)
            if !discovered.isEmpty { eventSink.yield(.discovered(discovered)) }
            if info.lameDuckMode, let server = state.server { eventSink.yield(.lameDuck(server)) }
            return state.server
        }
        if info.lameDuckMode, let server {
            logger.notice("the server is in lame duck mode", metadata: ["server": "\(server)"])
        }
    }

    /// An -ERR after the greeting.
    func serverError(_ text: String, server: NATSServerAddress) {
        logger.warning("the server sent an error", metadata: ["server": "\(server)", "error": "\(text)"])
        eventSink.yield(.serverError(text))
    }

    /// The connection `generation` ended: reconnect, unless it was not current or the
    /// client is closing.
    func lost(generation: Int, server: NATSServerAddress, reason: String) {
        let waiters = state.withLock { state -> [CheckedContinuation<Result<Void, NATSError>, Never>?]? in
            guard state.generation == generation, state.phase == .connected else { return nil }
            state.phase = .reconnecting
            state.channel = nil
            state.scheduled = false
            eventSink.yield(.disconnected(server, reason: reason))
            defer { state.pongWaiters = [] }
            return state.pongWaiters
        }
        guard let waiters else { return }
        logger.warning("lost the connection", metadata: ["server": "\(server)", "reason": "\(reason)"])
        for waiter in waiters {
            waiter?.resume(returning: .failure(NATSError(.disconnected, server: server, "the connection was lost: \(reason)")))
        }
        let task = Task { await self.reconnect(after: server) }
        state.withLock { state in
            if state.phase == .closed { task.cancel() } else { state.tasks.append(task) }
        }
    }

    /// Tries the servers in turn, from the one after `lost`, until one takes the client.
    private func reconnect(after lost: NATSServerAddress) async {
        var attempts = 0
        while !Task.isCancelled {
            let servers = state.withLock { state -> [NATSServerAddress] in
                let list = state.servers
                let start = (list.firstIndex(of: lost) ?? -1) + 1
                return Array(list[min(start, list.count)...] + list[..<min(start, list.count)])
            }
            for server in servers {
                guard !Task.isCancelled, state.withLock({ $0.phase == .reconnecting }) else { return }
                do {
                    try await open(server, reconnect: true)
                    return
                } catch {
                    logger.info("could not reconnect", metadata: ["server": "\(server)", "error": "\(error.message)"])
                }
                attempts += 1
                if let limit = configuration.maxReconnectAttempts, attempts >= limit {
                    logger.error("gave up reconnecting", metadata: ["attempts": "\(attempts)"])
                    await close()
                    return
                }
            }
            guard (try? await configuration.clock.sleep(for: configuration.reconnectWait)) != nil else { return }
        }
    }

    /// Pings every ``NATSClientConfiguration/pingInterval``; closes a connection that
    /// leaves too many unanswered (the loss then reconnects).
    private func startPinging() {
        let clock = configuration.clock
        let interval = configuration.pingInterval
        let task = Task { [weak self] in
            var next = clock.now() + interval
            while !Task.isCancelled {
                guard (try? await clock.sleep(next)) != nil, let self else { return }
                next += interval
                self.keepalive()
            }
        }
        state.withLock { state in
            if state.phase == .closed { task.cancel() } else { state.tasks.append(task) }
        }
    }

    private func keepalive() {
        let (connected, stale) = state.withLock { state -> (Bool, (any Channel)?) in
            guard state.phase == .connected, let channel = state.channel else { return (false, nil) }
            if state.pingsOutstanding >= configuration.maxPingsOutstanding { return (true, channel) }
            state.pingsOutstanding += 1
            return (true, nil)
        }
        if let stale {
            logger.warning("the server left pings unanswered", metadata: ["pings": "\(configuration.maxPingsOutstanding)"])
            stale.close(promise: nil)
            return
        }
        guard connected else { return }
        try? enqueue(count: 6, message: nil, registering: .some(nil)) { output in output.writeStaticString("PING\r\n") }
    }
}
