import Foundation
import GroupWire
import GroupWireCompression
import GroupWireExamples
import GroupWireSession
import Testing

/// The pipelines carry a frame's session id from sender to receiver on every path: a whole
/// frame written straight from a generated message, a fragmented message and a compressed one.
@Suite struct SessionHeaderPipelineTests {
    let peer = ParticipantID.numbered(2)

    @Test func theSingleFramePathAndTheGeneralPathWriteTheSameSessionFrame() throws {
        let stroke = UpsertStroke(id: UUID(), color: .red, point: Point(x: 1, y: 2))
        let single = try #require(try SendPipeline().frame(message: stroke, profile: PeerProfile(), session: 99))
        let general = try SendPipeline().frames(
            typeID: UpsertStroke.wireTypeID, payload: stroke.wirePayload(), messageID: 0,
            profile: PeerProfile(), session: 99)
        #expect(general == [single])
        var receiver = ReceivePipeline()
        let message = try #require(receiver.receive(frameBytes: single, from: peer).message)
        #expect(message.session == 99)
        #expect(try message.decode(UpsertStroke.self) == stroke)
    }

    @Test func aFragmentedMessageArrivesWithItsSession() throws {
        let payload = (0..<5_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        let frames = try SendPipeline().frames(
            typeID: 2, payload: payload, messageID: 3, profile: PeerProfile(maxFrameSize: 1_000), session: 5)
        #expect(frames.count > 1)
        var receiver = ReceivePipeline()
        let messages = frames.compactMap { receiver.receive(frameBytes: $0, from: peer).message }
        #expect(messages.count == 1)
        #expect(messages.first?.session == 5)
        #expect(messages.first?.payload == payload)
    }

    @Test func aCompressedMessageArrivesWithItsSession() throws {
        let codec = try PayloadCompressor()
        let payload = Array(repeating: Array("a stroke, ".utf8), count: 300).flatMap { $0 }
        let frames = try SendPipeline(codec: codec).frames(
            typeID: 2, payload: payload, messageID: 1,
            profile: .default(codec: codec), session: 8)
        #expect(frames.count == 1)
        var receiver = ReceivePipeline(codec: codec)
        let message = try #require(receiver.receive(frameBytes: frames[0], from: peer).message)
        #expect(message.compression != nil)
        #expect(message.session == 8)
        #expect(message.payload == payload)
    }

    @Test func framesWithoutASessionArriveWithoutOne() throws {
        let frames = try SendPipeline().frames(typeID: 2, payload: [1, 2, 3], messageID: 1, profile: PeerProfile())
        var receiver = ReceivePipeline()
        #expect(receiver.receive(frameBytes: frames[0], from: peer).message?.session == nil)
    }
}
