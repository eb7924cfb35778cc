import Foundation
import GroupWire
import GroupWireCompression
import GroupWireExamples
import GroupWireTestSupport
import GroupWireTesting
import Synchronization
import Testing

@testable import GroupWireSession

/// The canvas activity of the tests: the reference example, DrawTogether.
struct DrawActivity: SharedActivity, Equatable {
    static let activityIdentifier = "com.example.draw-together"
    var canvas: String
    var activityMetadata: SharedActivityMetadata { SharedActivityMetadata(title: "Draw: \(canvas)", type: .createTogether) }
}

/// The sessions one participant has received, collected as they arrive.
final class SessionInbox: Sendable {
    private final class Storage: Sendable {
        let received = Mutex<[SharedSession<DrawActivity>]>([])
    }

    private let storage = Storage()
    private let task: Task<Void, Never>

    init(_ stream: AsyncStream<SharedSession<DrawActivity>>) {
        let storage = storage
        task = Task {
            for await session in stream {
                storage.received.withLock { $0.append(session) }
            }
        }
    }

    deinit { task.cancel() }

    var sessions: [SharedSession<DrawActivity>] { storage.received.withLock { $0 } }
}

/// Participants on one seeded hub, each with a messenger and a session coordinator, in
/// the group-activities vocabulary.
struct Party {
    let hub: InProcessHub
    /// Whether every participant sits behind a delivery layer (with zstd).
    var delivery = false
    var transports: [DeliveryTransport] = []
    var ids: [ParticipantID] = []
    var coordinators: [SharedSessionCoordinator] = []
    var inboxes: [SessionInbox] = []
    /// How many sessions of each inbox the test has taken.
    var taken: [Int] = []

    static func make(count: Int, plan: FaultPlan, delivery: Bool = false) async throws -> Party {
        var party = Party(hub: InProcessHub(plan: plan, clock: VirtualClock()), delivery: delivery)
        for _ in 0..<count { try await party.add() }
        return party
    }

    /// Connects one more participant (numbered after the others).
    mutating func add() async throws {
        let id = ParticipantID.numbered(UInt64(ids.count + 1))
        let endpoint = try await hub.join(id)
        let messenger: Messenger
        if delivery {
            let transport = DeliveryTransport(over: endpoint, configuration: .simulated(seed: UInt64(ids.count + 1)))
            transports.append(transport)
            messenger = Messenger(
                transport: transport,
                configuration: MessengerConfiguration(
                    codec: try PayloadCompressor()))
        } else {
            messenger = Messenger(transport: endpoint)
        }
        let sessionIDs = SessionIDs(participant: ids.count + 1)
        let coordinator = SharedSessionCoordinator(messenger: messenger, sessionIDs: { sessionIDs.take() })
        ids.append(id)
        coordinators.append(coordinator)
        inboxes.append(SessionInbox(coordinator.sessions(for: DrawActivity.self)))
        taken.append(0)
    }

    /// Delivers what is in flight until `condition` holds, each time waiting for the tasks
    /// to take what arrived (``InProcessHub/settle(patience:)``); bounded by 10 minutes of
    /// simulated time, and by the hub's patience when nothing moves.
    func settle(_ what: String = #function, line: Int = #line, until condition: () -> Bool) async throws {
        try await hub.settle()
        guard delivery else {
            try await eventually("the party to settle: \(what), line \(line)") {
                await hub.runUntilIdle()
                try await hub.settle()
                return condition()
            }
            return
        }
        let start = hub.elapsed
        while !condition() {
            guard hub.elapsed - start < .seconds(600) else {
                throw PartyError(
                    description: "the party did not settle within 10 minutes of simulated time: \(what), line \(line)")
            }
            // Time must pass for the layers' timers: acknowledgements, retransmissions.
            try await hub.step(by: .milliseconds(5))
        }
    }

