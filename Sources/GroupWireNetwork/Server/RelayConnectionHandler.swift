import GroupWireRelay
import NIOCore
import NIOWebSocket

/// A client's side of its connection, on the channel's event loop: each message is handled
/// as it is read (forwarded to the room, answered, or the end of the connection), with no
/// hop to another thread; what goes back to the client is ``RelayConnection``'s to write.
final class RelayConnectionHandler: ChannelInboundHandler {
    typealias InboundIn = WebSocketFrame

    /// The event that ends the wait for a place (in a cluster).
    struct Entered: Sendable {
        let entry: RelayClusterEntry
    }

    /// The most messages held from a client waiting for its place; one more fails the
    /// connection (a client sends nothing before its welcome).
    static let maxHeld = 256

    private let connection: RelayConnection
    private let server: RelayServer
    /// False once the client's close, a violation or the end of its stream was read:
    /// nothing it sends after that is handled.
    private var reading = true
    /// What the client sent while waiting for its place (nil once it has one).
    private var held: [WebSocketFrame]?

    /// A handler for `connection`; `waiting` holds its messages until ``Entered``.
    init(connection: RelayConnection, server: RelayServer, waiting: Bool = false) {
        self.connection = connection
        self.server = server
        held = waiting ? [] : nil
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard reading else { return }
        let frame = unwrapInboundIn(data)
        if var waiting = held {
            guard waiting.count < Self.maxHeld else {
                connection.finish(
                    RelayError(.malformed, "more than \(Self.maxHeld) messages before the welcome"), reason: .violation,
                    code: .policyViolation)
                stopReading()
                return
            }
            held = nil
            waiting.append(frame)
            held = waiting
            return
        }
        if !server.handle(frame, from: connection, allocator: context.channel.allocator) {
            stopReading()
        }
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        guard event is Entered, let waiting = held else {
            context.fireUserInboundEventTriggered(event)
            return
        }
        held = nil
        for frame in waiting where reading {
            if !server.handle(frame, from: connection, allocator: context.channel.allocator) { stopReading() }
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard reading else { return }
        if let failure = RelayServer.protocolFailure(error, limit: server.configuration.limits.maxSendSize) {
            // A broken protocol or a message over the limit: said, then closed.
            connection.finish(failure.error, reason: .violation, code: failure.code)
            stopReading()
        } else {
            // An error of the connection itself (a reset, a TLS failure).
            reading = false
            connection.lost()
            connection.close()
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        if reading {
            // The client went away without a close frame.
            reading = false
            connection.lost()
            connection.finish(nil, reason: .lost, code: .goingAway)
        }
        context.fireChannelInactive()
    }

    private func stopReading() {
        reading = false
        connection.ended(.readingEnded)
    }
}
