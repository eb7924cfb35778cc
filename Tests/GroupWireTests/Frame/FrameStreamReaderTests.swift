import GroupWireTesting
import Testing

@testable import GroupWire

@Suite struct FrameStreamReaderTests {
    /// A stream of good frames with every kind of bad run between them.
    static func mixedStream() throws -> (bytes: [UInt8], goodFrames: [Frame]) {
        let encoder = FrameEncoder()
        let frames = [
            Frame(typeID: 1, body: Array("first".utf8)),
            Frame(kind: .control, typeID: 2, body: []),
            Frame(typeID: 3, body: [UInt8](repeating: 0x5A, count: 300)),
            Frame(
                kind: .fragment, typeID: 4, fragment: FragmentInfo(messageID: 9, index: 1, count: 2, totalLength: 10, offset: 5),
                body: [1, 2, 3, 4, 5]),
            Frame(typeID: 5, compression: CompressionInfo(contentSize: 99), body: [0x28, 0xB5]),
        ]
        var corrupted = try encoder.encode(Frame(typeID: 8, body: [1, 2, 3]))
        corrupted[6] ^= 0xFF
        var version2 = try encoder.encode(Frame(typeID: 8, body: [4]))
        version2[1] = 2
        let crc = CRC32C.checksum(version2, range: 0..<(version2.count - 4))
        version2.replaceSubrange(
            (version2.count - 4)..., with: [UInt8(crc & 0xFF), UInt8(crc >> 8 & 0xFF), UInt8(crc >> 16 & 0xFF), UInt8(crc >> 24)])
        var stream: [UInt8] = [0x00, 0x11, 0x22]  // garbage before the first frame
        stream += try encoder.encode(frames[0])
        stream += corrupted
        stream += try encoder.encode(frames[1])
        stream += version2
        stream += try encoder.encode(frames[2])
        stream += [0xC7, 0x01, 0x02]  // a magic byte with an impossible length
        stream += try encoder.encode(frames[3])
        stream += try encoder.encode(frames[4])
        return (stream, frames)
    }

    static func events(feeding bytes: [UInt8], chunks: [Int]) -> [FrameStreamEvent] {
        var reader = FrameStreamReader()
        var events: [FrameStreamEvent] = []
        var position = 0
        for size in chunks {
            reader.append(bytes[position..<(position + size)])
            position += size
            while let event = reader.nextEvent() {
                events.append(event)
            }
        }
        reader.finish()
        while let event = reader.nextEvent() {
            events.append(event)
        }
        return events
    }

    @Test func allGoodFramesSurviveTheBadRunsBetweenThem() throws {
        let (stream, good) = try Self.mixedStream()
        let events = Self.events(feeding: stream, chunks: [stream.count])
        #expect(events.compactMap(\.frame) == good)
        #expect(events.compactMap(\.error?.kind) == [.badMagic, .checksumMismatch, .unsupportedVersion, .frameTooSmall])
        #expect(events.first?.offset == 0)
        #expect(events.first?.length == 3)
        #expect(events.map(\.length).reduce(0, +) == stream.count)
    }

    @Test func feedingByteByByteGivesTheSameEventsAsAllAtOnce() throws {
        let (stream, _) = try Self.mixedStream()
        let whole = Self.events(feeding: stream, chunks: [stream.count])
        let single = Self.events(feeding: stream, chunks: Array(repeating: 1, count: stream.count))
        #expect(single == whole)
    }

    @Test(arguments: 1...20)
    func feedingInRandomSplitsGivesTheSameEventsAsAllAtOnce(seed: Int) throws {
        let (stream, _) = try Self.mixedStream()
        var generator = SeededRandom(seed: UInt64(seed))
        var chunks: [Int] = []
        var left = stream.count
        while left > 0 {
            let size = min(left, Int.random(in: 1...97, using: &generator))
            chunks.append(size)
            left -= size
        }
        #expect(Self.events(feeding: stream, chunks: chunks) == Self.events(feeding: stream, chunks: [stream.count]))
    }

    @Test func aStreamThatEndsInsideAFrameReportsTheLeftoverAsTruncatedAtTheFramesStart() throws {
        let frame = try FrameEncoder().encode(Frame(typeID: 1, body: [1, 2, 3]))
        var reader = FrameStreamReader()
        reader.append(frame + frame.prefix(6))
        #expect(reader.nextEvent()?.frame == Frame(typeID: 1, body: [1, 2, 3]))
        #expect(reader.nextEvent() == nil)
        #expect(reader.bufferedByteCount == 6)
        reader.finish()
        let next = reader.nextEvent()
        let last = try #require(next)
        #expect(last.error?.kind == .truncated)
        #expect(last.offset == frame.count)
        #expect(last.length == 6)
        #expect(last.error?.offset == frame.count)
        #expect(reader.nextEvent() == nil)
    }

    @Test func theBufferStaysBoundedAcrossManyFrames() throws {
        let frame = try FrameEncoder().encode(Frame(typeID: 1, body: [UInt8](repeating: 1, count: 1_000)))
        var reader = FrameStreamReader()
        var seen = 0
        for _ in 0..<500 {
            reader.append(frame)
            while reader.nextEvent()?.frame != nil { seen += 1 }
            #expect(reader.bufferedByteCount == 0)
        }
        #expect(seen == 500)
    }

    @Test func decodeAllReportsEveryFrameAndErrorInOrder() throws {
        let (stream, good) = try Self.mixedStream()
        let events = FrameDecoder().decodeAll(stream)
        #expect(events.compactMap(\.frame) == good)
        #expect(events.count == good.count + 4)
    }
}
