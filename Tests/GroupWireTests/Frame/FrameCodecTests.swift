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

    /// A frame's header bytes (after the length) with a valid prelude and checksum around
    /// them and `body` after them.
    private func rawFrame(header: [UInt8], body: [UInt8]) -> [UInt8] {
        let length = header.count + body.count + 4
        precondition(length < 128)
        let covered = [Frame.magic, Frame.version, UInt8(length)] + header + body
        let crc = CRC32C.checksum(covered)
        return covered + [UInt8(crc & 0xFF), UInt8(crc >> 8 & 0xFF), UInt8(crc >> 16 & 0xFF), UInt8(crc >> 24)]
    }

    /// Data and control frames whose ids take a byte each are read without the general
    /// header reader; each one's fields, body and body range must be what the encoder wrote,
    /// whole, borrowed and in place, and the bytes just past that case must still be read
    /// (two-byte ids) or refused as before (ids of 0, no room for the session byte).
    @Test func headersWithOneByteIdsReadAsTheEncoderWroteThemAndTheirEdgesAsBefore() throws {
        let decoder = FrameDecoder()
        for kind in [FrameKind.data, .control] {
            for typeID: UInt64 in [1, 2, 127, 128, 300] {
                for session: UInt32? in [nil, 1, 127, 128, UInt32.max] {
                    for body in [[], [0xAB], [UInt8](0..<40)] {
                        let frame = Frame(kind: kind, typeID: typeID, session: session, body: body)
                        let bytes = try FrameEncoder().encode(frame)
                        #expect(try decoder.decode(bytes) == frame)
                        let (borrowed, range) = try decoder.decodeBorrowingBody(bytes)
                        #expect(borrowed.body.isEmpty && borrowed.typeID == typeID && borrowed.session == session)
                        #expect(Array(bytes[range]) == body)
                        #expect(range.upperBound == bytes.count - 4)
                        let padded = [0xEE, 0xEE, 0xEE] + bytes + [0xEE]
                        var inPlace = Frame(kind: .fragment, typeID: 9, body: [1])
                        let bodyRange = decoder.decodeInPlace(padded, in: 3..<(3 + bytes.count), into: &inPlace)
                        #expect(bodyRange == (range.lowerBound + 3)..<(range.upperBound + 3))
                        #expect(inPlace.kind == kind && inPlace.typeID == typeID && inPlace.session == session)
                        #expect(inPlace.body.isEmpty && inPlace.delivery == nil && inPlace.compression == nil)
                    }
                }
            }
        }
        // A type id byte of 0, refused at its offset (4: after magic, version, length, kind).
        for header: [UInt8] in [[0x00, 0x00], [0x20, 0x00, 0x05]] {
            do {
                _ = try decoder.decode(rawFrame(header: header, body: [1]))
                Issue.record("a type id of 0 was accepted")
            } catch {
                #expect(error.kind == .invalidTypeID)
                #expect(error.offset == 4)
            }
        }
        // A session id byte of 0.
        do {
            _ = try decoder.decode(rawFrame(header: [0x20, 0x01, 0x00], body: [9]))
            Issue.record("a session id of 0 was accepted")
        } catch {
            #expect(error.kind == .invalidValue)
            #expect(error.offset == 5)
        }
        // A session flag and a type id, but no byte left for the session id.
        do {
            _ = try decoder.decode(rawFrame(header: [0x20, 0x01], body: []))
            Issue.record("a frame without its session id was accepted")
        } catch {
            #expect(error.kind == .truncated)
        }
        // Reserved kinds and flags beside the session's.
        for kindByte: UInt8 in [0x03, 0x23, 0x80, 0xA0] {
            do {
                _ = try decoder.decode(rawFrame(header: [kindByte, 0x01, 0x01], body: []))
                Issue.record("kind byte \(kindByte) was accepted")
            } catch {
                #expect(error.kind == (kindByte & 0x0F == 3 ? .unknownKind : .unknownFlags))
                #expect(error.offset == 3)
            }
        }
    }
}
