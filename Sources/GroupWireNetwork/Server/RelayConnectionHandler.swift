import NIOCore
import NIOWebSocket

/// A client's side of its connection, on the channel's event loop: each message is handled
/// as it is read (forwarded to the room, answered, or the end of the connection), with no
/// hop to another thread; what goes back to the client is ``RelayConnection``'s to write.
final class RelayConnectionHandler: ChannelInboundHandler {
    typealias InboundIn = WebSocketFrame

    private let connection: RelayConnection
    private let server: RelayServer
    /// False once the client's close, a violation or the end of its stream was read:
    /// nothing it sends after that is handled.
    private var reading = true

    init(connection: RelayConnection, server: RelayServer) {
        self.connection = connection
        self.server = server
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard reading else { return }
        if !server.handle(unwrapInboundIn(data), from: connection, allocator: context.channel.allocator) {
            stopReading()
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
