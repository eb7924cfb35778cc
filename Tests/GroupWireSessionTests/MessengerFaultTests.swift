import Foundation
import GroupWire
import GroupWireExamples
import GroupWireSession
import GroupWireTesting
import Testing

/// The messenger over a hub that drops, duplicates, reorders and delays, seeded.
@Suite struct MessengerFaultTests {
    /// What every receiver got, as (source, point.x) in arrival order, per receiver.
    private typealias Transcript = [[String]]

    /// Three participants; each sends `perSender` strokes (x = sender * 1000 + n) and one
    /// large snapshot, through a hub with `plan`; returns what each receiver got.
    private func run(plan: FaultPlan, perSender: Int = 40) async throws -> (strokes: Transcript, snapshots: [[CanvasSnapshot]]) {
        let group = try await Group.make(count: 3, plan: plan)
        let strokeStreams = try group.messengers.map { try $0.messages(of: UpsertStroke.self) }
        let snapshotStreams = try group.messengers.map { try $0.messages(of: CanvasSnapshot.self) }
        for n in 0..<perSender {
            for (index, messenger) in group.messengers.enumerated() {
                let x = Double((index + 1) * 1000 + n)
                try await messenger.send(
                    UpsertStroke(
                        id: UUID(uuid: (UInt8(index), 0, 0, 0, 0, 0, 0x40, 0, 0x80, 0, 0, 0, 0, 0, 0, 0)),
                        color: .blue, point: Point(x: x, y: 0)))
            }
            await group.hub.advance(by: .milliseconds(3))
        }
        try await group.messengers[0].send(largeSnapshot(strokes: 40))
        await group.settle()
        var strokes: Transcript = []
        for stream in strokeStreams {
            strokes.append(
                await collect(stream).map { "\($0.context.source.uuid.uuidString.suffix(2)):\(Int($0.message.point.x))" })
        }
        var snapshots: [[CanvasSnapshot]] = []
        for stream in snapshotStreams {
            snapshots.append(await collect(stream).map(\.message))
        }
        return (strokes, snapshots)
    }

    @Test("Over a reliable hub with delays every stroke arrives once, in each sender's order")
    func reliableWithDelay() async throws {
        let (strokes, snapshots) = try await run(plan: .reliable(seed: 3, delay: .milliseconds(1) ... .milliseconds(30)))
        for (receiver, got) in strokes.enumerated() {
            #expect(got.count == 80, "40 from each of the two others")
            for sender in 1...3 where sender != receiver + 1 {
                let xs = got.compactMap { Int($0.split(separator: ":")[1]) }.filter { $0 / 1000 == sender }
                #expect(xs == (0..<40).map { sender * 1000 + $0 })
            }
        }
        #expect(snapshots[0].isEmpty)
        #expect(snapshots[1] == [largeSnapshot(strokes: 40)])
        #expect(snapshots[2] == [largeSnapshot(strokes: 40)])
    }

    @Test("Under drops, duplicates and reordering what arrives is what was sent, never corrupted")
    func unreliable() async throws {
        let plan = FaultPlan.unreliable(seed: 42, drop: 0.2, duplicate: 0.1, reorder: 0.2)
        let (strokes, _) = try await run(plan: plan)
        for (receiver, got) in strokes.enumerated() {
            let sent = Swift.Set((1...3).filter { $0 != receiver + 1 }.flatMap { sender in (0..<40).map { sender * 1000 + $0 } })
            let xs = got.compactMap { Int($0.split(separator: ":")[1]) }
            #expect(Swift.Set(xs).isSubset(of: sent))
            #expect(xs.count < 80 + 20 && Swift.Set(xs).count < 80, "some were dropped")
            #expect(Swift.Set(xs).count > 40, "most arrived")
        }
    }

    @Test("Duplicated and reordered fragments still make exactly one snapshot")
    func fragmentsUnderDuplicationAndReordering() async throws {
        let plan = FaultPlan.unreliable(seed: 9, duplicate: 0.5, reorder: 0.5)
        let (_, snapshots) = try await run(plan: plan, perSender: 1)
        #expect(snapshots[1] == [largeSnapshot(strokes: 40)])
        #expect(snapshots[2] == [largeSnapshot(strokes: 40)])
    }

    @Test("The same seed replays the same deliveries to every receiver; another seed does not")
    func seedReplays() async throws {
        let plan = FaultPlan.unreliable(seed: 2_026, drop: 0.15, duplicate: 0.1, reorder: 0.3)
        let first = try await run(plan: plan)
        let second = try await run(plan: plan)
        #expect(first.strokes == second.strokes)
        #expect(first.snapshots == second.snapshots)
        var other = plan
        other.seed = 2_027
        let third = try await run(plan: other)
        #expect(third.strokes != first.strokes)
    }
}
