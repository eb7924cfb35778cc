import GroupWireTesting
import Testing

@testable import GroupWire

/// A length that its checksum has not confirmed is never used to skip: junk in front of a
/// valid frame, a damaged frame, or a candidate cut off by the end of the stream never
/// costs a valid frame (Spec/FORMAT.md, "Reading a stream").
@Suite struct FrameStreamRecoveryTests {
    static let encoder = FrameEncoder()

    static func events(_ bytes: [UInt8], chunks sizes: [Int]) -> [FrameStreamEvent] {
        var chunks: [ArraySlice<UInt8>] = []
        var position = 0
        for size in sizes {
            chunks.append(bytes[position..<(position + size)])
            position += size
        }
        return FrameDecoder().decodeAll(chunks: chunks)
    }

    @Test func threeStrayBytesThatLookLikeAFrameStartDoNotSwallowTheFrameAfterThem() throws {
        let first = try Self.encoder.encode(Frame(typeID: 1, body: Array("first".utf8)))
        let second = try Self.encoder.encode(Frame(typeID: 2, body: [UInt8](repeating: 7, count: 60)))
        let stream = first + [0xC7, 0x01, 0x30] + second
        let events = FrameDecoder().decodeAll(stream)
        #expect(events.compactMap(\.frame?.typeID) == [1, 2])
        #expect(events.map(\.offset) == [0, first.count, first.count + 3])
        // The stray candidate claims 48 bytes; they run into the second frame, so the
        // checksum fails, and only the candidate's three bytes are passed over.
        #expect(events[1].error?.kind == .checksumMismatch)
        #expect(events[1].length == 3)
        #expect(events[1].error?.offset == first.count + 3 + 48 - 4)
    }

    @Test func aCandidateThatRunsPastTheEndDoesNotSwallowTheFramesInsideIt() throws {
        let frame = try Self.encoder.encode(Frame(typeID: 5, body: [1, 2, 3]))
        let stream = [0xC7, 0x01, 0x7F] + frame + frame
        for sizes in [[stream.count], Array(repeating: 1, count: stream.count)] {
            let events = Self.events(stream, chunks: sizes)
            #expect(events.map { $0.error?.kind } == [.truncated, nil, nil])
            #expect(events.map(\.offset) == [0, 3, 3 + frame.count])
            #expect(events[0].length == 3)
            #expect(events[0].error?.offset == 0)
        }
    }

    @Test func aDamagedFrameIsReportedOnceAndTheFramesAroundItSurvive() throws {
        let good = try Self.encoder.encode(Frame(typeID: 3, body: [9, 9]))
        var damaged = try Self.encoder.encode(Frame(typeID: 4, body: [0xC7, 0x01, 0x05, 0x00, 0x01]))
        damaged[4] ^= 0x01
        let events = FrameDecoder().decodeAll(good + damaged + good)
        #expect(events.compactMap(\.frame?.typeID) == [3, 3])
        // The damaged frame's body holds a magic byte: the candidate there is read too.
        #expect(events.map { $0.error?.kind } == [nil, .checksumMismatch, .checksumMismatch, nil])
        #expect(events.map(\.offset) == [0, good.count, good.count + 5, good.count + damaged.count])
        #expect(events.map(\.length).reduce(0, +) == 2 * good.count + damaged.count)
    }

    @Test func anErrorFoundAfterTheChecksumPassedSkipsTheWholeFrame() throws {
        // A version 2 frame whose body holds a valid version 1 frame: the outer checksum
        // confirms the outer length, so the inner frame is body, not a frame.
        let inner = try Self.encoder.encode(Frame(typeID: 6, body: []))
        var outer = try Self.encoder.encode(Frame(typeID: 7, body: inner))
        outer[1] = 2
        let crc = CRC32C.checksum(outer, range: 0..<(outer.count - 4))
        outer.replaceSubrange((outer.count - 4)..., with: withUnsafeBytes(of: crc.littleEndian, Array.init))
        let events = FrameDecoder().decodeAll(outer + inner)
        #expect(events.map { $0.error?.kind } == [.unsupportedVersion, nil])
        #expect(events.map(\.length) == [outer.count, inner.count])
    }

    // MARK: Property: every intact frame is delivered once, in order, with its offset

    /// A stream of valid frames with junk between them, and where each valid frame starts.
    static func randomStream(seed: UInt64) throws -> (bytes: [UInt8], frames: [(offset: Int, frame: Frame)]) {
        var random = SeededRandom(seed: seed)
        var bytes: [UInt8] = []
        var frames: [(offset: Int, frame: Frame)] = []
        func randomFrame() -> Frame {
            let body = (0..<Int.random(in: 0...200, using: &random)).map { _ in
                // Bodies often hold magic bytes, so candidates start inside frames too.
                Bool.random(using: &random) ? 0xC7 : UInt8.random(in: 0...255, using: &random)
            }
            return Frame(
                kind: Bool.random(using: &random) ? .data : .control,
                typeID: UInt64.random(in: 1...300, using: &random), body: body)
        }
        for _ in 0..<40 {
            switch Int.random(in: 0..<6, using: &random) {
            case 0:  // a magic byte, a plausible version and a length that points past the next frame
                bytes += [0xC7, UInt8.random(in: 0...2, using: &random), UInt8.random(in: 5...127, using: &random)]
            case 1:  // a magic byte with a two-byte length
                bytes += [0xC7, 0x01, UInt8.random(in: 0x80...0xFF, using: &random), UInt8.random(in: 1...3, using: &random)]
            case 2:  // a frame cut short
                let whole = try encoder.encode(randomFrame())
                bytes += whole.prefix(Int.random(in: 1..<whole.count, using: &random))
            case 3:  // a frame with one bit flipped
                var whole = try encoder.encode(randomFrame())
                whole[Int.random(in: 0..<whole.count, using: &random)] ^= 1 << UInt8.random(in: 0...7, using: &random)
                bytes += whole
            case 4:  // random bytes
                bytes += (0..<Int.random(in: 1...20, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
            default:
                break
            }
            let frame = randomFrame()
            frames.append((bytes.count, frame))
            bytes += try encoder.encode(frame)
        }
        // The stream may end in junk too: a cut-off frame or a long candidate.
        bytes += [0xC7, 0x01, 0xFF, 0x01]
        return (bytes, frames)
    }

    @Test(arguments: 1...40)
    func everyIntactFrameIsDeliveredOnceInOrderWithItsOffsetHoweverTheStreamIsChunked(seed: Int) throws {
        let (stream, expected) = try Self.randomStream(seed: UInt64(seed))
        var random = SeededRandom(seed: UInt64(seed) &* 7919)
        var randomSizes: [Int] = []
        var left = stream.count
        while left > 0 {
            let size = min(left, Int.random(in: 1...300, using: &random))
            randomSizes.append(size)
            left -= size
        }
        let whole = Self.events(stream, chunks: [stream.count])
        for sizes in [[stream.count], Array(repeating: 1, count: stream.count), randomSizes] {
            let events = Self.events(stream, chunks: sizes)
            let delivered = events.compactMap { event in event.frame.map { (event.offset, $0) } }
            #expect(delivered.map(\.0) == expected.map(\.offset))
            #expect(delivered.map(\.1) == expected.map(\.frame))
            #expect(events == whole)
            // Every byte belongs to exactly one event.
            var end = 0
            for event in events {
                #expect(event.offset == end)
                end += event.length
            }
            #expect(end == stream.count)
        }
    }
}
