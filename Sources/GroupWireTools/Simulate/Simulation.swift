import Foundation
import GroupWire
import GroupWireCapture
import GroupWireCompression
import GroupWireExamples
import GroupWireSession
import GroupWireTesting
import Synchronization

/// One run of ``SimulateTool`` in one delivery mode.
struct Simulation {
    let options: SimulateTool.Options
    let mode: DeliveryMode
    static let names = ["ana", "ben", "cleo", "dan"]

    /// One participant: its pipeline, its session and what it received.
    final class Member: Sendable {
        let id: ParticipantID
        let name: String
        let transport: DeliveryTransport
        let coordinator: SharedSessionCoordinator
        let sessions: AsyncStream<SharedSession<DrawTogetherActivity>>
        private let log = Mutex<(strokes: [(ParticipantID, Int)], kept: UInt64, snapshots: [(ParticipantID, UInt64, Bool)])>(
            ([], 0, []))
        private let tasks = Mutex<[Task<Void, Never>]>([])
        private let catchUp = Mutex<CatchUp<CanvasSnapshot>?>(nil)

        /// - Parameter run: which run of the process this is (each mode is one): the streams'
        /// incarnations differ between runs, as a real restart's random ones do, so that one
        /// capture of every run does not show a stream starting over.
        init(number: Int, hub: InProcessHub, run: UInt64) async throws {
            id = ParticipantID.numbered(UInt64(number))
            name = Simulation.names[number - 1]
            // GROUPWIRE_CAPTURE records each participant's frames beneath its delivery layer.
            transport = DeliveryTransport(
                over: CapturingTransport.fromEnvironment(try await hub.join(id)),
                configuration: .simulated(seed: run << 8 | UInt64(number)))
            let messenger = Messenger(
                transport: transport,
                configuration: MessengerConfiguration(
                    codec: try PayloadCompressor()))
            let next = Mutex(UInt32(number) * 1000)
            coordinator = SharedSessionCoordinator(
                messenger: messenger,
                sessionIDs: {
                    next.withLock {
                        $0 += 1; return $0
                    }
                })
            sessions = coordinator.sessions(for: DrawTogetherActivity.self)
        }

        /// Listens for strokes and snapshots in `session`, offering `drawn` to newcomers.
        func listen(in session: SharedSession<DrawTogetherActivity>, drawn: CanvasSnapshot?) throws {
            let strokes = try session.messenger.messages(of: UpsertStroke.self)
            let helper = try CatchUp(
                session: session, makeSnapshot: { drawn },
                replaces: { [self] snapshot in
                    // Decided and recorded at once: snapshots that arrive together would all
                    // beat a count the loading loop had not raised yet.
                    log.withLock { state in
                        guard snapshot.pointCount > state.kept else { return false }
                        state.kept = snapshot.pointCount
                        return true
                    }
                })
            catchUp.withLock { $0 = helper }
            let snapshots = helper.snapshots
            let strokesTask = Task { [self] in
                for await (stroke, context) in strokes { record(stroke: Int(stroke.point.x), from: context.source) }
            }
            let snapshotsTask = Task { [self] in
                for await (snapshot, context) in snapshots { record(snapshot: snapshot, context: context) }
            }
            tasks.withLock { $0 += [strokesTask, snapshotsTask] }
        }

        private func record(stroke index: Int, from source: ParticipantID) {
            log.withLock { $0.strokes.append((source, index)) }
        }

        private func record(snapshot: CanvasSnapshot, context: MessageContext) {
            log.withLock { state in
                state.snapshots.append((context.source, snapshot.pointCount, context.wasCompressed))
            }
        }

        var kept: UInt64 { log.withLock { $0.kept } }
        /// The snapshots it kept (the app's rule let them replace its canvas), in order.
        var snapshotsKept: [(ParticipantID, UInt64, Bool)] { log.withLock { $0.snapshots } }

        func strokes(from source: ParticipantID) -> [Int] {
            log.withLock { $0.strokes.filter { $0.0 == source }.map(\.1) }
        }

        var strokeCount: Int { log.withLock { $0.strokes.count } }

        func stop() {
            for task in tasks.withLock({ $0 }) { task.cancel() }
            catchUp.withLock { $0?.stop() }
        }
    }

    /// Which run of the process this is: the reliable mode's (0) or the unreliable one's (1).
    private var runNumber: UInt64 { mode == .reliable ? 0 : 1 }

