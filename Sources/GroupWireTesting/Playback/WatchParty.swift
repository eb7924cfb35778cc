import GroupWire
import GroupWirePlayback
import GroupWireSession
import Synchronization

/// The activity of a ``WatchParty``: watching one film together.
public struct WatchActivity: SharedActivity, Equatable {
    /// The activity type's identifier.
    public static let activityIdentifier = "com.example.watch-together"
    /// The film's title.
    public var film: String
    /// What people see: the film's title, watched together.
    public var activityMetadata: SharedActivityMetadata { SharedActivityMetadata(title: film, type: .watchTogether) }

    /// An activity for `film`.
    public init(film: String) { self.film = film }
}

/// A device's clock against a simulation's time: `offset` off and running `drift` fast
/// (100 ppm is 0.0001).
public struct DeviceClock: Sendable {
    /// How far the device's clock is ahead.
    public var offset: Duration
    /// How much faster it runs (100 ppm is 0.0001).
    public var drift: Double

    /// A device clock `offset` ahead, running `drift` fast.
    public init(offset: Duration, drift: Double) {
        self.offset = offset
        self.drift = drift
    }

    /// What the device's clock reads at simulated time `time`.
    public func read(_ time: Duration) -> Duration {
        time + offset + .nanoseconds(Int64(time.seconds * 1e9 * drift))
    }
}

/// Participants of a watch-together session on one seeded hub, on simulated time, for
/// tests and `groupwire simulate --watch`: each behind a reliable delivery layer, with a
/// device clock of its own, a ``SimulatedPlayer`` with its own drift, and a
/// `PlaybackCoordinator`. Not thread-safe: one task drives it.
public final class WatchParty: @unchecked Sendable {
    /// The hub the participants talk over.
    public let hub: InProcessHub
    /// The simulated time every layer reads.
    public let clock: VirtualClock
    /// The participants, in the order they were connected.
    public private(set) var members: [Member] = []
    /// Every coordinator's configuration.
    public let configuration: PlaybackConfiguration

    /// One participant.
    public struct Member: Sendable {
        /// Its participant id.
        public let id: ParticipantID
        /// Its device clock.
        public let device: DeviceClock
        /// Its player.
        public let player: SimulatedPlayer
        /// Its session coordinator.
        public let sessions: SharedSessionCoordinator
        /// The session it joined.
        public let session: SharedSession<WatchActivity>
        /// Its playback coordinator.
        public let playback: PlaybackCoordinator
    }

    /// A party on a hub that loses `drop` of the copies and delays each by `delay`.
    public init(
        seed: UInt64, delay: ClosedRange<Duration> = .milliseconds(5) ... .milliseconds(50), drop: Double = 0.05,
        configuration: PlaybackConfiguration = PlaybackConfiguration()
    ) {
        clock = VirtualClock()
        hub = InProcessHub(plan: .unreliable(seed: seed, drop: drop, delay: delay), clock: clock)
        self.configuration = configuration
    }

    /// Connects participants 1 ... `devices.count` (each with its device clock and a player
    /// running its drift fast), activates the session on the first, joins everyone, and
    /// then starts each one's playback coordinator.
    public func start(devices: [DeviceClock], playerDrifts: [Double]) async throws {
        // Built with the hub's gauge set, so every step waits until each participant's
        // layers and coordinator have handled what it delivered (SettleGauge).
        try await SettleGauge.$current.withValue(hub.gauge) {
            try await connectEveryone(devices: devices, playerDrifts: playerDrifts)
        }
    }

    private func connectEveryone(devices: [DeviceClock], playerDrifts: [Double]) async throws {
        var pending: [(ParticipantID, SharedSessionCoordinator, Inbox)] = []
        for number in 1...devices.count { pending.append(try await connect(UInt64(number))) }
        try await run(until: "eligibility") { pending[0].1.stateObserver.isEligibleForGroupSession }
        try pending[0].1.activate(WatchActivity(film: "film"))
        var sessions: [SharedSession<WatchActivity>] = []
        for (index, (_, _, inbox)) in pending.enumerated() {
            try await run(until: "participant \(index + 1)'s session") { !inbox.sessions.isEmpty }
            guard let session = inbox.sessions.first else { throw WatchPartyError(description: "no session") }
            try session.join()
            sessions.append(session)
        }
        try await run(until: "everyone in the session") { sessions.allSatisfy { $0.activeParticipants.count == devices.count } }
        for (index, (id, coordinator, _)) in pending.enumerated() {
            try begin(id, coordinator, sessions[index], device: devices[index], playerDrift: playerDrifts[index])
        }
    }

    /// Connects participant `number` late: it receives the running session and joins it.
    public func add(_ number: UInt64, device: DeviceClock, playerDrift: Double) async throws {
        try await SettleGauge.$current.withValue(hub.gauge) {
            try await connectLate(number, device: device, playerDrift: playerDrift)
        }
    }

    private func connectLate(_ number: UInt64, device: DeviceClock, playerDrift: Double) async throws {
        let (id, coordinator, inbox) = try await connect(number)
        try await run(until: "participant \(number)'s session") { !inbox.sessions.isEmpty }
        guard let session = inbox.sessions.first else { throw WatchPartyError(description: "no session") }
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
    public func advance(by duration: Duration, limit: Duration = .milliseconds(100)) async throws {
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
    public func run(until what: String, _ condition: () -> Bool) async throws {
        let start = clock.elapsed
        try await hub.settle()
        while !condition() {
            guard clock.elapsed - start < .seconds(600) else {
                throw WatchPartyError(description: "not within ten simulated minutes: \(what)")
            }
            try await advance(by: .milliseconds(10))
        }
    }

    /// The group clock's reading at simulated time `time`: participant 1's device clock (it
    /// has the smallest id and starts the clock).
    public func groupTime(at time: Duration) -> Duration { members[0].device.read(time) }
}

/// The sessions a participant received.
final class Inbox: Sendable {
    private let received = Mutex<[SharedSession<WatchActivity>]>([])
    func add(_ session: SharedSession<WatchActivity>) { received.withLock { $0.append(session) } }
    var sessions: [SharedSession<WatchActivity>] { received.withLock { $0 } }
}

/// A watch party that did not reach a state in time.
public struct WatchPartyError: Error, CustomStringConvertible {
    /// What did not happen.
    public let description: String
}

/// The timelines the group went through, in stamp order, as the coordinators took them.
public final class TimelineHistory: @unchecked Sendable {
    /// The timelines, oldest stamp first.
    public private(set) var timelines: [PlaybackTimeline] = []

    /// An empty history.
    public init() {}

    /// Records the newest timeline any member holds now.
    public func record(_ party: WatchParty) {
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
    public func expected(at time: Duration) -> Double? {
        timelines.last { $0.groupTime <= time }?.expectedTime(at: time)
    }
}
