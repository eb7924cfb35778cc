import Foundation
import GroupWire
import GroupWireCompression
import GroupWireExamples
import GroupWireSession
import Testing

/// The messenger's single-frame path: a generated message written straight into its frame
/// (`SendPipeline.frame(message:profile:)`) and decoded where it stands in the received
/// frame (`ReceivedMessage.decode`) gives exactly what the general paths give, and steps
/// aside whenever they would do something else (fragments, compression, unknown size).
@Suite struct SingleFramePathTests {
    let peer = ParticipantID.numbered(2)

    static func snapshot(strokes: Int, points: Int) -> CanvasSnapshot {
        CanvasSnapshot(
            strokes: (0..<strokes).map { index in
                Stroke(
                    id: UUID(), color: StrokeColor(rawValue: UInt32(index % 5)),
                    points: (0..<points).map { Point(x: Double($0), y: Double(index)) })
            },
            pointCount: UInt64(strokes * points))
    }

    @Test func aGeneratedMessageIsWrittenIntoTheSameFrameBytesAsThroughItsPayload() throws {
        let messages: [any MessageCodable] = [
            UpsertStroke(id: UUID(), color: .blue, point: Point(x: 1.5, y: -2)),
            UpsertStroke(),
            Self.snapshot(strokes: 3, points: 4),
        ]
        for message in messages {
            let general = try SendPipeline().frames(
                typeID: type(of: message).wireTypeID, payload: try message.messagePayload(), messageID: 0, profile: PeerProfile())
            let single = try #require(try SendPipeline().frame(message: message, profile: PeerProfile()))
            #expect(general == [single])
        }
    }

    @Test func aMessageOverTheFrameSizeIsLeftToTheFragmenter() throws {
        let snapshot = Self.snapshot(strokes: 20, points: 40)
        let profile = PeerProfile(maxFrameSize: 1_024)
        #expect(try snapshot.messagePayload().count > 1_024)
        #expect(try SendPipeline().frame(message: snapshot, profile: profile) == nil)
    }

    @Test func aMessageTheCodecWouldCompressIsLeftToTheCodec() throws {
        let codec = try PayloadCompressor()
        let threshold = codec.compressionThreshold(dictionaryID: 0)
        let small = UpsertStroke(id: UUID(), color: .red, point: Point(x: 1, y: 2))
        let large = Self.snapshot(strokes: 10, points: 20)
        #expect(try small.messagePayload().count < threshold)
        #expect(try large.messagePayload().count >= threshold)
        let pipeline = SendPipeline(codec: codec)
        let profile = PeerProfile.default(codec: codec)
        #expect(
            try pipeline.frame(message: small, profile: profile)
                == pipeline.frames(
                    typeID: UpsertStroke.wireTypeID, payload: small.messagePayload(), messageID: 0, profile: profile
                ).first)
        #expect(try pipeline.frame(message: large, profile: profile) == nil)
    }

    @Test func aCodableMessageHasNoExactSizeSoItTakesTheGeneralPath() throws {
        #expect(try SendPipeline().frame(message: Cursor(x: 1, y: 2, label: "a"), profile: PeerProfile()) == nil)
    }

    @Test func aMessageOverTheRecipientsMessageSizeIsRefusedBeforeAnythingIsWritten() {
        let snapshot = Self.snapshot(strokes: 2, points: 10)
        #expect {
            try SendPipeline().frame(message: snapshot, profile: PeerProfile(maxMessageSize: 64))
        } throws: { ($0 as? WireError)?.kind == .messageTooLarge }
    }

    @Test func aReceivedMessageDecodesInPlaceToTheValueSent() throws {
        let stroke = UpsertStroke(id: UUID(), color: .green, point: Point(x: 3, y: 4))
        let frame = try #require(try SendPipeline().frame(message: stroke, profile: PeerProfile()))
        var receiver = ReceivePipeline()
        let message = try #require(receiver.receive(frameBytes: frame, from: peer).message)
        #expect(try message.decode(UpsertStroke.self) == stroke)
        #expect(message.payload == stroke.wirePayload())
        #expect(message.payloadCount == stroke.wirePayload().count)
    }

    @Test func aPayloadErrorDecodedInPlaceCountsFromThePayloadNotTheFrame() throws {
        // Field 2 (color, a varint) written with wire type fixed64: typeMismatch at the
        // key, payload offset 0, whatever the frame's header length.
        let payload: [UInt8] = [0x11, 0, 0, 0, 0, 0, 0, 0, 0]
        let frame = try SendPipeline().frames(
            typeID: UpsertStroke.wireTypeID, payload: payload, messageID: 0, profile: PeerProfile())[0]
        var receiver = ReceivePipeline()
        let message = try #require(receiver.receive(frameBytes: frame, from: peer).message)
        var inPlace: WireError?
        do { _ = try message.decode(UpsertStroke.self) } catch { inPlace = error }
        var copied: WireError?
        do { _ = try UpsertStroke(messagePayload: payload, limits: .default) } catch { copied = error }
        #expect(inPlace?.kind == .typeMismatch)
        #expect(inPlace?.offset == 0)
        #expect(inPlace?.offset == copied?.offset)
    }
}
