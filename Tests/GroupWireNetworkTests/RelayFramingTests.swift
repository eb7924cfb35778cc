import NIOCore
import NIOEmbedded
import NIOWebSocket
import Testing

@testable import GroupWireNetwork

/// The relay frames what it writes itself, below NIO's encoder: its frames are byte for
/// byte what `WebSocketFrameEncoder` makes of the same frame, at each length encoding's
/// edges (7-bit, 16-bit, 64-bit; the largest deliver, 17 + 65,536 bytes, takes 64 bits).
@Suite struct RelayFramingTests {
    @Test(arguments: [
        (WebSocketOpcode.binary, 0), (.binary, 1), (.binary, 125), (.binary, 126), (.binary, 127), (.binary, 65_535),
        (.binary, 65_536), (.binary, 65_553), (.ping, 0), (.pong, 125), (.connectionClose, 2),
    ])
    func aFrameIsWhatNIOsEncoderWrites(opcode: WebSocketOpcode, length: Int) throws {
        let payload = ByteBuffer(bytes: (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        let channel = EmbeddedChannel(handler: WebSocketFrameEncoder())
        defer { _ = try? channel.finish() }
        try channel.writeOutbound(WebSocketFrame(fin: true, opcode: opcode, data: payload))
        var expected = ByteBuffer()
        while let part = try channel.readOutbound(as: ByteBuffer.self) { expected.writeImmutableBuffer(part) }

        var ours = ByteBuffer()
        RelayConnection.writeFrameHeader(opcode: opcode, length: length, to: &ours)
        ours.writeImmutableBuffer(payload)
        #expect(ours == expected)
        #expect(ours.readableBytes == length + (length < 126 ? 2 : length <= 65_535 ? 4 : 10))
    }
}
