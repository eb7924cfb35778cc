import Foundation
import GroupWireNATSProtocol
import NIOCore
import NIOPosix
import Synchronization

/// A NATS server that misbehaves on purpose, on loopback and a port of its own: it greets
/// each connection with INFO and answers the greeting's PING, then answers later PINGs only
/// while ``answersPings`` is set, and sends whatever a test tells it to.
final class FakeNATSServer: Sendable {
    private struct State {
        var connections: [any Channel] = []
        var answersPings = true
        var accepted = 0
        var pingsSeen = 0
    }

    private final class Shared: Sendable {
        let state = Mutex(State())
    }

    private let shared = Shared()
    private let channel: any Channel
    let port: Int

    init() async throws {
        let shared = shared
        let server = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(Handler(shared: shared))
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        channel = server
        port = server.localAddress?.port ?? 0
    }

    /// Whether PINGs after the greeting get a PONG.
    var answersPings: Bool {
        get { shared.state.withLock { $0.answersPings } }
        set { shared.state.withLock { $0.answersPings = newValue } }
    }

    /// Connections accepted so far.
    var accepted: Int { shared.state.withLock { $0.accepted } }

    /// PINGs after the greeting seen so far, on every connection.
    var pingsSeen: Int { shared.state.withLock { $0.pingsSeen } }

    /// Sends `bytes` on every open connection.
    func send(_ bytes: [UInt8]) {
        for connection in shared.state.withLock({ $0.connections }) {
            connection.writeAndFlush(ByteBuffer(bytes: bytes), promise: nil)
        }
    }

    func stop() async {
        for connection in shared.state.withLock({ $0.connections }) { try? await connection.close() }
        try? await channel.close()
    }

    private final class Handler: ChannelInboundHandler {
        typealias InboundIn = ByteBuffer
        typealias OutboundOut = ByteBuffer
        let shared: Shared
        var text = ""
        var greeted = false

        init(shared: Shared) { self.shared = shared }

        func channelActive(context: ChannelHandlerContext) {
            let channel = context.channel
            let number = shared.state.withLock { state in
                state.connections.append(channel)
                state.accepted += 1
                return state.accepted
            }
            let info =
                (try? NATSServerOperation.info(NATSServerInfo(serverID: "fake-\(number)", maxPayload: 4_096)).encoded()) ?? []
            context.writeAndFlush(wrapOutboundOut(ByteBuffer(bytes: info)), promise: nil)
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            text += String(buffer: unwrapInboundIn(data))
            while let end = text.range(of: "\r\n") {
                let line = String(text[..<end.lowerBound])
                text = String(text[end.upperBound...])
                guard line == "PING" else { continue }
                let answer = shared.state.withLock { state -> Bool in
                    if !greeted { return true }
                    state.pingsSeen += 1
                    return state.answersPings
                }
                greeted = true
                if answer { context.writeAndFlush(wrapOutboundOut(ByteBuffer(string: "PONG\r\n")), promise: nil) }
            }
        }
    }
}
