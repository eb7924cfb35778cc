import GroupWire
import GroupWireSession
import Testing

/// The pipelines' whole-frame paths (written and read without Fragmenter or an
/// intermediate Frame) give exactly what the general paths give.
@Suite struct PipelineWholeFrameTests {
    let peer = ParticipantID.numbered(2)

    /// A payload of `count` bytes that is not all one value.
    func payload(_ count: Int) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
    }

    @Test(arguments: [0, 1, 42, 127, 128, 1_000, 65_000])
    func aWholeDataFrameIsByteIdenticalToTheFragmentersFrame(size: Int) throws {
        let body = payload(size)
        let profile = PeerProfile()
        let frames = try SendPipeline().frames(typeID: 300, payload: body, messageID: 9, profile: profile)
        let reference = try Fragmenter(limits: Limits(maxFrameSize: profile.maxFrameSize, maxMessageSize: profile.maxMessageSize))
            .frames(typeID: 300, messageID: 9, body: body)
        #expect(frames == reference)
        #expect(frames.count == 1)
        #expect(frames[0].count == FrameEncoder.frameSize(typeID: 300, compression: nil, fragment: nil, bodyCount: size))
    }

    @Test func aControlFrameIsByteIdenticalToTheFrameEncodersFrame() throws {
        let body = payload(20)
        let frames = try SendPipeline().frames(kind: .control, typeID: 3, payload: body, messageID: 0, profile: PeerProfile())
        #expect(frames == [try FrameEncoder().encode(Frame(kind: .control, typeID: 3, body: body))])
    }

    @Test func aBodyOneByteOverTheFrameSizeIsFragmentedAsBefore() throws {
        let profile = PeerProfile(maxFrameSize: 256)
        // The largest body whose data frame is at most 256 bytes (the length varint grows with it).
        let fits = (0...256).last { FrameEncoder.frameSize(typeID: 5, compression: nil, fragment: nil, bodyCount: $0) <= 256 }!
        let whole = try SendPipeline().frames(typeID: 5, payload: payload(fits), messageID: 1, profile: profile)
        #expect(whole.count == 1)
        #expect(whole[0].count == 256)
        let split = try SendPipeline().frames(typeID: 5, payload: payload(fits + 1), messageID: 1, profile: profile)
        #expect(
            split
                == (try Fragmenter(limits: Limits(maxFrameSize: profile.maxFrameSize, maxMessageSize: profile.maxMessageSize))
                    .frames(typeID: 5, messageID: 1, body: payload(fits + 1))))
        #expect(split.count == 2)
    }

    @Test func aControlFrameOverTheFrameSizeIsRefused() {
        let profile = PeerProfile(maxFrameSize: 64)
        #expect {
            try SendPipeline().frames(kind: .control, typeID: 3, payload: payload(100), messageID: 0, profile: profile)
        } throws: { ($0 as? WireError)?.kind == .frameTooLarge }
    }

    @Test func anInvalidTypeIDInAWholeFrameIsRefusedAsBefore() {
        #expect {
            try SendPipeline().frames(typeID: 0, payload: payload(4), messageID: 0, profile: PeerProfile())
        } throws: { ($0 as? WireError)?.kind == .invalidTypeID }
    }

    @Test(arguments: [0, 42, 1_000])
    func aWholeFrameIsReceivedWithTheDecodersBodyAndType(size: Int) throws {
        let body = payload(size)
        let frame = try SendPipeline().frames(typeID: 77, payload: body, messageID: 0, profile: PeerProfile())[0]
        var receiver = ReceivePipeline()
        let result = receiver.receive(frameBytes: frame, from: peer)
        let decoded = try FrameDecoder().decode(frame)
        #expect(result.rejection == nil)
        #expect(result.drops.isEmpty)
        #expect(result.message?.payload == decoded.body)
        #expect(result.message?.payload == body)
        #expect(result.message?.typeID == 77)
        #expect(result.message?.kind == .data)
        #expect(result.message?.sender == peer)
        #expect(result.message?.compression == nil)
    }

    @Test func aWholeFrameWithABadChecksumIsRejectedAndYieldsNoMessage() throws {
        var frame = try SendPipeline().frames(typeID: 77, payload: payload(42), messageID: 0, profile: PeerProfile())[0]
        frame[frame.count - 1] ^= 0x01
        var receiver = ReceivePipeline()
        let result = receiver.receive(frameBytes: frame, from: peer)
        #expect(result.message == nil)
        #expect(result.rejection?.kind == .checksumMismatch)
    }
}
