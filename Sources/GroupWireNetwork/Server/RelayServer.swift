import Foundation
import GroupWire
import GroupWireCapture
import GroupWireRelay
import Logging
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
import NIOWebSocket
import Synchronization

/// The GroupWire relay (Spec/RELAY.md) on SwiftNIO: WebSocket binary messages, each a
/// routing header and one frame, forwarded within a room with the true source stamped on
/// them; rooms entered with a signed token; membership told to every client; per-connection
/// limits on frame size, queued bytes and message rate.
///
/// ```swift
/// let relay = RelayServer(configuration: RelayServerConfiguration(secret: secret))
/// let port = try await relay.start(host: "127.0.0.1", port: 0)   // 0: any free port
/// // ... clients connect to ws://127.0.0.1:\(port)/v1/connect?token=...
/// await relay.shutdown()
/// ```
public final class RelayServer: Sendable {
    /// Admission and limits.
    public let configuration: RelayServerConfiguration
    /// Where the relay says what it does: connections, refusals, drops (label `groupwire.relay`).
    public let logger: Logger
    /// What the relay counts, served at ``RelayServerConfiguration/metricsPath``.
    public let metrics: RelayMetrics
    private let group: any EventLoopGroup
    private let rooms: RelayRooms
    private let admission: RelayAdmission
    /// This node's part in a cluster (``RelayServerConfiguration/cluster``); nil alone.
    let cluster: RelayCluster?
    private let running = Mutex<(channel: (any Channel)?, task: Task<Void, Never>?, liveness: Task<Void, Never>?)>(
        (nil, nil, nil))

    /// Creates a relay; nothing listens until ``start(host:port:)``.
    public init(
        configuration: RelayServerConfiguration, logger: Logger = Logger(label: "groupwire.relay"),
        metrics: RelayMetrics = RelayMetrics(), group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton
    ) {
        self.configuration = configuration
        var named = logger
        // A cluster node's every line names it.
        if let cluster = configuration.cluster { named[metadataKey: "node"] = "\(cluster.node)" }
        let logger = named
        self.logger = logger
        self.metrics = metrics
        self.group = group
        admission = RelayAdmission(
            maxConnections: configuration.maxConnections, maxPerAddress: configuration.maxConnectionsPerAddress)
        let rooms = RelayRooms(grace: configuration.reconnectGrace, clock: configuration.clock) { member, room, census in
            metrics.census(census)
            logger.info(
                "left",
                metadata: [
                    "room": "\(room)", "participant": "\(member.identity)", "reason": "lost",
                    "detail": "not back within the reconnect grace period",
                ])
        }
        self.rooms = rooms
        cluster = configuration.cluster.map {
            RelayCluster(configuration: $0, server: configuration, rooms: rooms, logger: logger, metrics: metrics)
        }
    }

    private enum Upgrade: Sendable {
        /// A client in its room (alone), or waiting for its room's owner to place it (in a
        /// cluster: no entry yet).
        case websocket(RelayConnection, RelayRooms.Entry?)
        case refused(NIOAsyncChannel<HTTPServerRequestPart, HTTPServerResponsePart>)
        /// An upgrade asked for that no upgrader could make: answered already, closing.
        case answered
    }

