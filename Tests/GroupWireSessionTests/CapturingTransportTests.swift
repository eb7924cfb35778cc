import Foundation
import GroupWire
import GroupWireCapture
import GroupWireExamples
import GroupWireSession
import GroupWireTestSupport
import GroupWireTesting
import Testing

/// The capture hook on the transport layer: what a messenger sends and receives through a
/// `CapturingTransport` is in the capture files, byte for byte, with direction and peers.
@Suite struct CapturingTransportTests {
    @Test func messengersOverCapturingTransportsRecordBothSides() async throws {
        let folder = try RepositoryPaths.temporaryDirectory(prefix: "groupwire-capture")
        defer { try? FileManager.default.removeItem(at: folder) }
        let clock = VirtualClock()
        let hub = InProcessHub(clock: clock)
        let ids = [ParticipantID.numbered(1), ParticipantID.numbered(2), ParticipantID.numbered(3)]
        var writers: [CaptureWriter] = []
        var messengers: [Messenger] = []
        for (index, id) in ids.enumerated() {
            let writer = try CaptureWriter(path: folder.appendingPathComponent("p\(index).pcapng").path)
            writers.append(writer)
            let transport = CapturingTransport(over: try await hub.join(id), writer: writer)
            messengers.append(Messenger(transport: transport, configuration: MessengerConfiguration(clock: clock.reassemblyClock)))
        }
        let strokes = try messengers[1].messages(of: UpsertStroke.self)
        let stroke = UpsertStroke(id: UUID(), color: .green, point: Point(x: 1, y: 2))
        try await messengers[0].send(stroke)
        try await messengers[0].send(stroke, to: .only([ids[1]]))
        await hub.runUntilIdle()
        await hub.close()
        let got = await collect(strokes)
        #expect(got.count == 2)
        for writer in writers { writer.close() }

        func records(_ index: Int) throws -> [CaptureRecord] {
            let stream = try FrameFileStream(path: writers[index].path)
            var all: [CaptureRecord] = []
            while let event = try stream.next() {
                #expect(event.event.frame != nil)
                if let record = event.packet?.record { all.append(record) }
            }
            return all
        }
        let sent = try records(0)
        #expect(sent.map(\.direction) == [.sent, .sent])
        #expect(sent.allSatisfy { $0.local == ids[0].uuid })
        #expect(sent.map(\.peer) == [nil, ids[1].uuid], "to everyone, then to bob alone")
        let received = try records(1)
        #expect(received.map(\.direction) == [.received, .received])
        #expect(received.allSatisfy { $0.local == ids[1].uuid && $0.peer == ids[0].uuid })
        #expect(received.map(\.frame) == sent.map(\.frame), "the same bytes on both sides")
        #expect(try records(2).map(\.frame) == [sent[0].frame], "carol got the message to everyone only")
        #expect(try FrameDecoder().decode(sent[0].frame).typeID == UInt64(UpsertStroke.wireTypeID))
        #expect(received.allSatisfy { $0.timestamp >= sent[0].timestamp })
    }
}
