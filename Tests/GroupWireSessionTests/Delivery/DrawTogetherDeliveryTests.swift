import Foundation
import GroupWire
import GroupWireExamples
import GroupWireTesting
import Synchronization
import Testing

@testable import GroupWireSession

/// One participant's DrawTogether canvas: the strokes it received (who sent which), the
/// snapshot it keeps (the app's rule: only one with more points than it has), and the
/// late-joiner helper that sends its own snapshot to newcomers.
final class ProofCanvas: Sendable {
    struct Received: Hashable, Sendable {
        let source: ParticipantID
        let index: Int
    }

    private final class Storage: Sendable {
        let received = Mutex<[Received]>([])
        let loadedPoints = Mutex<UInt64>(0)
        let snapshotsCompressed = Mutex<[Bool]>([])
    }

    private let storage = Storage()
    private let tasks: [Task<Void, Never>]
    let catchUp: CatchUp<CanvasSnapshot>

    /// Listens on `session`; `drawn` is the canvas this participant offers newcomers.
    init(session: SharedSession<DrawActivity>, drawn: CanvasSnapshot?) throws {
        let storage = storage
        let strokes = try session.messenger.messages(of: UpsertStroke.self)
        catchUp = try CatchUp(
            session: session, makeSnapshot: { drawn },
            replaces: { snapshot in
                snapshot.pointCount > storage.loadedPoints.withLock { $0 }
            })
        let snapshots = catchUp.snapshots
        tasks = [
            Task {
                for await (stroke, context) in strokes {
                    storage.received.withLock { $0.append(Received(source: context.source, index: Int(stroke.point.x))) }
                }
            },
            Task {
                for await (snapshot, context) in snapshots {
                    storage.loadedPoints.withLock { $0 = max($0, snapshot.pointCount) }
                    storage.snapshotsCompressed.withLock { $0.append(context.wasCompressed) }
                }
            },
        ]
    }

    deinit {
        for task in tasks { task.cancel() }
        catchUp.stop()
    }

    var received: [Received] { storage.received.withLock { $0 } }
    var loadedPoints: UInt64 { storage.loadedPoints.withLock { $0 } }
    var snapshotsCompressed: [Bool] { storage.snapshotsCompressed.withLock { $0 } }

    /// The indices received from `source`, in arrival order.
    func indices(from source: ParticipantID) -> [Int] {
        received.filter { $0.source == source }.map(\.index)
    }
}

/// The proof: DrawTogether end to end over the seeded fault-injecting hub, every
/// participant behind a delivery layer.
@Suite struct DrawTogetherDeliveryTests {
    /// Loss, duplicates, reordering and delay, decided by content so a run replays.
    static var plan: FaultPlan {
        var plan = FaultPlan.unreliable(seed: 0xD7A3, drop: 0.1, duplicate: 0.05, reorder: 0.1)
        plan.keyedByContent = true
        return plan
    }

    /// What a run produced: for each participant, the stroke indices it received from each
    /// other participant in arrival order, and the points of the snapshot it kept.
    struct Transcript: Equatable, CustomStringConvertible {
        var strokes: [[ParticipantID: [Int]]] = []
        var keptPoints: [UInt64] = []
        var retransmitted = 0
        var snapshotsCompressed: [Bool] = []
        /// For each participant: whom its CatchUp sent a snapshot, and how many snapshots it kept.
        var snapshotsSentTo: [[ParticipantID]] = []
        var snapshotsKept: [Int] = []
        var description: String { "strokes \(strokes), kept \(keptPoints)" }
    }

    func stroke(_ index: Int, by participant: Int) -> UpsertStroke {
        UpsertStroke(
            id: UUID(uuid: (UInt8(participant), 0, 0, 0, 0, 0, 0x40, 0, 0x80, 0, 0, 0, 0, 0, 0, 0)),
            color: .blue, point: Point(x: Double(index), y: Double(participant)))
    }

