import GroupWire
import GroupWirePlayback
import GroupWireSession
import GroupWireTestSupport
import GroupWireTesting
import Synchronization
import Testing

struct WatchActivity: SharedActivity, Equatable {
    static let activityIdentifier = "com.example.watch-together"
    var film: String
    var activityMetadata: SharedActivityMetadata { SharedActivityMetadata(title: film, type: .watchTogether) }
}

/// A device's clock against the hub's simulated time: set `offset` off and running `drift`
/// fast (100 ppm is 0.0001).
struct DeviceClock: Sendable {
    var offset: Duration
    var drift: Double

    func read(_ time: Duration) -> Duration {
        time + offset
            + .nanoseconds(Int64((Double(time.components.seconds) * 1e9 + Double(time.components.attoseconds) / 1e9) * drift))
    }
}

/// Participants of a watch-together session on one seeded hub, on simulated time: each
/// behind a delivery layer, with a device clock of its own, a simulated player with its own
/// drift, and a playback coordinator.
final class WatchParty: @unchecked Sendable {
    let hub: InProcessHub
    let clock: VirtualClock
    var members: [Member] = []
    let configuration: PlaybackConfiguration

    struct Member {
        let id: ParticipantID
        let device: DeviceClock
        let player: SimulatedPlayer
        let sessions: SharedSessionCoordinator
        let session: SharedSession<WatchActivity>
        let playback: PlaybackCoordinator
    }

    init(seed: UInt64, configuration: PlaybackConfiguration = PlaybackConfiguration()) {
        clock = VirtualClock()
        hub = InProcessHub(
            plan: .unreliable(seed: seed, drop: 0.05, delay: .milliseconds(5) ... .milliseconds(50)), clock: clock)
        self.configuration = configuration
    }

    /// Connects participants 1 ... `devices.count` (each with its device clock and a player
    /// running its drift fast), activates the session on the first, joins everyone, and
    /// then starts each one's playback coordinator.
    func start(devices: [DeviceClock], playerDrifts: [Double]) async throws {
        var pending: [(ParticipantID, SharedSessionCoordinator, Inbox)] = []
        for number in 1...devices.count { pending.append(try await connect(UInt64(number))) }
        try await run(until: "eligibility") { pending[0].1.stateObserver.isEligibleForGroupSession }
        try pending[0].1.activate(WatchActivity(film: "film"))
        var sessions: [SharedSession<WatchActivity>] = []
        for (index, (_, _, inbox)) in pending.enumerated() {
            try await run(until: "participant \(index + 1)'s session") { !inbox.sessions.isEmpty }
            guard let session = inbox.sessions.first else { throw PartyError(description: "no session") }
            try session.join()
            sessions.append(session)
        }
        try await run(until: "everyone in the session") { sessions.allSatisfy { $0.activeParticipants.count == devices.count } }
        for (index, (id, coordinator, _)) in pending.enumerated() {
            try begin(id, coordinator, sessions[index], device: devices[index], playerDrift: playerDrifts[index])
        }
    }

    /// Connects participant `number` late: it receives the running session and joins it.
    func add(_ number: UInt64, device: DeviceClock, playerDrift: Double) async throws {
        let (id, coordinator, inbox) = try await connect(number)
        try await run(until: "participant \(number)'s session") { !inbox.sessions.isEmpty }
        guard let session = inbox.sessions.first else { throw PartyError(description: "no session") }
        try session.join()
        let count = members.count + 1
        try await run(until: "participant \(number) to be in the session") {
            self.members.allSatisfy { $0.session.activeParticipants.count == count } && session.activeParticipants.count == count
        }
        try begin(id, coordinator, session, device: device, playerDrift: playerDrift)
    }

    private func connect(_ number: UInt64) async throws -> (
        ParticipantID, SharedSessionCoordinator, Inbox
    ) {
        let id = ParticipantID.numbered(number)
        let endpoint = try await hub.join(id)
        let transport = DeliveryTransport(over: endpoint, configuration: .simulated(seed: number))
        let next = Mutex(UInt32(number) * 1_000)
        let coordinator = SharedSessionCoordinator(
            messenger: Messenger(transport: transport),
            sessionIDs: {
                next.withLock {
                    $0 += 1
                    return $0
                }
            })
        let inbox = Inbox()
        let stream = coordinator.sessions(for: WatchActivity.self)
        Task { for await session in stream { inbox.add(session) } }
        return (id, coordinator, inbox)
    }

    private func begin(
        _ id: ParticipantID, _ sessions: SharedSessionCoordinator, _ session: SharedSession<WatchActivity>,
        device: DeviceClock, playerDrift: Double
    ) throws {
        let clock = self.clock
        let player = SimulatedPlayer(drift: playerDrift) { clock.elapsed }
        let playback = try PlaybackCoordinator(
            session: session, player: player, configuration: configuration, clock: hub.timerClock,
            localClock: { device.read(clock.elapsed) })
        members.append(Member(id: id, device: device, player: player, sessions: sessions, session: session, playback: playback))
    }

    /// Moves simulated time to each next event (a delivery, a timer) up to `limit` at a
    /// time, so that everything happens at its own instant.
    func advance(by duration: Duration, limit: Duration = .milliseconds(100)) async throws {
        let end = clock.elapsed + duration
        while clock.elapsed < end {
            let now = clock.elapsed
            var next = min(end, now + limit)
            if let deadline = clock.deadlines.first(where: { $0 > now }) { next = min(next, deadline) }
            if let delivery = await hub.nextDelivery, delivery > now { next = min(next, delivery) }
            try await hub.step(by: next - now)
        }
    }

    /// Runs simulated time until `condition` holds (at most ten simulated minutes).
    func run(until what: String, _ condition: () -> Bool) async throws {
        let start = clock.elapsed
        try await hub.settle()
        while !condition() {
            guard clock.elapsed - start < .seconds(600) else {
                throw PartyError(description: "not within ten simulated minutes: \(what)")
            }
            try await advance(by: .milliseconds(10))
        }
    }

    /// The group clock's reading at simulated time `time`: participant 1's device clock (it
    /// has the smallest id and starts the clock).
    func groupTime(at time: Duration) -> Duration { members[0].device.read(time) }
}

/// The sessions a participant received.
final class Inbox: Sendable {
    private let received = Mutex<[SharedSession<WatchActivity>]>([])
    func add(_ session: SharedSession<WatchActivity>) { received.withLock { $0.append(session) } }
    var sessions: [SharedSession<WatchActivity>] { received.withLock { $0 } }
}

struct PartyError: Error, CustomStringConvertible {
    let description: String
}

/// The timelines the group went through, in stamp order, as the coordinators took them.
final class TimelineHistory: @unchecked Sendable {
    private(set) var timelines: [PlaybackTimeline] = []

    /// Records the newest timeline any member holds now.
    func record(_ party: WatchParty) {
        for member in party.members {
            guard let timeline = member.playback.timeline else { continue }
            if timelines.last.map({ $0.stamp < timeline.stamp }) ?? true {
                timelines.append(timeline)
                timelines.sort { $0.stamp < $1.stamp }
            }
        }
    }

    /// Where the group should be at group instant `time`: the newest timeline whose
    /// instant has come.
    func expected(at time: Duration) -> Double? {
        timelines.last { $0.groupTime <= time }?.expectedTime(at: time)
    }
}