    /// Listens on `host`:`port` and serves clients until ``shutdown()``, over TLS when the
    /// configuration has it.
    /// - Returns: the port it listens on (the free one it got for port 0).
    /// - Throws: ``RelayTLSError`` for TLS files that cannot be used; the socket's error
    ///   when it cannot listen.
    public func start(host: String, port: Int) async throws -> Int {
        // A node knows the cluster before its first client.
        try await cluster?.start()
        let configuration = configuration
        let logger = logger
        let metrics = metrics
        let tls = try configuration.tls?.context()
        let admission = admission
        // One limit on a client's message (Spec/RELAY.md, "Limits"): NIO refuses a frame
        // over it from its header, and a message of several frames as soon as they pass it;
        // the reader answers both with error 2 and close 1009 (automatic handling is off, so
        // NIO sends no bare close of its own).
        let messageLimit = configuration.limits.maxSendSize
        let server = try await ServerBootstrap(group: group)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
            // A second line behind the idle timeout: the kernel probes a quiet peer too.
            .childChannelOption(.socketOption(.so_keepalive), value: 1)
            .bind(host: host, port: port) { (channel) -> EventLoopFuture<EventLoopFuture<Upgrade>> in
                let address = channel.remoteAddress?.ipAddress ?? "unknown"
                if let full = admission.admit(address) {
                    // Closed at once: a connection over the limits costs nothing while it waits.
                    logger.debug("refused a connection over \(full)", metadata: ["remote": "\(address)"])
                    metrics.refused(status: 503)
                    channel.close(promise: nil)
                    return channel.eventLoop.makeFailedFuture(RelayAdmission.Refused(limit: full))
                }
                channel.closeFuture.whenComplete { _ in admission.release(address) }
                return channel.eventLoop.makeCompletedFuture {
                    if let tls { try channel.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: tls)) }
                    let request = RequestHeadRecorder()
                    let upgrader = NIOTypedWebSocketServerUpgrader<Upgrade>(
                        maxFrameSize: messageLimit, enableAutomaticErrorHandling: false,
                        shouldUpgrade: { channel, head in
                            channel.eventLoop.makeCompletedFuture {
                                let handshake: RelayHandshake
                                do throws(RelayHandshake.Refusal) {
                                    handshake = try Self.handshake(head)
                                    _ = try handshake.claims(
                                        secret: configuration.secret, now: configuration.now(), leeway: configuration.tokenLeeway)
                                } catch {
                                    // Answered here: the request is not handed on once an upgrade was asked for.
                                    logger.notice(
                                        "refused a connection",
                                        metadata: [
                                            "status": "\(error.status)", "reason": "\(error.reason)",
                                            "remote": "\(channel.remoteAddress.map { "\($0)" } ?? "?")",
                                        ])
                                    metrics.refused(status: error.status)
                                    Self.answer(error, on: channel)
                                    request.answered = true
                                    return nil
                                }
                                var headers = HTTPHeaders()
                                if handshake.offersSubprotocol {
                                    headers.add(name: "Sec-WebSocket-Protocol", value: RelayHandshake.subprotocol)
                                }
                                return headers
                            }
                        },
                        upgradePipelineHandler: { channel, head in
                            channel.eventLoop.makeCompletedFuture {
                                let claims = try Self.handshake(head).claims(
                                    secret: configuration.secret, now: configuration.now(), leeway: configuration.tokenLeeway)
                                let connection = try self.connection(claims: claims, channel: channel)
                                try channel.pipeline.syncOperations.addHandler(RelayFrameScreen())
                                try channel.pipeline.syncOperations.addHandler(
                                    NIOWebSocketFrameAggregator(
                                        minNonFinalFragmentSize: 0, maxAccumulatedFrameCount: 1_024,
                                        maxAccumulatedFrameSize: messageLimit))
                                try channel.pipeline.syncOperations.addHandler(
                                    RelayConnectionHandler(connection: connection, server: self, waiting: self.cluster != nil))
                                if let cluster = self.cluster {
                                    // Its messages wait until the room's owner places it.
                                    cluster.enter(connection)
                                    return Upgrade.websocket(connection, nil)
                                }
                                // In the room before the first of its messages is read, so the
                                // others hear it joined before any frame of it.
                                return Upgrade.websocket(
                                    connection, self.rooms.join(connection, maxFrameSize: configuration.maxFrameSize))
                            }
                        })
                    let upgrade = NIOTypedHTTPServerUpgradeConfiguration<Upgrade>(
                        upgraders: [upgrader],
                        notUpgradingCompletionHandler: { channel in
                            channel.eventLoop.makeCompletedFuture {
                                // NIO consumes a request that asks for an upgrade none of its
                                // upgraders made (refused above, or impossible: no
                                // Sec-WebSocket-Key, another protocol): it never reaches
                                // `refuse`, so it is answered here unless it was above.
                                if let head = request.head, head.headers.contains(name: "upgrade") {
                                    if request.answered { return Upgrade.answered }
                                    metrics.refused(status: 400)
                                    Self.answer(
                                        RelayHandshake.Refusal(
                                            status: 400,
                                            reason: "not a valid WebSocket upgrade request (RFC 6455: Upgrade: websocket, "
                                                + "Connection: Upgrade, Sec-WebSocket-Key, Sec-WebSocket-Version: 13)"),
                                        on: channel)
                                    return Upgrade.answered
                                }
                                return Upgrade.refused(try NIOAsyncChannel(wrappingChannelSynchronously: channel))
                            }
                        })
                    let upgraded = try channel.pipeline.syncOperations.configureUpgradableHTTPServerPipeline(
                        configuration: .init(upgradeConfiguration: upgrade))
                    try channel.pipeline.syncOperations.addHandler(
                        request,
                        position: .before(
                            try channel.pipeline.syncOperations.handler(type: NIOTypedHTTPServerUpgradeHandler<Upgrade>.self)))
                    // The handshake timeout, from the accept (TLS included) to the upgrade or
                    // the answer to a plain request; a sleeping task costs no CPU meanwhile.
                    let clock = configuration.clock
                    let deadline = clock.now() + configuration.handshakeTimeout
                    let timeout = Task {
                        do { try await clock.sleep(deadline) } catch { return }
                        channel.close(promise: nil)
                    }
                    // Until a client is in: one answered and refused keeps the timeout, which
                    // closes it then if it has not closed its side.
                    upgraded.whenSuccess { if case .websocket = $0 { timeout.cancel() } }
                    return upgraded
                }
            }
        let bound = server.channel.localAddress?.port ?? port
        logger.notice("listening", metadata: ["host": "\(host)", "port": "\(bound)", "tls": "\(tls != nil)"])
        let task = Task<Void, Never> {
            try? await withThrowingDiscardingTaskGroup { group in
                try await server.executeThenClose { inbound in
                    for try await upgrade in inbound {
                        group.addTask { await self.serve(upgrade) }
                    }
                }
            }
        }
        // The idle check, four times per idle timeout, on the relay's clock.
        let (rooms, clock, period) = (rooms, configuration.clock, configuration.idleTimeout / 4)
        let liveness = Task<Void, Never> {
            var next = clock.now() + period
            while !Task.isCancelled {
                do { try await clock.sleep(next) } catch { return }
                let now = clock.now()
                next = max(next + period, now)
                for connection in rooms.all { connection.checkLiveness(now: now) }
            }
        }
        running.withLock { $0 = (server.channel, task, liveness) }
        return bound
    }

    /// Stops listening, tells every client the relay is shutting down (after what is
    /// already queued for it), and waits until every connection has ended; connections
    /// still open after ``RelayServerConfiguration/drainTimeout`` are closed. Returns within
    /// about the drain timeout plus a second.
    public func shutdown() async {
        let (channel, task, liveness) = running.withLock { running in
            defer { running = (nil, nil, nil) }
            return running
        }
        liveness?.cancel()
        logger.notice("shutting down", metadata: ["connections": "\(rooms.all.count)"])
        try? await channel?.close()
        rooms.forgetAbsent()
        for connection in rooms.all + (cluster?.waiting ?? []) {
            connection.finish(RelayError(.shuttingDown, "the relay is shutting down"), reason: .shutdown, code: .goingAway)
        }
        let (rooms, logger, clock, cluster) = (rooms, logger, configuration.clock, cluster)
        let drainEnd = clock.now() + configuration.drainTimeout
        let deadline = Task {
            try await clock.sleep(drainEnd)
            let open = rooms.all + (cluster?.waiting ?? [])
            logger.warning("drain timed out; closing the connections still open", metadata: ["connections": "\(open.count)"])
            for connection in open { connection.close() }
        }
        await task?.value
        deadline.cancel()
        // The leaves of the connections that ended are out; then the node leaves NATS.
        await cluster?.stop()
    }

    /// Participants per room now.
    public var census: [String: Int] { rooms.census }

    private static func handshake(_ head: HTTPRequestHead) throws(RelayHandshake.Refusal) -> RelayHandshake {
        try RelayHandshake(uri: head.uri, subprotocols: head.headers["Sec-WebSocket-Protocol"])
    }

    private func serve(_ upgrade: EventLoopFuture<Upgrade>) async {
        let outcome: Upgrade
        do {
            outcome = try await upgrade.get()
        } catch {
            // A TLS handshake that failed (a plain client on the TLS port, say), or a
            // connection that ended before its request: nobody entered, the operator hears why.
            logger.info("a connection ended before its upgrade", metadata: ["error": "\(error)"])
            return
        }
        switch outcome {
        case .websocket(let connection, let entry): await serve(connection, entry: entry)
        case .refused(let channel): await refuse(channel)
        case .answered: return
        }
    }

    /// Writes `refusal` as the HTTP answer on `channel` and closes it.
    private static func answer(_ refusal: RelayHandshake.Refusal, on channel: any Channel) {
        for part in response(refusal) { channel.write(part, promise: nil) }
        channel.flush()
        channel.close(mode: .output, promise: nil)
    }

    /// The HTTP answer to a refused request: the status and the reason as a text body.
    private static func response(_ refusal: RelayHandshake.Refusal) -> [HTTPServerResponsePart] {
        response(
            status: HTTPResponseStatus(statusCode: refusal.status), contentType: "text/plain; charset=utf-8",
            body: ByteBuffer(string: refusal.reason + "\n"))
    }

    /// An HTTP answer with `body`, after which the connection closes.
    private static func response(status: HTTPResponseStatus, contentType: String, body: ByteBuffer) -> [HTTPServerResponsePart] {
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: contentType)
        headers.add(name: "Content-Length", value: String(body.readableBytes))
        headers.add(name: "Connection", value: "close")
        return [
            .head(HTTPResponseHead(version: .http1_1, status: status, headers: headers)), .body(.byteBuffer(body)), .end(nil),
        ]
    }

    /// Answers a request that was not upgraded: the metrics for a GET of
    /// ``RelayServerConfiguration/metricsPath``, else 404 for another path, 401 with the
    /// token's problem, 400 for anything else.
    private func refuse(_ channel: NIOAsyncChannel<HTTPServerRequestPart, HTTPServerResponsePart>) async {
        try? await channel.executeThenClose { inbound, outbound in
            for try await part in inbound {
                guard case .head(let head) = part else { continue }
                if head.method == .GET, let path = configuration.metricsPath,
                    head.uri.split(separator: "?", maxSplits: 1).first.map(String.init) == path
                {
                    try await outbound.write(
                        contentsOf: Self.response(
                            status: .ok, contentType: RelayMetrics.expositionContentType,
                            body: ByteBuffer(bytes: metrics.exposition())))
                    return
                }
                let refusal: RelayHandshake.Refusal
                do throws(RelayHandshake.Refusal) {
                    _ = try Self.handshake(head).claims(
                        secret: configuration.secret, now: configuration.now(), leeway: configuration.tokenLeeway)
                    refusal = RelayHandshake.Refusal(status: 400, reason: "not a WebSocket upgrade request")
                } catch {
                    refusal = error
                }
                metrics.refused(status: refusal.status)
                try await outbound.write(contentsOf: Self.response(refusal))
                return
            }
        }
    }

    /// The connection of the client `claims` admits, on `channel`.
    private func connection(claims: AccessToken, channel: any Channel) throws -> RelayConnection {
        var logger = logger
        logger[metadataKey: "room"] = "\(claims.room)"
        logger[metadataKey: "participant"] = "\(claims.identity)"
        return try RelayConnection(
            member: RelayMember(
                id: RelayIdentity.participantID(room: claims.room, identity: claims.identity), identity: claims.identity),
            room: claims.room, channel: channel, configuration: configuration, logger: logger, metrics: metrics)
    }

    /// One client, from its entry (the welcome is on its way) until it has left. Its
    /// messages are handled on its event loop (``RelayConnectionHandler``); this task only
    /// waits for the socket to close.
    private func serve(_ connection: RelayConnection, entry: RelayRooms.Entry?) async {
        var logger = logger
        logger[metadataKey: "room"] = "\(connection.room)"
        logger[metadataKey: "participant"] = "\(connection.member.identity)"
        metrics.connections.increment()
        if let entry {
            if entry != .joined { metrics.reconnects.increment() }
            metrics.census(rooms.census)
            let entered =
                switch entry {
                case .joined: "joined"
                case .resumed: "resumed"
                case .replaced: "replaced an older connection"
                }
            logger.info("\(entered)", metadata: ["id": "\(connection.member.id)"])
        } else {
            logger.info("asked its room's owner for a place", metadata: ["id": "\(connection.member.id)"])
        }
        try? await connection.closeFuture.get()
        if let cluster {
            cluster.leave(connection)
            metrics.census(rooms.census)
            logger.info("left", metadata: ["reason": "\(connection.leaveReason)"])
            return
        }
        let kept = rooms.leave(connection)
        metrics.census(rooms.census)
        if kept {
            logger.info("lost", metadata: ["detail": "its place is kept for the reconnect grace period"])
        } else {
            logger.info("left", metadata: ["reason": "\(connection.leaveReason)"])
        }
    }

    /// The error and close code for a WebSocket protocol error on a client's connection,
    /// nil for an error of the connection itself (a reset, a TLS failure).
    static func protocolFailure(_ error: any Error, limit: Int) -> (error: RelayError, code: WebSocketErrorCode)? {
        switch error {
        case NIOWebSocketError.invalidFrameLength, NIOWebSocketFrameAggregator.Error.accumulatedFrameSizeIsTooLarge:
            return (RelayError(.frameTooLarge, "a message over \(limit) bytes, the largest send"), .messageTooLarge)
        case let violation as RelayProtocolViolation:
            return (RelayError(.malformed, violation.reason), violation.code)
        case let error as NIOWebSocketError:
            return (RelayError(.malformed, "\(error)"), .protocolError)
        case let error as NIOWebSocketFrameAggregator.Error:
            return (RelayError(.malformed, "\(error)"), .protocolError)
        default:
            return nil
        }
    }

    /// Handles one message from a client; false when the connection ends.
    func handle(_ frame: WebSocketFrame, from connection: RelayConnection, allocator: ByteBufferAllocator) -> Bool {
        // A binary message is heard by admit(), which reads the clock for the rate anyway.
        if frame.opcode != .binary { connection.heard() }
        switch frame.opcode {
        case .binary:
            guard connection.admit() else {
                connection.finish(
                    RelayError(.rateLimited, "more than \(configuration.maxMessagesPerSecond) messages per second"),
                    reason: .violation, code: .policyViolation)
                return false
            }
            // The message is copied once, unmasked, into the buffer its recipients share,
            // behind room for the deliver header; its send header is read there in place.
            let deliverHeader = connection.deliverHeader
            let size = frame.data.readableBytes
            var deliver = allocator.buffer(capacity: deliverHeader.count + size)
            deliver.moveWriterIndex(forwardBy: deliverHeader.count)
            deliver.moveReaderIndex(forwardBy: deliverHeader.count)
            deliver.writeImmutableBuffer(frame.data)
            if let mask = frame.maskKey { deliver.webSocketUnmask(mask) }
            let type = deliver.getInteger(at: deliverHeader.count, as: UInt8.self) ?? 0
            let prefixLength = RelaySendHeader.prefixLength(type: type, messageLength: size, limits: configuration.limits)
            let header: RelaySendHeader
            do {
                header = try RelaySendHeader(
                    decodingPrefix: deliver.getBytes(at: deliverHeader.count, length: prefixLength) ?? [], messageLength: size,
                    limits: configuration.limits)
            } catch {
                let tooLarge = error.kind == .limitExceeded && size > configuration.maxFrameSize
                connection.finish(
                    RelayError(
                        tooLarge ? .frameTooLarge : .malformed, "\(error.kind) at offset \(error.offset ?? 0): \(error.context)"),
                    reason: .violation, code: tooLarge ? .messageTooLarge : .policyViolation)
                return false
            }
            // Only a send that parsed counts as a frame received.
            metrics.framesReceived.increment()
            metrics.bytesReceived.increment(by: size)
            // The deliver header takes the place of the send header, just before the frame.
            deliver.moveReaderIndex(to: header.length)
            deliver.setBytes(deliverHeader, at: header.length)
            if let capture = configuration.capture {
                let frame = deliver.getBytes(at: header.length + deliverHeader.count, length: size - header.length) ?? []
                capture.write(
                    CaptureRecord(
                        timestamp: CaptureRecord.now(), direction: .received, sessionID: FrameHeaderFields.sessionID(of: frame),
                        local: CaptureRecord.noParticipant, peer: connection.member.id, room: connection.room, frame: frame))
            }
            if let cluster {
                // The room's owner orders it in the room's stream, which delivers it here too.
                cluster.forward(
                    from: connection, recipients: header.recipients,
                    frame: deliver.getBytes(at: header.length + deliverHeader.count, length: size - header.length) ?? [])
                return true
            }
            var delivered = 0
            for recipient in rooms.recipients(of: connection, ids: header.recipients)
            where recipient !== connection && recipient.enqueue(deliver) {
                delivered += 1
            }
            metrics.framesDelivered.increment(by: delivered)
            metrics.bytesDelivered.increment(by: delivered * deliver.readableBytes)
            return true
        case .ping:
            connection.pong(frame.unmaskedData)
            return true
        case .connectionClose:
            connection.finish(nil, reason: .closed, code: .normalClosure)
            return false
        case .text:
            connection.finish(
                RelayError(.malformed, "text messages are not part of the relay protocol; send binary"),
                reason: .violation, code: .policyViolation)
            return false
        default:
            return true
        }
    }
}

extension RelayServer {
    /// The connections open now, upgraded or not (for tests that wait for an accept).
    var openConnections: Int { admission.open }

    /// The clients in rooms now.
    var connections: [RelayConnection] { rooms.all }

    /// The members whose place is kept for the reconnect grace now.
    var absentMembers: Int { rooms.absentCount }
}

/// Keeps the head of the request a connection sends first, for the answer to an upgrade
/// NIO's upgrade handler consumed without making it.
private final class RequestHeadRecorder: ChannelInboundHandler, RemovableChannelHandler, @unchecked Sendable {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart

    /// The first request head; read and written on the channel's event loop only.
    private(set) var head: HTTPRequestHead?
    /// Whether the upgrader's check refused it and answered already (event loop only).
    var answered = false

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if head == nil, case .head(let requestHead) = unwrapInboundIn(data) { head = requestHead }
        context.fireChannelRead(data)
    }
}