    /// Three participants draw; a fourth joins late and catches up with a compressed,
    /// fragmented snapshot and draws too; the third leaves; the first draws again.
    func run(mode: DeliveryMode) async throws -> Transcript {
        var party = try await Party.make(count: 3, plan: Self.plan, delivery: true)
        try await party.settle { party.coordinators.allSatisfy { $0.stateObserver.isEligibleForGroupSession } }
        try party.coordinators[0].activate(DrawActivity(canvas: "proof"))
        var sessions = try await party.nextSessions()
        for session in sessions { try session.join() }
        try await party.settle { sessions.allSatisfy { $0.activeParticipants.count == 3 } }
        // Participant n offers a canvas of 60 + 5n strokes of 200 points: over 64 KiB even
        // compressed, so the snapshot travels compressed in several fragments.
        var canvases = try sessions.indices.map { index in
            try ProofCanvas(session: sessions[index], drawn: largeSnapshot(strokes: 65 + 5 * index, seed: UInt64(index)))
        }
        let hub = party.hub
        func pause(_ duration: Duration) async throws {
            let end = hub.elapsed + duration
            try await party.settle { hub.elapsed >= end }
        }

        for participant in 0..<3 {
            for index in 0..<20 {
                try await sessions[participant].messenger(deliveryMode: mode).send(stroke(index, by: participant))
            }
        }
        if mode == .reliable {
            try await party.settle { canvases.allSatisfy { $0.received.count == 40 } }
        } else {
            try await pause(.seconds(1))
        }

        // A late joiner: it hears of the session, joins, and the others send it snapshots.
        try await party.add()
        let inbox = party.inboxes[3]
        try await party.settle { !inbox.sessions.isEmpty }
        let late = try #require(inbox.sessions.first)
        try late.join()
        sessions.append(late)
        canvases.append(try ProofCanvas(session: late, drawn: nil))
        try await party.settle { sessions.allSatisfy { $0.activeParticipants.count == 4 } }
        let newcomer = canvases[3]
        try await party.settle { newcomer.loadedPoints == 75 * 200 && newcomer.snapshotsCompressed.count >= 1 }
        for index in 0..<10 {
            try await late.messenger(deliveryMode: mode).send(stroke(index, by: 3))
        }
        if mode == .reliable {
            try await party.settle { canvases[0...2].allSatisfy { $0.indices(from: party.ids[3]).count == 10 } }
        } else {
            try await pause(.seconds(1))
        }

        // The third leaves; what the first draws afterwards reaches only those still in.
        try sessions[2].leave()
        try await party.settle { [0, 1, 3].allSatisfy { sessions[$0].activeParticipants.count == 3 } }
        for index in 20..<25 {
            try await sessions[0].messenger(deliveryMode: mode).send(stroke(index, by: 0))
        }
        if mode == .reliable {
            // The hub's settling waits for the layers, not for the apps behind them: a
            // newcomer still decoding a late snapshot reads these strokes later in simulated time.
            try await party.settle { [1, 3].allSatisfy { canvases[$0].indices(from: party.ids[0]).contains(24) } }
        }
        try await pause(.seconds(1))

        var transcript = Transcript()
        for canvas in canvases {
            var bySource: [ParticipantID: [Int]] = [:]
            for entry in canvas.received { bySource[entry.source, default: []].append(entry.index) }
            transcript.strokes.append(bySource)
            transcript.keptPoints.append(canvas.loadedPoints)
            transcript.snapshotsSentTo.append(canvas.catchUp.snapshotsSent)
            transcript.snapshotsKept.append(canvas.snapshotsCompressed.count)
        }
        transcript.retransmitted = party.transports.reduce(0) { $0 + $1.statistics.retransmitted }
        transcript.snapshotsCompressed = newcomer.snapshotsCompressed
        canvases.removeAll()
        return transcript
    }

    /// What each participant should receive from each other one in reliable mode.
    func expected(_ ids: [ParticipantID]) -> [[ParticipantID: [Int]]] {
        [
            [ids[1]: Array(0..<20), ids[2]: Array(0..<20), ids[3]: Array(0..<10)],
            [ids[0]: Array(0..<20) + Array(20..<25), ids[2]: Array(0..<20), ids[3]: Array(0..<10)],
            [ids[0]: Array(0..<20), ids[1]: Array(0..<20), ids[3]: Array(0..<10)],
            [ids[0]: Array(20..<25)],
        ]
    }

    var ids: [ParticipantID] { (1...4).map { ParticipantID.numbered(UInt64($0)) } }

    @Test func reliableModeDeliversEveryStrokeExactlyOnceInOrderAndTheSameSeedReplays() async throws {
        let first = try await run(mode: .reliable)
        #expect(first.strokes == expected(ids))
        #expect(first.keptPoints[3] == 75 * 200, "the newcomer keeps the snapshot with the most points")
        #expect(!first.snapshotsCompressed.isEmpty && first.snapshotsCompressed.allSatisfy { $0 })
        #expect(first.retransmitted > 0, "the hub lost frames and the layer sent them again")
        // Snapshots went to the newcomer only: each earlier participant sent one, to it.
        #expect(first.snapshotsSentTo == [[ids[3]], [ids[3]], [ids[3]], []])
        #expect(first.snapshotsKept[0...2] == [0, 0, 0])
        let second = try await run(mode: .reliable)
        #expect(second.strokes == first.strokes && second.keptPoints == first.keptPoints)
    }

    @Test func unreliableModeDeliversASubsetWithoutDuplicatesWhileControlAndSnapshotsStayReliable() async throws {
        let first = try await run(mode: .unreliable)
        let expected = expected(ids)
        var received = 0
        var sent = 0
        for (receiver, bySource) in first.strokes.enumerated() {
            #expect(Set(bySource.keys).isSubset(of: Set(expected[receiver].keys)))
            for (source, indices) in bySource {
                #expect(Set(indices).count == indices.count, "no stroke twice")
                #expect(Set(indices).isSubset(of: Set(expected[receiver][source] ?? [])))
            }
            received += bySource.values.reduce(0) { $0 + $1.count }
            sent += expected[receiver].values.reduce(0) { $0 + $1.count }
        }
        #expect(received < sent, "the hub lost some strokes and nothing sent them again")
        #expect(received > sent / 2)
        // Session control (the late join, the leave) and the snapshot went reliably.
        #expect(first.keptPoints[3] == 75 * 200)
        let second = try await run(mode: .unreliable)
        #expect(second.strokes == first.strokes, "the same seed loses the same strokes")
    }
}
