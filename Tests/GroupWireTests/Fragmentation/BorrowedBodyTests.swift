import Testing

@testable import GroupWire

@Suite struct BorrowedBodyTests {
    @Test(arguments: [
        Frame(kind: .data, typeID: 1, body: []),
        Frame(kind: .data, typeID: 300, body: Array(0..<200)),
        Frame(kind: .control, typeID: 2, body: [8, 1]),
        Frame(kind: .data, typeID: 5, compression: CompressionInfo(dictionaryID: 70_000, contentSize: 1 << 20), body: [1, 2, 3]),
        Frame(
            kind: .fragment, typeID: 9,
            fragment: FragmentInfo(messageID: 1 << 50, index: 200, count: 250, totalLength: 1_000, offset: 800),
            body: [0xDE, 0xAD, 0xBE, 0xEF]),
        Frame(
            kind: .fragment, typeID: 70_000, compression: CompressionInfo(dictionaryID: 3, contentSize: 5_000),
            fragment: FragmentInfo(messageID: 2, index: 1, count: 3, totalLength: 300, offset: 100), session: 1 << 30,
            delivery: DeliveryHeader(incarnation: 1 << 20, isReliable: true, sequence: 1 << 40), body: Array(0..<100)),
    ])
    func decodingWithABorrowedBodyFindsTheSameFieldsAndTheBodyBytes(frame: Frame) throws {
        let bytes = try FrameEncoder().encode(frame)
        let (header, range) = try FrameDecoder().decodeBorrowingBody(bytes)
        var expectedHeader = frame
        expectedHeader.body = []
        #expect(header == expectedHeader)
        #expect(Array(bytes[range]) == frame.body)
    }

    @Test func decodingWithABorrowedBodyRejectsWhatDecodingRejects() throws {
        var bytes = try FrameEncoder().encode(Frame(kind: .data, typeID: 1, body: [1, 2, 3]))
        let trailing = try #require(throws: WireError.self) { try FrameDecoder().decodeBorrowingBody(bytes + [0]) }
        #expect(trailing.kind == .trailingBytes)
        bytes[6] ^= 1
        let corrupt = try #require(throws: WireError.self) { try FrameDecoder().decodeBorrowingBody(bytes) }
        #expect(corrupt.kind == .checksumMismatch)
    }

    @Test func reassemblingFromFrameBytesGivesTheSameMessagesAsFromDecodedFrames() throws {
        let body = patternedBody(count: 3_000, seed: 4)
        let limits = Limits(maxFrameSize: 128)
        let frames = try Fragmenter(limits: limits).frames(typeID: 6, messageID: 8, body: body)
        var fromBytes = Reassembler<String>(limits: limits)
        var messages: [Frame] = []
        for frame in frames.reversed() + [frames[3]] {
            if let message = try fromBytes.receive(frameBytes: frame, from: "alice").message { messages.append(message) }
        }
        #expect(messages == [Frame(kind: .data, typeID: 6, body: body)])
        #expect(fromBytes.metrics.lateFragments == 1)
        let whole = try FrameEncoder().encode(Frame(kind: .data, typeID: 2, body: [7, 7]))
        #expect(try fromBytes.receive(frameBytes: whole, from: "alice").message == Frame(kind: .data, typeID: 2, body: [7, 7]))
    }

    @Test func aCorruptFrameIsAnErrorAndChangesNoMessage() throws {
        let limits = Limits(maxFrameSize: 128)
        let frames = try Fragmenter(limits: limits).frames(typeID: 6, messageID: 8, body: patternedBody(count: 1_000))
        var reassembler = Reassembler<String>(limits: limits)
        _ = try reassembler.receive(frameBytes: frames[0], from: "alice")
        var corrupt = frames[1]
        corrupt[corrupt.count - 10] ^= 0x40
        let error = try #require(throws: WireError.self) { try reassembler.receive(frameBytes: corrupt, from: "alice") }
        #expect(error.kind == .checksumMismatch)
        #expect(reassembler.partialMessageCount == 1)
        var completed: Frame?
        for frame in frames.dropFirst() {
            completed = try reassembler.receive(frameBytes: frame, from: "alice").message ?? completed
        }
        #expect(completed?.body == patternedBody(count: 1_000))
    }
}
