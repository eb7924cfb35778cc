import NIOCore
import NIOWebSocket

/// What RFC 6455 obliges a server to refuse and NIO's frame decoder passes on: an unmasked
/// client frame, a reserved bit set with no extension negotiated, a reserved opcode, a
/// close frame with a code no endpoint may send or a reason that is not UTF-8. Each frame
/// is screened as it arrives, before fragments are joined; the first bad one is turned into
/// a ``RelayProtocolViolation`` for the connection's reader, which fails the connection
/// with its close code, and every frame after it is dropped.
final class RelayFrameScreen: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = WebSocketFrame
    typealias InboundOut = WebSocketFrame

    private var failed = false

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !failed else { return }
        if let violation = Self.violation(in: unwrapInboundIn(data)) {
            failed = true
            context.fireErrorCaught(violation)
            return
        }
        context.fireChannelRead(data)
    }

    /// What is wrong with `frame`, if anything.
    static func violation(in frame: WebSocketFrame) -> RelayProtocolViolation? {
        guard frame.maskKey != nil else {
            return RelayProtocolViolation(code: .protocolError, "an unmasked frame: a client masks every frame (RFC 6455, 5.1)")
        }
        guard !frame.rsv1, !frame.rsv2, !frame.rsv3 else {
            return RelayProtocolViolation(code: .protocolError, "a reserved bit is set and no extension was negotiated")
        }
        switch frame.opcode {
        case .continuation, .text, .binary, .ping, .pong:
            return nil
        case .connectionClose:
            return closeViolation(frame.unmaskedData)
        default:
            return RelayProtocolViolation(code: .protocolError, "opcode \(frame.opcode) is reserved")
        }
    }

    /// A close frame's body: empty, or a code an endpoint may send (1000–1003, 1007–1014,
    /// 3000–4999) and a UTF-8 reason.
    private static func closeViolation(_ body: ByteBuffer) -> RelayProtocolViolation? {
        var body = body
        guard body.readableBytes > 0 else { return nil }
        guard let code = body.readInteger(as: UInt16.self) else {
            return RelayProtocolViolation(code: .protocolError, "a close frame of one byte")
        }
        guard (1000...1003).contains(code) || (1007...1014).contains(code) || (3000...4999).contains(code) else {
            return RelayProtocolViolation(code: .protocolError, "close code \(code) is not one an endpoint may send")
        }
        guard String(validating: body.readableBytesView, as: UTF8.self) != nil else {
            return RelayProtocolViolation(code: .unacceptableData, "the close frame's reason is not UTF-8")
        }
        return nil
    }
}

/// A client broke the WebSocket protocol (RFC 6455): the connection fails with `code`.
struct RelayProtocolViolation: Error, Sendable {
    /// The close code the relay answers with.
    var code: WebSocketErrorCode
    /// What was wrong.
    var reason: String

    init(code: WebSocketErrorCode, _ reason: String) {
        self.code = code
        self.reason = reason
    }
}