    /// The next session each participant receives (delivering until all have one).
    mutating func nextSessions() async throws -> [SharedSession<DrawActivity>] {
        let inboxes = inboxes
        let taken = taken
        try await settle { inboxes.indices.allSatisfy { inboxes[$0].sessions.count > taken[$0] } }
        var sessions: [SharedSession<DrawActivity>] = []
        for index in inboxes.indices {
            let all = inboxes[index].sessions
            guard all.count > taken[index] else { throw PartyError(description: "participant \(index + 1) received no session") }
            sessions.append(all[taken[index]])
            self.taken[index] += 1
        }
        return sessions
    }
}

/// A party that did not reach the state a test waits for.
struct PartyError: Error, CustomStringConvertible {
    let description: String
}

/// The first element `stream` yields, or nil when the stream ends first; a wait past the
/// outer bound fails the test.
func firstElement<Element: Sendable>(of stream: Messenger.Messages<Element>) async throws -> (
    message: Element, context: MessageContext
)? {
    let result = Mutex<(message: Element, context: MessageContext)??>(nil)
    let waiting = Task {
        var iterator = stream.makeAsyncIterator()
        let first = await iterator.next()
        result.withLock { $0 = .some(first) }
    }
    defer { waiting.cancel() }
    try await eventually("the stream's first element") { result.withLock { $0 != nil } }
    return result.withLock { $0 ?? nil }
}

/// Session ids for one participant: 1000·n + 1, + 2, … (a test replays exactly).
final class SessionIDs: Sendable {
    private let next: Mutex<UInt32>

    init(participant: Int) {
        next = Mutex(UInt32(participant) * 1_000)
    }

    func take() -> UInt32 {
        next.withLock { value in
            value += 1
            return value
        }
    }
}

@Suite struct SharedSessionTests {
    /// Reordering, duplicates and delay, but no loss: the session protocol's control
    /// messages need every message delivered (the reliable mode provides that on lossy links).
    static let shuffling = FaultPlan(
        seed: 0x5E55, mode: .unreliable, duplicateRate: 0.2, reorderRate: 0.3,
        delay: .milliseconds(1) ... .milliseconds(30))

    @Test func threeParticipantsActivateJoinAndSeeEachOther() async throws {
        var party = try await Party.make(count: 3, plan: Self.shuffling)
        try await party.settle { party.coordinators.allSatisfy { $0.stateObserver.isEligibleForGroupSession } }
        let id = try party.coordinators[0].activate(DrawActivity(canvas: "one"))
        let sessions = try await party.nextSessions()
        #expect(sessions.map(\.id) == [id, id, id])
        #expect(sessions.allSatisfy { $0.state == .waiting && $0.activity == DrawActivity(canvas: "one") })
        for session in sessions { try session.join() }
        try await party.settle { sessions.allSatisfy { $0.activeParticipants == Set(party.ids) } }
        #expect(sessions.allSatisfy { $0.state == .joined })
        #expect(sessions[1].localParticipant == party.ids[1])
    }

    @Test func aParticipantThatLeavesIsInvalidatedAndTheOthersSeeItGo() async throws {
        var party = try await Party.make(count: 3, plan: Self.shuffling)
        try await party.settle { party.coordinators.allSatisfy { $0.stateObserver.isEligibleForGroupSession } }
        try party.coordinators[0].activate(DrawActivity(canvas: "one"))
        let sessions = try await party.nextSessions()
        for session in sessions { try session.join() }
        try await party.settle { sessions.allSatisfy { $0.activeParticipants.count == 3 } }
        try sessions[2].leave()
        #expect(sessions[2].state == .invalidated(reason: .left))
        try await party.settle { sessions[0].activeParticipants.count == 2 && sessions[1].activeParticipants.count == 2 }
        #expect(sessions[0].activeParticipants == [party.ids[0], party.ids[1]])
        #expect(throws: SharedSessionError.self) { try sessions[2].join() }
        do {
            try sessions[2].join()
        } catch {
            #expect(error.kind == .invalidated)
        }
    }

