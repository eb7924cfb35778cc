import GroupWireTestSupport

/// A WebSocket client that completes the relay's handshake and then never reads again:
/// what a frozen app looks like to the relay. Its socket has a small receive buffer, so the
/// relay's writes to it back up quickly; closed by ``close()``.
final class StalledClient {
    private let socket: LoopbackSocket
    /// The first line of the relay's answer (`HTTP/1.1 101 Switching Protocols`).
    let statusLine: String

    /// Connects to the relay on loopback `port` with `token` and reads the answer's head.
    init(port: Int, token: String) throws {
        socket = try LoopbackSocket(port: port, receiveBuffer: 4_096)
        do {
            try socket.write(
                Array(
                    ("GET /v1/connect?token=\(token) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nUpgrade: websocket\r\n"
                        + "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n")
                        .utf8))
            // The answer's head, byte by byte, so nothing after it is taken from the socket.
            var head: [UInt8] = []
            while head.count < 4 || Array(head.suffix(4)) != [13, 10, 13, 10] {
                guard head.count < 4_096, let byte = try socket.readByte() else {
                    throw LoopbackSocket.Failure(
                        description: "no complete handshake answer: \(String(decoding: head, as: UTF8.self))")
                }
                head.append(byte)
            }
            statusLine = String(decoding: head.prefix { $0 != 13 }, as: UTF8.self)
        } catch {
            socket.close()
            throw error
        }
    }

    /// Reads what the relay sent until it ends the connection; throws with errno 104
    /// (ECONNRESET) when the relay reset it.
    func readUntilEnd() throws -> [UInt8] {
        try socket.readToEnd(limit: 64 << 20)
    }

    /// Closes the socket.
    func close() {
        socket.close()
    }
}
