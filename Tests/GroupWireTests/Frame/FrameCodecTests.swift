import Testing

@testable import GroupWire

@Suite struct FrameCodecTests {
    @Test func aSmallDataFrameCostsFiveHeaderBytesPlusItsChecksum() throws {
        let frame = Frame(typeID: 1, body: [0xAA, 0xBB])
        let bytes = try FrameEncoder().encode(frame)
        #expect(bytes.count == 5 + 2 + 4)
        #expect(Array(bytes.prefix(5)) == [0xC7, 0x01, 0x08, 0x00, 0x01])
    }

    @Test(arguments: [0, 100, 20_000, 65_000])
    func theHeaderNeverExceedsEightBytesForTypeIDsUnder16384(bodyCount: Int) throws {
        let limits = Limits(maxFrameSize: 1 << 20)
        let frame = Frame(typeID: 16_383, body: [UInt8](repeating: 7, count: bodyCount))
        let bytes = try FrameEncoder(limits: limits).encode(frame)
        #expect(bytes.count - bodyCount - 4 <= 8)
        #expect(FrameEncoder.frameSize(typeID: 16_383, compression: nil, fragment: nil, bodyCount: bodyCount) == bytes.count)
        #expect(try FrameDecoder(limits: limits).decode(bytes) == frame)
    }

    @Test func theLargestDefaultFrameFitsSixtyFourKilobytesAndOneMoreByteDoesNot() throws {
        let overhead = FrameEncoder.frameSize(typeID: 1, compression: nil, fragment: nil, bodyCount: 0)
        let fits = Frame(typeID: 1, body: [UInt8](repeating: 1, count: 65_536 - overhead - 2))
        let bytes = try FrameEncoder().encode(fits)
        #expect(bytes.count == 65_536)
        #expect(try FrameDecoder().decode(bytes) == fits)
        let tooBig = Frame(typeID: 1, body: [UInt8](repeating: 1, count: 65_536 - overhead - 1))
        #expect(throws: WireError.self) { _ = try FrameEncoder().encode(tooBig) }
    }

    @Test func everyHeaderFieldRoundTrips() throws {
        let frame = Frame(
            kind: .fragment, typeID: 70_000,
            compression: CompressionInfo(dictionaryID: 4_000_000_000, contentSize: 12_345),
            fragment: FragmentInfo(messageID: UInt64.max, index: 2, count: 3, totalLength: 9_000, offset: 8_000),
            body: [1, 2, 3])
        let bytes = try FrameEncoder().encode(frame)
        #expect(try FrameDecoder().decode(bytes) == frame)
        #expect(bytes[bytes.startIndex + 3] == 0x12)  // kind fragment | compressed flag
    }

    @Test func theEncoderRefusesFramesTheDecoderWouldReject() {
        let encoder = FrameEncoder()
        #expect(throws: WireError.self) { _ = try encoder.encode(Frame(typeID: 0, body: [])) }
        #expect(throws: WireError.self) { _ = try encoder.encode(Frame(kind: FrameKind(rawValue: 3), typeID: 1, body: [])) }
        #expect(throws: WireError.self) { _ = try encoder.encode(Frame(kind: .fragment, typeID: 1, body: [])) }
        #expect(throws: WireError.self) {
            _ = try encoder.encode(
                Frame(typeID: 1, fragment: FragmentInfo(messageID: 1, index: 0, count: 2, totalLength: 4, offset: 0), body: []))
        }
        #expect(throws: WireError.self) {
            _ = try encoder.encode(
                Frame(
                    kind: .fragment, typeID: 1,
                    fragment: FragmentInfo(messageID: 1, index: 0, count: 2, totalLength: 2, offset: 0), body: [1, 2, 3]))
        }
    }

    @Test func everySingleBitFlipIsCaughtByTheChecksumOrAStructuralCheck() throws {
        let original = try FrameEncoder().encode(Frame(typeID: 5, body: Array("group wire".utf8)))
        for index in original.indices {
            for bit in 0..<8 {
                var corrupted = original
                corrupted[index] ^= 1 << bit
                #expect(throws: WireError.self) { _ = try FrameDecoder().decode(corrupted) }
            }
        }
    }

    @Test func aFrameOverASmallerConfiguredLimitIsRejectedWithTheLimitInTheMessage() throws {
        let bytes = try FrameEncoder().encode(Frame(typeID: 1, body: [UInt8](repeating: 0, count: 100)))
        do {
            _ = try FrameDecoder(limits: Limits(maxFrameSize: 64)).decode(bytes)
            Issue.record("expected frameTooLarge")
        } catch {
            #expect(error.kind == .frameTooLarge)
            #expect(error.offset == 2)
            #expect(error.context.contains("maxFrameSize 64"))
        }
    }
}
