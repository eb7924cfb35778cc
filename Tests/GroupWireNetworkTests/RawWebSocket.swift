import GroupWireTestSupport

/// A WebSocket client written byte by byte over a ``LoopbackSocket``, for tests that send
/// the relay what a well-behaved client never would: unmasked frames, reserved bits and
/// opcodes, a frame header announcing 16 MiB.
final class RawWebSocket {
    let socket: LoopbackSocket
    /// The first line of the relay's answer.
    let statusLine: String

    /// Connects to the relay on loopback `port` and sends the upgrade request, with the
    /// token in the query and `subprotocols` (if any) in `Sec-WebSocket-Protocol`.
    init(port: Int, token: String, subprotocols: String? = nil) throws {
        socket = try LoopbackSocket(port: port)
        do {
            let protocols = subprotocols.map { "Sec-WebSocket-Protocol: \($0)\r\n" } ?? ""
            try socket.write(
                Array(
                    ("GET /v1/connect?token=\(token) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nUpgrade: websocket\r\n"
                        + "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
                        + protocols + "\r\n").utf8))
            var head: [UInt8] = []
            while head.count < 4 || Array(head.suffix(4)) != [13, 10, 13, 10] {
                guard head.count < 4_096, let byte = try socket.readByte() else {
                    throw LoopbackSocket.Failure(description: "no complete answer: \(String(decoding: head, as: UTF8.self))")
                }
                head.append(byte)
            }
            statusLine = String(decoding: head.prefix { $0 != 13 }, as: UTF8.self)
        } catch {
            socket.close()
            throw error
        }
    }

    /// Writes one frame: `first` is the first byte (FIN, RSV bits, opcode); the payload is
    /// masked with a fixed key unless `masked` is false; `announced` overrides the length
    /// written in the header (the payload sent is still `payload`).
    func send(first: UInt8, _ payload: [UInt8], masked: Bool = true, announced: Int? = nil) throws {
        let length = announced ?? payload.count
        var bytes: [UInt8] = [first]
        let maskBit: UInt8 = masked ? 0x80 : 0
        if length < 126 {
            bytes.append(maskBit | UInt8(length))
        } else if length <= 0xFFFF {
            bytes += [maskBit | 126, UInt8(length >> 8), UInt8(length & 0xFF)]
        } else {
            bytes.append(maskBit | 127)
            bytes += (0..<8).reversed().map { UInt8(truncatingIfNeeded: length >> ($0 * 8)) }
        }
        let key: [UInt8] = [0x12, 0x34, 0x56, 0x78]
        if masked { bytes += key }
        bytes += payload.enumerated().map { masked ? $0.element ^ key[$0.offset % 4] : $0.element }
        try socket.write(bytes)
    }

    /// The next frame the relay sends (opcode and payload), nil when it closed first.
    func nextFrame() throws -> (opcode: UInt8, payload: [UInt8])? {
        func byte() throws -> UInt8? { try socket.readByte() }
        guard let first = try byte(), let second = try byte() else { return nil }
        var length = Int(second & 0x7F)
        let extra = length == 126 ? 2 : length == 127 ? 8 : 0
        if extra > 0 {
            length = 0
            for _ in 0..<extra {
                guard let next = try byte() else { return nil }
                length = length << 8 | Int(next)
            }
        }
        var payload: [UInt8] = []
        for _ in 0..<length {
            guard let next = try byte() else { return nil }
            payload.append(next)
        }
        return (first & 0x0F, payload)
    }

    /// Every frame the relay sends until it closes the connection: opcode and payload.
    func framesUntilClosed() throws -> [(opcode: UInt8, payload: [UInt8])] {
        let bytes = try socket.readToEnd()
        var frames: [(opcode: UInt8, payload: [UInt8])] = []
        var index = 0
        while index + 2 <= bytes.count {
            let opcode = bytes[index] & 0x0F
            var length = Int(bytes[index + 1] & 0x7F)
            index += 2
            if length == 126, index + 2 <= bytes.count {
                length = Int(bytes[index]) << 8 | Int(bytes[index + 1])
                index += 2
            } else if length == 127, index + 8 <= bytes.count {
                length = bytes[index..<index + 8].reduce(0) { $0 << 8 | Int($1) }
                index += 8
            }
            guard index + length <= bytes.count else { break }
            frames.append((opcode, Array(bytes[index..<index + length])))
            index += length
        }
        return frames
    }

    /// The close code of a close frame's payload.
    static func closeCode(_ payload: [UInt8]) -> Int? {
        payload.count >= 2 ? Int(payload[0]) << 8 | Int(payload[1]) : nil
    }

    func close() {
        socket.close()
    }
}