    @Test func aParticipantWhoseTransportClosesIsInvalidatedWithItsReasonAndItsSendsThrow() async throws {
        var party = try await Party.make(count: 2, plan: .reliable())
        try await party.settle { party.coordinators.allSatisfy { $0.stateObserver.isEligibleForGroupSession } }
        try party.coordinators[0].activate(DrawActivity(canvas: "one"))
        let sessions = try await party.nextSessions()
        for session in sessions { try session.join() }
        try await party.settle { sessions.allSatisfy { $0.activeParticipants.count == 2 } }
        await party.hub.leave(party.ids[1])
        try await party.settle { sessions[1].state != .joined && sessions[0].activeParticipants.count == 1 }
        #expect(sessions[1].state == .invalidated(reason: .transportClosed("\(party.ids[1]) left the hub")))
        #expect(!party.coordinators[1].stateObserver.isEligibleForGroupSession)
        #expect(party.coordinators[1].messenger.closeReason == "\(party.ids[1]) left the hub")
        let error = await #expect(throws: SharedSessionError.self) {
            try await sessions[1].messenger.send(UpsertStroke(id: UUID(), color: .red, point: Point(x: 1, y: 1)))
        }
        #expect(error?.kind == .invalidated)
        let direct = await #expect(throws: WireError.self) {
            try await party.coordinators[1].messenger.send(UpsertStroke(id: UUID(), color: .red, point: Point(x: 1, y: 1)))
        }
        #expect(direct?.kind == .transportClosed)
        // The one still connected goes on, alone.
        #expect(sessions[0].state == .joined)
        #expect(sessions[0].activeParticipants == [party.ids[0]])
    }

    @Test(arguments: [UInt64(0x50), 0x51, 0x52])
    func afterHalfOfEveryFrameIsLostForAWhileEveryoneAgreesAgainOnWhoIsPresent(seed: UInt64) async throws {
        _ = try await agreeAfterLoss(seed: seed, drop: 0.5)
    }

    @Test func peersGivenUpDuringAnOutageAreTakenBackWhenTheyAreHeardAgain() async throws {
        // Nothing gets through for 30 s: every peer is given up (peer timeout 5 s).
        let given = try await agreeAfterLoss(seed: 0x53, drop: 1)
        #expect(given == 6, "each of the three gives up the other two")
    }

    /// One run: a session of three on a good link, then `drop` of every frame lost for
    /// 30 s of strokes from everyone, then a good link again. Returns how many peers the delivery layers gave up meanwhile.
    private func agreeAfterLoss(seed: UInt64, drop: Double) async throws -> Int {
        var plan = FaultPlan.unreliable(seed: seed, drop: drop)
        plan.faultWindow = .seconds(1) ..< .seconds(31)
        var party = try await Party.make(count: 3, plan: plan, delivery: true)
        try await party.settle { party.coordinators.allSatisfy { $0.stateObserver.isEligibleForGroupSession } }
        try party.coordinators[0].activate(DrawActivity(canvas: "lossy"))
        let sessions = try await party.nextSessions()
        for session in sessions { try session.join() }
        try await party.settle { sessions.allSatisfy { $0.activeParticipants.count == 3 } }
        var index = 0.0
        while party.hub.elapsed < .seconds(31) {
            for session in sessions where session.state == .joined {
                _ = try? await session.messenger.send(UpsertStroke(id: UUID(), color: .red, point: Point(x: index, y: 0)))
            }
            index += 1
            try await party.hub.step(by: .milliseconds(100))
        }
        let removed = party.transports.flatMap(\.statistics.removedPeers)
        // The link is good again: within a bounded time everyone agrees everyone is present.
        let healed = party.hub.elapsed
        try await party.settle { sessions.allSatisfy { $0.activeParticipants == Set(party.ids) } }
        #expect(party.hub.elapsed - healed <= .seconds(10), "seed \(seed): agreement took \(party.hub.elapsed - healed)")
        #expect(sessions.allSatisfy { $0.state == .joined }, "seed \(seed)")
        // Every peer given up was taken back once heard again.
        #expect(party.transports.flatMap(\.statistics.restoredPeers).count == removed.count, "seed \(seed)")
        #expect(party.transports.allSatisfy { $0.statistics.rejected == 0 }, "seed \(seed)")
        return removed.count
    }

    @Test func theOneCallSetupCarriesASpecsMessagesInItsSessionAndTheAppsActivationDecision() async throws {
        let hub = InProcessHub()
        let ana = SharedSessionCoordinator(over: try await hub.join(.numbered(1)))
        let ben = SharedSessionCoordinator(
            over: try await hub.join(.numbered(2)),
            activationDecision: { metadata, _ in metadata.title == "Draw: solo" ? .cancelled : .activationPreferred })
        // The default hub delivers reliably and in order: no delivery layer is stacked on it;
        // over a link that does not promise it, the one call adds one.
        #expect(!(ana.messenger.transport is DeliveryTransport) && ana.messenger.transport.guarantees.deliveryMode == .reliable)
        let lossy = InProcessHub(plan: .unreliable(seed: 1, drop: 0.1))
        let carl = SharedSessionCoordinator(over: try await lossy.join(.numbered(3)))
        #expect(carl.messenger.transport is DeliveryTransport)
        try await ben.stateObserver.waitUntilEligible()
        #expect(ben.prepareForActivation(DrawActivity(canvas: "solo")) == .cancelled)
        #expect(ben.prepareForActivation(DrawActivity(canvas: "shared")) == .activationPreferred)
        let anaSessions = SessionInbox(ana.sessions(for: DrawActivity.self))
        let benSessions = SessionInbox(ben.sessions(for: DrawActivity.self))
        try ben.activate(DrawActivity(canvas: "shared"))
        try await eventually("both to be offered the session") { !anaSessions.sessions.isEmpty && !benSessions.sessions.isEmpty }
        let (atAna, atBen) = (anaSessions.sessions[0], benSessions.sessions[0])
        try atAna.join()
        try atBen.join()
        try await eventually("both to be in it") { atAna.activeParticipants.count == 2 && atBen.activeParticipants.count == 2 }
        let everything = Collected(try atAna.messenger.messages(of: DrawTogetherMessage.self))
        let stroke = UpsertStroke(id: UUID(), color: .blue, point: Point(x: 3, y: 4))
        // Outside the session: not this session's stream's.
        try await ben.messenger.send(UpsertStroke(id: UUID(), color: .red, point: Point(x: 0, y: 0)))
        try await atBen.messenger.send(stroke)
        try await eventually("ana to get the session's stroke") { !everything.all.isEmpty }
        #expect(everything.all.map(\.message) == [.upsertStroke(stroke)])
        await hub.close()
    }

    @Test(.timeLimit(.minutes(1)))
    func aSessionsStreamsFinishWhenItEndsHereAndAFreshOneFinishesAtOnce() async throws {
        var party = try await Party.make(count: 2, plan: .reliable())
        try await party.settle { party.coordinators.allSatisfy { $0.stateObserver.isEligibleForGroupSession } }
        try party.coordinators[0].activate(DrawActivity(canvas: "first"))
        let first = try await party.nextSessions()
        for session in first { try session.join() }
        try await party.settle { first.allSatisfy { $0.activeParticipants.count == 2 } }
        let strokeStream = try first[1].messenger.messages(of: UpsertStroke.self)
        let setStream = try first[1].messenger.messages(of: DrawTogetherMessage.self)
        let strokes = Task { () -> Int in
            var count = 0
            for await _ in strokeStream { count += 1 }
            return count
        }
        let everything = Task { () -> Int in
            var count = 0
            for await _ in setStream { count += 1 }
            return count
        }
        try await first[0].messenger.send(UpsertStroke(id: UUID(), color: .red, point: Point(x: 1, y: 1)))
        // Clear canvas: a new session replaces the first; its streams end, with what they got.
        try party.coordinators[0].activate(DrawActivity(canvas: "second"))
        _ = try await party.nextSessions()
        #expect(await strokes.value == 1)
        #expect(await everything.value == 1)
        // Asked for once the session is over: finished at once.
        var late = 0
        for await _ in try first[1].messenger.messages(of: UpsertStroke.self) { late += 1 }
        #expect(late == 0)
    }

    @Test func concurrentActivityReplacementsConvergeOnTheNewestStampEverywhere() async throws {
        var party = try await Party.make(count: 3, plan: Self.shuffling)
        try await party.settle { party.coordinators.allSatisfy { $0.stateObserver.isEligibleForGroupSession } }
        try party.coordinators[0].activate(DrawActivity(canvas: "start"))
        let sessions = try await party.nextSessions()
        for session in sessions { try session.join() }
        try await party.settle { sessions.allSatisfy { $0.activeParticipants.count == 3 } }
        // Both replace before either hears the other: equal clocks, so the higher
        // participant id (2) wins, on all three.
        try sessions[0].replaceActivity(with: DrawActivity(canvas: "from 1"))
        try sessions[1].replaceActivity(with: DrawActivity(canvas: "from 2"))
        try await party.settle { sessions.allSatisfy { $0.activity == DrawActivity(canvas: "from 2") } }
        #expect(sessions.map(\.activity.canvas) == ["from 2", "from 2", "from 2"])
    }

    @Test func clearCanvasStartsANewSessionThatNoOldMessageReaches() async throws {
        var party = try await Party.make(
            count: 3,
            plan: FaultPlan(
                seed: 9, mode: .unreliable, reorderRate: 0.5,
                delay: .milliseconds(1) ... .milliseconds(80)))
        try await party.settle { party.coordinators.allSatisfy { $0.stateObserver.isEligibleForGroupSession } }
        let firstID = try party.coordinators[0].activate(DrawActivity(canvas: "first"))
        let first = try await party.nextSessions()
        for session in first { try session.join() }
        try await party.settle { first.allSatisfy { $0.activeParticipants.count == 3 } }
        // Strokes of the first canvas in flight (1-80 ms of virtual time each) when
        // participant 1 clears the canvas by activating a new session.
        for index in 0..<30 {
            try await first[0].messenger.send(UpsertStroke(id: UUID(), color: .red, point: Point(x: Double(index), y: 0)))
        }
        let secondID = try party.coordinators[0].activate(DrawActivity(canvas: "second"))
        let second = try await party.nextSessions()
        #expect(second.map(\.id) == [secondID, secondID, secondID])
        #expect(first.allSatisfy { $0.state == .invalidated(reason: .replaced(by: secondID)) })
        let listeners = try second.dropFirst().map { try $0.messenger.messages(of: UpsertStroke.self) }
        for session in second { try session.join() }
        try await party.settle { second.allSatisfy { $0.activeParticipants.count == 3 } }
        // Participant 3's app, slow to notice, goes on drawing on the old canvas: 30 more
        // frames naming the old session reach participant 2 after it joined the new one.
        let before = party.coordinators[1].messenger.statistics.messagesDelivered
        for index in 0..<30 {
            try await party.coordinators[2].messenger.send(
                UpsertStroke(id: UUID(), color: .green, point: Point(x: Double(index), y: 1)), to: .all, session: firstID)
        }
        try await party.settle { party.coordinators[1].messenger.statistics.messagesDelivered >= before + 30 }
        // None reached the new session: the first stroke it delivers is the new canvas's.
        try await second[0].messenger.send(UpsertStroke(id: UUID(), color: .blue, point: Point(x: -1, y: -1)))
        await party.hub.runUntilIdle()
        for listener in listeners {
            let delivered = try await firstElement(of: listener)
            #expect(delivered?.message.point == Point(x: -1, y: -1))
            #expect(delivered?.context.session == secondID)
        }
    }

    @Test func endInvalidatesTheSessionForEveryone() async throws {
        var party = try await Party.make(count: 3, plan: Self.shuffling)
        try await party.settle { party.coordinators.allSatisfy { $0.stateObserver.isEligibleForGroupSession } }
        try party.coordinators[0].activate(DrawActivity(canvas: "one"))
        let sessions = try await party.nextSessions()
        try sessions[0].join()
        try sessions[1].join()
        try sessions[1].end()
        let ender = party.ids[1]
        try await party.settle { sessions.allSatisfy { $0.state == .invalidated(reason: .ended(by: ender)) } }
        #expect(throws: SharedSessionError.self) { try sessions[2].join() }
    }

    @Test func operationsTheStateForbidsFailWithTypedErrors() async throws {
        var party = try await Party.make(count: 2, plan: .reliable())
        try await party.settle { party.coordinators.allSatisfy { $0.stateObserver.isEligibleForGroupSession } }
        try party.coordinators[0].activate(DrawActivity(canvas: "one"))
        let sessions = try await party.nextSessions()
        func kind(_ body: () throws(SharedSessionError) -> Void) -> SharedSessionError.Kind? {
            do throws(SharedSessionError) { try body(); return nil } catch { return error.kind }
        }
        #expect(kind { () throws(SharedSessionError) in try sessions[0].leave() } == .notJoined)
        #expect(
            kind { () throws(SharedSessionError) in try sessions[0].replaceActivity(with: DrawActivity(canvas: "x")) }
                == .notJoined)
        try sessions[0].join()
        #expect(kind { () throws(SharedSessionError) in try sessions[0].join() } == .notWaiting)
        do {
            try await sessions[1].messenger.send(UpsertStroke())
            Issue.record("sending in a waiting session succeeded")
        } catch {
            #expect(error.kind == .notJoined)
        }
    }

    @Test func aLoneParticipantIsNotEligibleAndTheAppCanOverrideTheDecision() async throws {
        let hub = InProcessHub(plan: .reliable(), clock: VirtualClock())
        let alone = SharedSessionCoordinator(messenger: Messenger(transport: try await hub.join(.numbered(1))))
        #expect(!alone.stateObserver.isEligibleForGroupSession)
        #expect(alone.prepareForActivation(DrawActivity(canvas: "a")) == .activationDisabled)
        do {
            try alone.activate(DrawActivity(canvas: "a"))
            Issue.record("activating alone succeeded")
        } catch {
            #expect(error.kind == .notEligible)
        }
        let declining = SharedSessionCoordinator(
            messenger: Messenger(transport: try await hub.join(.numbered(2))), activationDecision: { _, _ in .cancelled })
        #expect(declining.prepareForActivation(DrawActivity(canvas: "a")) == .cancelled)
    }

    @Test func aParticipantConnectingLaterIsToldTheCurrentSessionAndWhoJoined() async throws {
        var party = try await Party.make(count: 2, plan: Self.shuffling)
        try await party.settle { party.coordinators.allSatisfy { $0.stateObserver.isEligibleForGroupSession } }
        let id = try party.coordinators[0].activate(DrawActivity(canvas: "one"))
        let sessions = try await party.nextSessions()
        for session in sessions { try session.join() }
        try await party.settle { sessions.allSatisfy { $0.activeParticipants.count == 2 } }
        try await party.add()
        let inbox = party.inboxes[2]
        try await party.settle { !inbox.sessions.isEmpty }
        let session = try #require(inbox.sessions.first)
        #expect(session.id == id)
        try await party.settle { session.activeParticipants == [party.ids[0], party.ids[1]] }
        try session.join()
        try await party.settle { sessions.allSatisfy { $0.activeParticipants.count == 3 } }
    }

    /// A coordinator made after its messenger started receiving (an app that sets up its
    /// session layer late, a process under load) still hears what came before it: the
    /// messenger keeps session control for it, in order.
    @Test func aCoordinatorMadeAfterSessionControlArrivedStillGetsTheSession() async throws {
        let hub = InProcessHub(plan: .reliable(), clock: VirtualClock())
        let ana = SharedSessionCoordinator(messenger: Messenger(transport: try await hub.join(.numbered(1))))
        let lateMessenger = Messenger(transport: try await hub.join(.numbered(2)))
        let anaSessions = SessionInbox(ana.sessions(for: DrawActivity.self))
        // Delivers what is in flight and waits for the tasks to take it, until `condition`.
        func until(_ what: String, _ condition: () -> Bool) async throws {
            try await eventually(what) {
                await hub.runUntilIdle()
                try await hub.settle()
                return condition()
            }
        }
        try await until("ana to be eligible") { ana.stateObserver.isEligibleForGroupSession }
        let id = try ana.activate(DrawActivity(canvas: "early"))
        try await until("ana's session") { !anaSessions.sessions.isEmpty }
        let anaSession = try #require(anaSessions.sessions.first)
        try anaSession.join()
        // The activation and the join reach the messenger before any coordinator exists.
        try await until("the activation and the join at the late messenger") { lateMessenger.statistics.framesReceived >= 2 }
        #expect(lateMessenger.statistics.messagesUnrouted == 0)
        let late = SharedSessionCoordinator(messenger: lateMessenger)
        let inbox = SessionInbox(late.sessions(for: DrawActivity.self))
        try await until("the late coordinator's session with ana in it") {
            !inbox.sessions.isEmpty && inbox.sessions[0].activeParticipants == [.numbered(1)]
        }
        let session = try #require(inbox.sessions.first)
        #expect(session.id == id && session.activity == DrawActivity(canvas: "early"))
        #expect(session.activeParticipants == [.numbered(1)])
    }

    @Test func aPeersLargestClockNeitherTrapsNorStopsReplacements() {
        var engine = Engine()
        let peer = ParticipantID.numbered(1)
        let top = SessionStamp(clock: .max, participant: peer)
        let announcement = SessionAnnouncement(
            session: 5, activated: top, activitySet: top, activityIdentifier: "a",
            metadata: SharedActivityMetadata(title: "t"), activity: [])
        _ = engine.apply(.activate(announcement), from: peer, local: .numbered(9))
        #expect(engine.current?.announcement.session == 5)
        #expect(engine.tick() == .max)
        #expect(engine.tick() == .max)
    }

    @Test func sessionControlMessagesHaveTheDocumentedBytesAndRejectBadIds() throws {
        #expect(SessionControl.join(session: 7).payload() == [0x08, 0x07])
        #expect(SessionControl.end(session: 300, clock: 2).payload() == [0x08, 0xAC, 0x02, 0x10, 0x02])
        #expect(try SessionControl.decode(controlID: 3, payload: [0x08, 0x07]) == .leave(session: 7))
        #expect(try SessionControl.decode(controlID: 16, payload: []) == nil)
        let announcement = SessionAnnouncement(
            session: 9, activated: SessionStamp(clock: 3, participant: .numbered(1)),
            activitySet: SessionStamp(clock: 4, participant: .numbered(2)), activityIdentifier: "a.b",
            metadata: SharedActivityMetadata(title: "T", subtitle: "S", type: .watchTogether, fallbackURL: "https://x"),
            activity: [1, 2])
        #expect(
            try SessionControl.decode(controlID: 1, payload: SessionControl.activate(announcement).payload())
                == .activate(announcement))
        for (payload, kind, offset) in [
            ([0x08, 0x00], "invalidValue", 1), ([0x08, 0x80, 0x80, 0x80, 0x80, 0x10], "invalidValue", 1),
            ([], "missingField", 0), ([0x0A, 0x00], "typeMismatch", 0),
        ] as [([UInt8], String, Int)] {
            do {
                _ = try SessionControl.decode(controlID: 2, payload: payload)
                Issue.record("\(payload) decoded")
            } catch {
                #expect(error.kind.name == kind)
                #expect(error.offset == offset)
            }
        }
    }
}

/// Waiting for eligibility before activating, as an app does at startup.
@Suite struct EligibilityWaitTests {
    @Test func waitingForEligibilityReturnsWhenSomeoneIsReachableAndForgetsItsWatcher() async throws {
        let observer = SharedStateObserver()
        let returned = Mutex(false)
        let waiting = Task {
            try await observer.waitUntilEligible()
            returned.withLock { $0 = true }
        }
        try await eventually("the wait to watch eligibility") { observer.watcherCount == 1 }
        #expect(returned.withLock { $0 } == false, "nobody is reachable: it waits")
        observer.update(true)
        try await waiting.value
        #expect(returned.withLock { $0 })
        try await eventually("its watcher to be forgotten") { observer.watcherCount == 0 }
        // Eligible already: it returns at once.
        try await observer.waitUntilEligible()
    }

    @Test func aCancelledWaitThrowsCancellation() async throws {
        let observer = SharedStateObserver()
        let waiting = Task { try await observer.waitUntilEligible() }
        try await eventually("the wait to watch eligibility") { observer.watcherCount == 1 }
        waiting.cancel()
        await #expect(throws: CancellationError.self) { try await waiting.value }
    }
}
