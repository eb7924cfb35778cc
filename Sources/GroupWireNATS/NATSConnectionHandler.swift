import GroupWireNATSProtocol
import NIOCore

/// One connection's reading side, on its event loop: parses what the server sends
/// (``NATSParser``, the payloads sliced out of the read buffer uncopied), greets the server
/// (CONNECT and PING after its INFO; the PONG completes the greeting), answers PINGs, and
/// hands messages, PONGs, INFO updates, errors and the connection's end to the client.
final class NATSConnectionHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private let client: NATSClient
    private let server: NATSServerAddress
    private let generation: Int
    private let options: NATSConnectOptions
    private var parser: NATSParser
    /// Completed by the greeting's PONG with the server's INFO, failed by -ERR or the end.
    private let greeting: EventLoopPromise<NATSServerInfo>
    private var info: NATSServerInfo?
    private var greeted = false
    private var buffer: ByteBuffer?
    private var failed = false

    init(
        client: NATSClient, server: NATSServerAddress, generation: Int, options: NATSConnectOptions, limits: NATSLimits,
        greeting: EventLoopPromise<NATSServerInfo>
    ) {
        self.client = client
        self.server = server
        self.generation = generation
        self.options = options
        self.greeting = greeting
        parser = NATSParser(limits: limits)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !failed else { return }
        var incoming = unwrapInboundIn(data)
        if var held = buffer {
            buffer = nil
            held.writeBuffer(&incoming)
            incoming = held
        }
        do {
            while let parsed = try incoming.withUnsafeReadableBytes({ (bytes) throws(NATSProtocolError) in
                try parser.next(in: bytes)
            }) {
                let payload =
                    parsed.payload.isEmpty
                    ? ByteBuffer()
                    : incoming.getSlice(at: incoming.readerIndex + parsed.payload.lowerBound, length: parsed.payload.count)
                        ?? ByteBuffer()
                incoming.moveReaderIndex(forwardBy: parsed.length)
                handle(parsed.operation, payload: payload, context: context)
                if failed { return }
            }
        } catch {
            fail(context: context, reason: "\(error)", error: NATSError(error, server: server))
            return
        }
        if incoming.readableBytes > 0 {
            incoming.discardReadBytes()
            buffer = incoming
        }
    }

    private func handle(_ operation: NATSServerOperation, payload: ByteBuffer, context: ChannelHandlerContext) {
        switch operation {
        case .message(let head):
            client.received(head, payload: payload)
        case .ping:
            context.writeAndFlush(wrapOutboundOut(ByteBuffer(staticString: "PONG\r\n")), promise: nil)
        case .pong:
            if greeted {
                client.ponged(generation: generation)
            } else if let info {
                greeted = true
                greeting.succeed(info)
            }
        case .info(let info):
            if self.info == nil {
                self.info = info
                var hello = ByteBuffer()
                hello.writeBytes((try? NATSCommand.connect(options).encoded()) ?? [])
                hello.writeStaticString("PING\r\n")
                context.writeAndFlush(wrapOutboundOut(hello), promise: nil)
            } else {
                self.info = info
                if greeted { client.updated(info, generation: generation) }
            }
        case .ok:
            break
        case .error(let text):
            if greeted {
                client.serverError(text, server: server)
            } else {
                fail(context: context, reason: text, error: NATSError(.serverError, server: server, text))
            }
        }
    }

    /// Ends the connection over `reason`: the greeting fails with `error` if still open.
    private func fail(context: ChannelHandlerContext, reason: String, error: NATSError) {
        failed = true
        greeting.fail(error)
        context.close(promise: nil)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        fail(context: context, reason: "\(error)", error: NATSError(.connectionFailed, server: server, "\(error)"))
    }

    func channelInactive(context: ChannelHandlerContext) {
        greeting.fail(NATSError(.connectionFailed, server: server, "the server closed the connection during the greeting"))
        if greeted { client.lost(generation: generation, server: server, reason: "the connection closed") }
        context.fireChannelInactive()
    }
}
