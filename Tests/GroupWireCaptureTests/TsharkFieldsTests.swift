import Foundation
import GroupWire
import GroupWireTestSupport
import Testing

@testable import GroupWireCapture

/// tshark's `-T fields -e [tcp.stream] -e data.data` output of relay traffic, read as frames.
@Suite struct TsharkFieldsTests {
    static let ana = UUID("00000000-0000-4000-8000-0000000000A1")

    static func deliver(_ frame: [UInt8], from source: UUID = ana) -> String {
        Hex.string([0x02] + withUnsafeBytes(of: source.uuid) { Array($0) } + frame)
    }

    static func read(_ text: String) -> (events: [FrameFileEvent], error: FrameFileError?, stream: FrameFileStream) {
        let stream = FrameFileStream(bytes: Array(text.utf8), path: "fields.txt")
        var events: [FrameFileEvent] = []
        do throws(FrameFileError) {
            while let event = try stream.next() { events.append(event) }
            return (events, nil, stream)
        } catch {
            return (events, error, stream)
        }
    }

    @Test func deliveriesBecomeFramesWithTheirSourceAndCopiesCountOnce() throws {
        let one = try FrameEncoder().encode(Frame(typeID: 1, body: [0x08, 0x01]))
        let two = try FrameEncoder().encode(Frame(typeID: 1, body: [0x08, 0x02]))
        let send = Hex.string([0x01] + one)
        let joined = Hex.string([0x11] + Array(repeating: 7, count: 16) + [3, 0x62, 0x65, 0x6E])
        // A send, its two deliveries (one per receiver) in one segment, a membership message, then another frame.
        let text = "\(send)\n\(Self.deliver(one)),\(Self.deliver(one))\n\(joined)\n\n\(Self.deliver(two))\n"
        #expect(FrameFileFormat.detect(Array(text.utf8)) == .tsharkFields)
        let (events, error, stream) = Self.read(text)
        #expect(error == nil)
        #expect(events.map { $0.event.frame?.body } == [[0x08, 0x01], [0x08, 0x02]])
        #expect(events.allSatisfy { $0.packet?.record?.peer == Self.ana && $0.packet?.record?.direction == .received })
        #expect(events.map { $0.packet?.number } == [1, 2])
        #expect(stream.skippedRelayMessages == (messages: 2, copies: 1))
        // Offsets count decoded message bytes, as for hex dumps: the second delivery's frame
        // follows the send, two deliveries and the membership message.
        let sendLength = 1 + one.count, deliverLength = 17 + one.count, joinedLength = 21
        #expect(events[1].event.offset == sendLength + 2 * deliverLength + joinedLength + 17)
    }

    @Test func withTheStreamColumnEachReceiverCountsAndEmptySegmentsAreSkipped() throws {
        let one = try FrameEncoder().encode(Frame(typeID: 1, body: [0x08, 0x01]))
        let text = "0\t\n3\t\(Self.deliver(one))\n4\t\(Self.deliver(one))\n"
        #expect(FrameFileFormat.detect(Array(text.utf8)) == .tsharkFields)
        let (events, error, _) = Self.read(text)
        #expect(error == nil)
        #expect(events.count == 2)
        #expect(
            events.map { $0.packet?.record?.local } == [
                TsharkFieldsReader.streamParticipant(3), TsharkFieldsReader.streamParticipant(4),
            ])
    }

    @Test func aBadDigitNamesItsLineAndColumnAfterTheFramesBefore() throws {
        let one = try FrameEncoder().encode(Frame(typeID: 1, body: [0x08, 0x01]))
        let good = Self.deliver(one)
        let text = "\(good)\n\(good),02zz\n"
        let (events, error, _) = Self.read(text)
        #expect(events.count == 1, "the copy in line 2 is skipped before the bad message")
        #expect(error?.kind == .badHexDigit)
        #expect(error?.line == 2 && error?.column == good.count + 4)
        #expect(error?.description == "fields.txt:2:\(good.count + 4): error: 'z' is not a hex digit")
        let odd = Self.read("\(good)\n021\n")
        #expect(odd.error?.kind == .oddHexDigits && odd.error?.line == 2)
    }

    @Test func aHexDumpOfFramesIsStillAHexDump() {
        #expect(FrameFileFormat.detect(Array("c7 01 09 00 01 2a\n".utf8)) == .hex)
        #expect(FrameFileFormat.detect(Array("c701090001\n".utf8)) == .hex)
        #expect(FrameFileFormat.detect(Array("# comment\n02aabb,02ccdd\n".utf8)) == .tsharkFields)
    }
}