    /// The report of the run and whether the mode's promise held.
    func run() async throws -> (report: String, holds: Bool) {
        var plan = FaultPlan.unreliable(
            seed: options.seed, drop: options.drop, duplicate: options.duplicate, reorder: options.reorder)
        plan.keyedByContent = true
        let hub = InProcessHub(plan: plan, clock: VirtualClock())
        var members: [Member] = []
        for number in 1...3 { members.append(try await Member(number: number, hub: hub, run: runNumber)) }
        defer { for member in members { member.stop() } }
        var lines = [
            "== \(mode) mode: seed \(options.seed), drop \(percent(options.drop)), duplicate \(percent(options.duplicate)), reorder \(percent(options.reorder)), delay 1-20 ms =="
        ]

        try await settle(hub) { members.allSatisfy { $0.coordinator.stateObserver.isEligibleForGroupSession } }
        try members[0].coordinator.activate(DrawTogetherActivity(name: "demo"))
        var sessions: [SharedSession<DrawTogetherActivity>] = []
        for member in members {
            sessions.append(try await first(member.sessions, hub: hub))
        }
        for session in sessions { try session.join() }
        try await settle(hub) { sessions.allSatisfy { $0.activeParticipants.count == 3 } }
        lines.append("- ana activated session \(sessions[0].id); ana, ben and cleo joined")
        for (index, member) in members.enumerated() {
            try member.listen(in: sessions[index], drawn: Self.canvas(strokes: 65 + 5 * index, seed: UInt64(index)))
        }

        var sent: [ParticipantID: [Int]] = [:]
        for (index, session) in sessions.enumerated() {
            for stroke in 0..<options.strokes {
                try await session.messenger(deliveryMode: mode).send(Self.stroke(stroke, by: index))
                sent[members[index].id, default: []].append(stroke)
            }
        }
        lines.append("- ana, ben and cleo each sent \(options.strokes) strokes (\(mode))")
        var expected: [ParticipantID: [ParticipantID: [Int]]] = [:]
        for receiver in members {
            for sender in members where sender.id != receiver.id {
                expected[receiver.id, default: [:]][sender.id] = sent[sender.id]
            }
        }
        try await deliver(hub, members: members, expected: expected)

        let dan = try await Member(number: 4, hub: hub, run: runNumber)
        members.append(dan)
        let late = try await first(dan.sessions, hub: hub)
        try late.join()
        sessions.append(late)
        try dan.listen(in: late, drawn: nil)
        try await settle(hub) {
            sessions.allSatisfy { $0.activeParticipants.count == 4 } && dan.snapshotsKept.last?.1 == 75 * 200
        }
        let kept = dan.snapshotsKept.map { "\(name(of: $0.0, members))'s (\($0.1) points\($0.2 ? ", compressed" : ""))" }
        lines.append(
            "- dan joined late; ana, ben and cleo each sent it a snapshot over 64 KiB (fragmented); it loaded \(kept.joined(separator: ", then ")) (the app's rule: only more points than it has)"
        )
        for stroke in 0..<(options.strokes / 2) {
            try await late.messenger(deliveryMode: mode).send(Self.stroke(stroke, by: 3))
            sent[dan.id, default: []].append(stroke)
        }
        for receiver in members.prefix(3) { expected[receiver.id]?[dan.id] = sent[dan.id] }
        lines.append("- dan sent \(options.strokes / 2) strokes")
        try await deliver(hub, members: members, expected: expected)

        try sessions[2].leave()
        try await settle(hub) { [0, 1, 3].allSatisfy { sessions[$0].activeParticipants.count == 3 } }
        lines.append("- cleo left the session")
        let more = options.strokes..<(options.strokes + 5)
        for stroke in more {
            try await sessions[0].messenger(deliveryMode: mode).send(Self.stroke(stroke, by: 0))
        }
        expected[members[1].id]?[members[0].id]? += Array(more)
        expected[dan.id, default: [:]][members[0].id] = Array(more)
        lines.append("- ana sent \(more.count) more strokes")
        try await deliver(hub, members: members, expected: expected)

        lines.append("received (sender: stroke numbers in arrival order):")
        var holds = true
        var arrived = 0
        var total = 0
        for receiver in members {
            var parts: [String] = []
            for sender in members where sender.id != receiver.id {
                let got = receiver.strokes(from: sender.id)
                let want = expected[receiver.id]?[sender.id] ?? []
                total += want.count
                arrived += got.count
                let promise = mode == .reliable ? got == want : Set(got).count == got.count && Set(got).isSubset(of: Set(want))
                holds = holds && promise
                guard !got.isEmpty || !want.isEmpty else { continue }
                parts.append("\(sender.name) \(ranges(got))\(got.count == want.count ? "" : " (\(got.count) of \(want.count))")")
            }
            lines.append(
                "  \(receiver.name.padding(toLength: 4, withPad: " ", startingAt: 0)) <- \(parts.joined(separator: ", "))")
        }
        lines.append(
            "delivery layer (these counts depend on how the participants' tasks interleave with simulated time; what each received does not):"
        )
        for member in members {
            let stats = member.transport.statistics
            lines.append(
                "  \(member.name.padding(toLength: 4, withPad: " ", startingAt: 0)) sent \(stats.framesSent) frames, retransmitted \(stats.retransmitted), acknowledgements \(stats.acksSent), duplicates dropped \(stats.duplicatesDropped), stale \(stats.staleDropped)"
            )
        }
        let faults = await hub.statistics
        lines.append(
            "hub: \(faults.sent) messages sent, \(faults.dropped) dropped, \(faults.duplicated) duplicated, \(faults.reordered) reordered"
        )
        let promise =
            mode == .reliable
            ? "every stroke reached every participant in the session exactly once, in order"
            : "what arrived is a subset of what was sent, no stroke twice (\(arrived) of \(total) stroke deliveries arrived)"
        lines.append("check: \(promise): \(holds ? "holds" : "BROKEN")")
        return (lines.joined(separator: "\n") + "\n\n", holds)
    }

