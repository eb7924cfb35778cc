import Foundation
import GroupWire
import GroupWireCompression
import GroupWireExamples
import Testing

/// The article "Following one message over the wire", run step by step: its code is the
/// region below, line for line (DocumentSnippetTests compares them).
@Suite struct ArticleExampleTests {
    @Test func followingOneMessageTakesAStrokeToBytesAndBack() throws {
        // FollowingOneMessage.md: begin
        let stroke = UpsertStroke(id: UUID(), color: .red, point: Point(x: 12.5, y: -3.25))
        let payload = stroke.wirePayload()
        let compressor = try PayloadCompressor()
        let compressed = try compressor.compress(payload)  // nil: 40 bytes are under the threshold
        let frame = Frame(typeID: UpsertStroke.wireTypeID, compression: compressed?.info, body: compressed?.bytes ?? payload)
        let bytes = try FrameEncoder().encode(frame)
        let pieces = try Fragmenter().frames(typeID: UpsertStroke.wireTypeID, messageID: 7, body: payload)
        let received = try UpsertStroke(wirePayload: compressor.payload(of: FrameDecoder().decode(bytes)))
        // FollowingOneMessage.md: end
        #expect(received == stroke)
        #expect(payload.count == 40, "a UUID (18 bytes with its key and length), a colour (2), a point of two Float64s (20)")
        #expect(compressed == nil && frame.compression == nil, "40 bytes are under the policy's 1 KiB threshold")
        #expect(bytes.first == Frame.magic)
        #expect(bytes.count == 5 + payload.count + 4, "5 bytes of header, the body, a CRC32C")
        #expect(pieces.count == 1)
        #expect(try FrameDecoder().decode(pieces[0]).body == payload)
    }
}
