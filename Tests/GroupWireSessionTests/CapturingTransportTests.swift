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
            let transport = try await hub.join(id).capturing(to: writer)
            messengers.append(
                Messenger(transport: transport, configuration: MessengerConfiguration(clock: clock.reassemblyClock)))
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

    @Test func aTransportCapturingBeneathTheDeliveryLayerRecordsItsHeadersAndAcknowledgements() async throws {
        let folder = try RepositoryPaths.temporaryDirectory(prefix: "groupwire-capture")
        defer { try? FileManager.default.removeItem(at: folder) }
        let hub = InProcessHub(plan: .unreliable(seed: 3, delay: .milliseconds(1) ... .milliseconds(1)), clock: VirtualClock())
        let writer = try CaptureWriter(path: folder.appendingPathComponent("sender.pcapng").path)
        let sending = DeliveryTransport(
            over: try await hub.join(.numbered(1)).capturing(to: writer), configuration: .simulated(seed: 1))
        let sender = Messenger(transport: sending)
        let receiver = Messenger(
            transport: DeliveryTransport(over: try await hub.join(.numbered(2)), configuration: .simulated(seed: 2)))
        let strokes = try receiver.messages(of: UpsertStroke.self)
        try await eventually("the sender to see the receiver") { sender.reachableParticipants.contains(.numbered(2)) }
        try await sender.send(UpsertStroke(id: UUID(), color: .green, point: Point(x: 1, y: 2)))
        // Until the stroke is acknowledged (nothing kept for the receiver any more), in
        // virtual time: at most 5 s of it, far past the acknowledgement delay.
        for _ in 0..<1000 where sending.statistics.bufferedBytes > 0 || receiver.statistics.messagesDelivered == 0 {
            try await hub.step(by: .milliseconds(5))
        }
        #expect(sending.statistics.bufferedBytes == 0 && receiver.statistics.messagesDelivered == 1)
        await hub.close()
        #expect(await collect(strokes).count == 1)
        writer.close()
        let stream = try FrameFileStream(path: writer.path)
        var records: [CaptureRecord] = []
        while let event = try stream.next() {
            if let record = event.packet?.record { records.append(record) }
        }
        let sent = records.filter { $0.direction == .sent }.map { try? DeliveryFraming.peek($0.frame) }
        #expect(sent.count == 1 && sent.first??.delivery?.sequence == 1, "the stroke, with its delivery header as it travelled")
        let acknowledgements = try records.filter { $0.direction == .received }.map { try FrameDecoder().decode($0.frame) }
            .filter { $0.kind == .control && $0.typeID == 32 }
        #expect(acknowledgements.count >= 1, "the receiver's acknowledgement (control id 32) as it arrived")
    }
}