    /// Moves simulated time in 5 ms steps, each time waiting for the participants' tasks to
    /// take what arrived, until `condition` holds (at most 60 simulated seconds).
    private func settle(_ hub: InProcessHub, until condition: () -> Bool) async throws {
        let start = hub.elapsed
        try await hub.settle()
        while !condition() {
            guard hub.elapsed - start < .seconds(60) else { throw SimulationError.stuck }
            try await hub.step(by: .milliseconds(5))
        }
    }

    /// Lets reliable frames arrive (unreliable: one simulated second).
    private func deliver(_ hub: InProcessHub, members: [Member], expected: [ParticipantID: [ParticipantID: [Int]]]) async throws {
        let end = hub.elapsed + .seconds(1)
        try await settle(hub) {
            hub.elapsed >= end
                && (mode != .reliable
                    || members.allSatisfy { member in
                        member.strokeCount == (expected[member.id]?.values.reduce(0) { $0 + $1.count } ?? 0)
                    })
        }
    }

    private func first(_ sessions: AsyncStream<SharedSession<DrawTogetherActivity>>, hub: InProcessHub) async throws
        -> SharedSession<DrawTogetherActivity>
    {
        let box = Mutex<SharedSession<DrawTogetherActivity>?>(nil)
        let task = Task {
            for await session in sessions {
                box.withLock { $0 = session }
                return
            }
        }
        defer { task.cancel() }
        try await settle(hub) { box.withLock { $0 != nil } }
        guard let session = box.withLock({ $0 }) else { throw SimulationError.stuck }
        return session
    }

    private func name(of id: ParticipantID, _ members: [Member]) -> String {
        members.first { $0.id == id }?.name ?? id.description
    }

    private func percent(_ rate: Double) -> String { "\(Int((rate * 100).rounded()))%" }

    /// "0-19" for runs of consecutive numbers, "3, 1" otherwise.
    private func ranges(_ numbers: [Int]) -> String {
        guard !numbers.isEmpty else { return "none" }
        var parts: [String] = []
        var start = numbers[0]
        var last = numbers[0]
        for number in numbers.dropFirst() {
            if number == last + 1 {
                last = number
                continue
            }
            parts.append(start == last ? "\(start)" : "\(start)-\(last)")
            start = number
            last = number
        }
        parts.append(start == last ? "\(start)" : "\(start)-\(last)")
        return parts.joined(separator: " ")
    }

    static func stroke(_ index: Int, by participant: Int) -> UpsertStroke {
        UpsertStroke(
            id: UUID(uuid: (UInt8(participant), 0, 0, 0, 0, 0, 0x40, 0, 0x80, 0, 0, 0, 0, 0, 0, 0)),
            color: .blue, point: Point(x: Double(index), y: Double(participant)))
    }

    /// A canvas of `strokes` strokes of 200 points at full precision: over 64 KiB even
    /// compressed, so its snapshot travels in several fragments.
    static func canvas(strokes: Int, seed: UInt64) -> CanvasSnapshot {
        var random = SeededRandom(seed: seed)
        let all = (0..<strokes).map { index in
            Stroke(
                id: random.uuid(), color: index.isMultiple(of: 2) ? .blue : .red,
                points: (0..<200).map { step in Point(x: Double(step) + random.unit(), y: random.unit() * 800) })
        }
        return CanvasSnapshot(strokes: all, pointCount: UInt64(strokes * 200))
    }

    enum SimulationError: Error, CustomStringConvertible {
        case stuck
        var description: String { "the simulated session did not reach the next step within 60 simulated seconds" }
    }
}
