import Testing

@testable import GroupWire

/// The session header (flag 0x20, Spec/FORMAT.md "Sessions"): written and read on every
/// kind, carried through fragmentation and reassembly, and checked like the other headers.
@Suite struct SessionHeaderTests {
    @Test func everyKindRoundTripsWithASessionHeaderBetweenKindAndCompressionHeaders() throws {
        let frames = [
            Frame(kind: .data, typeID: 1, session: 7, body: [1, 2, 3]),
            Frame(kind: .control, typeID: 3, session: 1, body: []),
            Frame(
                kind: .data, typeID: 2, compression: CompressionInfo(codec: 1, dictionaryID: 0, contentSize: 9),
                session: .max, body: [0x28, 0xB5, 0x2F, 0xFD]),
            Frame(
                kind: .fragment, typeID: 2, fragment: FragmentInfo(messageID: 5, index: 0, count: 2, totalLength: 4, offset: 0),
                session: 300, body: [0, 1]),
        ]
        for frame in frames {
            let bytes = try FrameEncoder().encode(frame)
            #expect(bytes[3] & 0x20 == 0x20)
            #expect(try FrameDecoder().decode(bytes) == frame)
            #expect(
                bytes.count
                    == FrameEncoder.frameSize(
                        typeID: frame.typeID, compression: frame.compression,
                        fragment: frame.fragment, session: frame.session, bodyCount: frame.body.count))
            let (header, range) = try FrameDecoder().decodeBorrowingBody(bytes)
            #expect(header.session == frame.session)
            #expect(Array(bytes[range]) == frame.body)
        }
    }

    @Test func aFrameWithoutASessionIsByteForByteWhatItWasBefore() throws {
        let plain = try FrameEncoder().encode(Frame(typeID: 1, body: [0x2A]))
        #expect(plain[3] == 0x00)
        #expect(try FrameDecoder().decode(plain).session == nil)
    }

    @Test func sessionIdZeroIsRefusedByTheEncoder() {
        #expect {
            try FrameEncoder().encode(Frame(typeID: 1, session: 0, body: []))
        } throws: { ($0 as? WireError)?.kind == .invalidValue }
    }

    @Test func everyFragmentOfAMessageCarriesItsSessionAndTheReassembledMessageToo() throws {
        let body = patternedBody(count: 300)
        let limits = Limits(maxFrameSize: 64)
        let frames = try Fragmenter(limits: limits).frames(typeID: 9, messageID: 4, session: 12, body: body)
        #expect(frames.count > 2)
        #expect(frames.allSatisfy { $0.count <= 64 })
        var reassembler = Reassembler<String>(limits: limits)
        var completed: [Frame] = []
        for bytes in frames {
            let frame = try FrameDecoder(limits: limits).decode(bytes)
            #expect(frame.session == 12)
            if let message = reassembler.receive(frame, from: "alice").message { completed.append(message) }
        }
        #expect(completed == [Frame(kind: .data, typeID: 9, session: 12, body: body)])
    }

    @Test func aFragmentNamingAnotherSessionDropsTheMessageAsAConflict() throws {
        let body = patternedBody(count: 200)
        let limits = Limits(maxFrameSize: 64)
        let frames = try Fragmenter(limits: limits).frames(typeID: 9, messageID: 4, session: 12, body: body)
            .map { try FrameDecoder(limits: limits).decode($0) }
        var other = frames[1]
        other.session = 13
        var reassembler = Reassembler<String>(limits: limits)
        _ = reassembler.receive(frames[0], from: "alice")
        let result = reassembler.receive(other, from: "alice")
        #expect(result.drops.map(\.reason) == [.conflict])
        #expect(result.drops.first?.detail.contains("session") == true)
        #expect(reassembler.partialMessageCount == 0)
    }
}
