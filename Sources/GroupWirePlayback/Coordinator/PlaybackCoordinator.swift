import GroupWire
import GroupWireSession
import Synchronization

/// Keeps a player in step with everyone else's in a shared session, as a watch-together
/// app needs (Spec/PLAYBACK.md): every device plays the media itself, and only the group's
/// timeline travels.
///
/// - **Changes from anyone**: ``play()``, ``pause()``, ``seek(to:)``, ``setRate(_:)`` and
///   ``load(item:at:)`` make a new ``PlaybackTimeline`` that takes effect
///   ``PlaybackConfiguration/commandLead`` from now on the group clock, on every
///   participant at the same group instant. Of two changes, the one with the greater
///   stamp (Lamport clock, then author) wins everywhere.
/// - **A shared clock**: each participant estimates the group clock from clock exchanges
///   with the group's timekeeper (the participant with the smallest id), so a change's
///   instant means the same moment everywhere whatever each message's delay
///   (``GroupClockEstimate``).
/// - **Suspensions**: a participant whose player cannot follow (stalled, interrupted, the
///   user scrubbing) begins a suspension, which the others see with its reason
///   (``suspendedParticipants``); by the configuration's policy the group waits (pauses
///   until it ends) or goes on without it.
/// - **Correction**: every ``PlaybackConfiguration/correctionInterval`` the player's
///   position is compared with the timeline's: a small gap is closed by a slight change
///   of rate, a large one by a seek.
///
/// Its messages (Spec/Playback.gwspec) travel in the session beside the app's own: the
/// timeline and suspensions reliably, the clock exchanges unreliably.
public final class PlaybackCoordinator: Sendable {
    /// This participant.
    public let localParticipant: ParticipantID
    private let player: any CoordinatedPlayer
    private let configuration: PlaybackConfiguration
    private let reliable: SharedSessionMessenger
    private let unreliable: SharedSessionMessenger
    private let clock: TimerClock
    private let localClock: @Sendable () -> Duration
    private let state: Mutex<State>
    private let tasks = Mutex<[Task<Void, Never>]>([])
    /// Its timers, for a driver of simulated time (nil otherwise, see `SettleTimers`).
    private let timers: SettleTimers?
    private let updates: AsyncStream<PlaybackCoordinatorEvent>.Continuation
    /// The timeline and suspension changes, as they happen here.
    public let events: AsyncStream<PlaybackCoordinatorEvent>

    private struct State {
        /// The newest timeline, which may not have reached its instant yet.
        var timeline: PlaybackTimeline?
        /// The timeline the player follows now.
        var effective: PlaybackTimeline?
        /// The stamp of the last timeline the player was moved to.
        var acted: PlaybackTimeline.Stamp?
        var item: String?
        var lamport: UInt64 = 0
        var estimate = GroupClockEstimate()
        /// This participant started the group's clock (it was alone when it started).
        var origin: Bool
        var participants: Set<ParticipantID>
        var suspensions: [ParticipantID: (reason: PlaybackSuspensionReason, sequence: UInt64)] = [:]
        var suspensionSequences: [ParticipantID: UInt64] = [:]
        var localSuspension: PlaybackSuspensionReason?
        var suspensionSequence: UInt64 = 0
        var rateBeforeWait = 1.0
        var clockSequence: UInt64 = 0
        var outstanding: [UInt64: (sent: Duration, to: ParticipantID)] = [:]
        /// The participant this one estimates the group clock from.
        var reference: ParticipantID?
        /// The reference changed: the estimate starts again at its first answer.
        var restartEstimate = false
        /// Whose answers the estimate holds (nil while it holds none).
        var estimateSource: ParticipantID?
        /// Participants known to have the group clock (they answered a request).
        var answered: Set<ParticipantID> = []
        /// Requests sent to each participant while looking for a reference, and when the last.
        var probes: [ParticipantID: Int] = [:]
        var probedAt: [ParticipantID: Duration] = [:]
        var nextExchange: Duration = .zero
        var statistics = PlaybackStatistics()
        var stopped = false
    }

    /// A coordinator for `session`'s playback, driving `player`.
    /// - Parameters:
    ///   - session: a joined session; the coordinator sends and receives in it.
    ///   - player: the player to keep in step.
    ///   - configuration: thresholds and policies.
    ///   - clock: the clock its timers sleep on (a test's virtual one); the system's by default.
    ///   - localClock: this device's clock, read for the clock exchanges and the timeline
    ///     (a simulation's skewed one); `clock`'s by default.
    /// - Throws: `duplicateTypeID` when the session's messenger already uses one of the
    ///   playback messages' type ids for another type.
    public init<Activity: SharedActivity>(
        session: SharedSession<Activity>, player: any CoordinatedPlayer,
        configuration: PlaybackConfiguration = PlaybackConfiguration(), clock: TimerClock = .continuous,
        localClock: (@Sendable () -> Duration)? = nil
    ) throws(WireError) {
        localParticipant = session.localParticipant
        self.player = player
        self.configuration = configuration
        reliable = session.messenger(deliveryMode: .reliable)
        unreliable = session.messenger(deliveryMode: .unreliable)
        self.clock = clock
        timers = SettleTimers.watched(on: clock)
        self.localClock = localClock ?? clock.now
        let others = session.activeParticipants.subtracting([session.localParticipant])
        state = Mutex(State(origin: others.isEmpty, participants: others))
        (events, updates) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(256))
        let timelines = try reliable.messages(of: PlaybackTimelineMessage.self)
        let suspensions = try reliable.messages(of: PlaybackSuspensionMessage.self)
        let requests = try unreliable.messages(of: PlaybackClockRequest.self)
        let replies = try unreliable.messages(of: PlaybackClockReply.self)
        let stateRequests = try reliable.messages(of: PlaybackStateRequest.self)
        let participants = session.activeParticipantUpdates
        let playerEvents = player.events
        // Started in a group: what was said before this coordinator listened is asked for.
        if !others.isEmpty {
            let reliable = self.reliable
            start([Task { _ = try? await reliable.send(PlaybackStateRequest()) }])
        }
        // The tick's timer is registered before its task starts, so a driver of simulated
        // time waits for a task slow to start as for one slow to finish.
        let firstTick = clock.now() + configuration.correctionInterval
        let tickTimer = timers?.add(at: firstTick)
        start([
            Task { [weak self] in
                for await set in participants {
                    guard let self else { return }
                    await self.participantsChanged(set)
                }
            },
            Task { [weak self] in
                for await (message, context) in timelines {
                    guard let self else { return }
                    self.received(message, from: context.source)
                }
            },
            Task { [weak self] in
                for await (_, context) in stateRequests {
                    guard let self else { return }
                    await self.started(context.source)
                    await self.tell([context.source])
                }
            },
            Task { [weak self] in
                for await (message, context) in suspensions {
                    guard let self else { return }
                    await self.received(message, from: context.source)
                }
            },
            Task { [weak self] in
                for await (message, context) in requests {
                    guard let self else { return }
                    await self.received(message, from: context.source)
                }
            },
            Task { [weak self] in
                for await (message, context) in replies {
                    guard let self else { return }
                    self.received(message, from: context.source)
                }
            },
            Task { [weak self] in
                for await event in playerEvents {
                    guard let self else { return }
                    switch event {
                    case .stalled: try? await self.beginSuspension(.stallRecovery)
                    case .recovered: try? await self.endSuspension()
                    case .userSeeked(let time): try? await self.seek(to: time)
                    case .userChangedRate(let rate): try? await self.setRate(rate)
                    }
                }
            },
            Task { [weak self, clock, timers, interval = configuration.correctionInterval] in
                var next = firstTick
                defer { if let tickTimer { timers?.done(tickTimer) } }
                while !Task.isCancelled {
                    if let tickTimer { timers?.move(tickTimer, to: next) }
                    guard (try? await clock.sleep(next)) != nil, let self else { return }
                    next += interval
                    await self.tick()
                }
            },
        ])
    }

    private func start(_ started: [Task<Void, Never>]) {
        tasks.withLock { $0 += started }
    }

    /// Stops coordinating: the player is left as it is.
    public func stop() {
        state.withLock { $0.stopped = true }
        pendingInstant.withLock { $0?.cancel() }
        for task in tasks.withLock({ $0 }) { task.cancel() }
        updates.finish()
    }

    deinit {
        pendingInstant.withLock { $0?.cancel() }
        for task in tasks.withLock({ $0 }) { task.cancel() }
    }

    // MARK: What the app reads

    /// The newest timeline (nil until anyone has played anything).
    public var timeline: PlaybackTimeline? { state.withLock { $0.timeline } }

    /// The participants whose players are suspended now, with the reason (this one's too).
    public var suspendedParticipants: [ParticipantID: PlaybackSuspensionReason] {
        state.withLock { state in
            var all = state.suspensions.mapValues(\.reason)
            if let local = state.localSuspension { all[localParticipant] = local }
            return all
        }
    }

    /// The group clock's time now, as this participant estimates it; nil until its first
    /// clock exchange (unless it started the group's clock).
    public var groupTime: Duration? { state.withLock { groupTime($0) } }

    /// Where the group's item should be at group instant `time` (nil before any timeline).
    public func expectedTime(at time: Duration) -> Double? {
        state.withLock { state in
            guard let timeline = state.timeline else { return nil }
            let current = timeline.groupTime <= time ? timeline : (state.effective ?? timeline)
            return current.expectedTime(at: time)
        }
    }

    /// Whether this participant's player follows the group: it has the group clock and has
    /// been moved to a timeline (a participant that just started has not, for a moment).
    public var isSynchronized: Bool { state.withLock { clocked($0) && $0.acted != nil } }

    /// This participant's estimate of the group clock.
    public var clockEstimate: GroupClockEstimate { state.withLock { $0.estimate } }

    /// The participant whose clock this one estimates the group clock from (nil for the
    /// timekeeper, and while looking for one).
    public var clockReference: ParticipantID? { state.withLock { $0.reference } }

    /// What it sent and dropped so far.
    public var statistics: PlaybackStatistics { state.withLock { $0.statistics } }

    // MARK: Changes

    /// Plays at rate 1 from where the group is.
    /// - Throws: `noGroupClock` before this participant has the group clock (nothing is
    ///   changed or sent then), or what the session's messenger throws when sending
    ///   (`sendFailed`, `notJoined`, `invalidated`); every change below throws these too.
    public func play() async throws(SharedSessionError) {
        try await change(.play) { timeline, _ in timeline.rate = 1 }
    }

    /// Pauses where the group is at the change's instant (rounded to
    /// ``PlaybackConfiguration/pauseGranularity``).
    /// - Throws: `noGroupClock` or a sending error, as ``play()``.
    public func pause() async throws(SharedSessionError) {
        let granularity = configuration.pauseGranularity
        try await change(.pause) { timeline, _ in
            timeline.rate = 0
            if let granularity, granularity > 0 {
                timeline.mediaTime = (timeline.mediaTime / granularity).rounded() * granularity
            }
        }
    }

    /// Moves the group to `time` seconds (below 0: 0), at the rate it has.
    /// - Throws: `outOfRange` for a time past 10^9 s or not a number, and nothing is sent;
    ///   `noGroupClock` or a sending error, as ``play()``.
    public func seek(to time: Double) async throws(SharedSessionError) {
        try Self.check(time: time)
        try await change(.seek) { timeline, _ in timeline.mediaTime = max(0, time) }
    }

    /// Plays at `rate` (0 pauses; below 0: 0).
    /// - Throws: `outOfRange` for a rate above 16 or not a number, and nothing is sent;
    ///   `noGroupClock` or a sending error, as ``play()``.
    public func setRate(_ rate: Double) async throws(SharedSessionError) {
        guard !rate.isNaN, rate <= Self.maxRate else {
            throw SharedSessionError(.outOfRange, session: nil, "rate \(rate) is outside 0 ... \(Self.maxRate)")
        }
        try await change(rate <= 0 ? .pause : .rate) { timeline, _ in timeline.rate = max(0, rate) }
    }

    /// Loads `item` for the group at `time` seconds (below 0: 0), paused.
    /// - Throws: `outOfRange` for a time past 10^9 s or not a number, or an item name over
    ///   1,024 bytes of UTF-8, and nothing is sent; `noGroupClock` or a sending error, as ``play()``.
    public func load(item: String?, at time: Double = 0) async throws(SharedSessionError) {
        try Self.check(time: time)
        if let item, item.utf8.count > Self.maxItemBytes {
            throw SharedSessionError(
                .outOfRange, session: nil, "the item name takes \(item.utf8.count) bytes, over \(Self.maxItemBytes)")
        }
        try await change(.item) { timeline, _ in
            timeline.item = item
            timeline.mediaTime = max(0, time)
            timeline.rate = 0
        }
    }

    /// The largest rate, position and item name every receiver takes (Spec/PLAYBACK.md,
    /// "Checks"): a change past them would be this participant's alone.
    static let maxRate = 16.0
    static let maxMediaTime = 1e9
    static let maxItemBytes = 1_024

    private static func check(time: Double) throws(SharedSessionError) {
        guard !time.isNaN, time <= maxMediaTime else {
            throw SharedSessionError(.outOfRange, session: nil, "time \(time) s is outside 0 ... \(maxMediaTime) s")
        }
    }

    /// Makes a timeline from the group's one at now plus the lead, changed by `edit`, and
    /// sends it to everyone.
    /// - Throws: `noGroupClock` before this participant has the group clock (nothing is sent).
    private func change(
        _ kind: PlaybackTimeline.Change, _ edit: (inout PlaybackTimeline, State) -> Void
    ) async throws(SharedSessionError) {
        let timeline = try state.withLock { (state) throws(SharedSessionError) -> PlaybackTimeline in
            guard let now = groupTime(state) else {
                throw SharedSessionError(
                    .noGroupClock, session: nil, "this participant has no group clock yet, so its change has no instant")
            }
            let instant = now + configuration.commandLead
            state.lamport += 1
            let current = state.timeline
            var next = PlaybackTimeline(
                item: current?.item, rate: current?.rate ?? 0, mediaTime: current?.expectedTime(at: instant) ?? 0,
                groupTime: instant, stamp: .init(clock: state.lamport, author: localParticipant), change: kind)
            edit(&next, state)
            return next
        }
        adopt(timeline)
        state.withLock { $0.statistics.timelinesSent += 1 }
        try await reliable.send(PlaybackTimelineMessage(timeline))
    }

    // MARK: Suspensions

    /// Begins a suspension for `reason`: the player stops being corrected, the others see
    /// it, and if the reason is one that makes the group wait (and the group is small
    /// enough), the group pauses until it ends.
    public func beginSuspension(_ reason: PlaybackSuspensionReason) async throws(SharedSessionError) {
        let (sequence, wait) = state.withLock { state -> (UInt64, Bool) in
            state.localSuspension = reason
            state.suspensionSequence += 1
            let waits =
                configuration.suspensionReasonsThatTriggerWaiting.contains(reason)
                && state.participants.count + 1 <= configuration.participantLimitForWaitingOutSuspensions
                && (state.timeline?.rate ?? 0) != 0
            return (state.suspensionSequence, waits)
        }
        updates.yield(.suspension(localParticipant, reason))
        state.withLock { $0.statistics.suspensionsSent += 1 }
        try await reliable.send(PlaybackSuspensionMessage(reason: reason.name, active: true, sequence: sequence))
        if wait {
            try await change(.wait) { timeline, state in
                timeline.rate = 0
            }
        }
    }

    /// Ends this participant's suspension. With `time`, the group moves there (the user
    /// scrubbed to it); after a wait, the group goes on when no one else it waits for is
    /// still suspended.
    public func endSuspension(proposing time: Double? = nil) async throws(SharedSessionError) {
        let sequence = state.withLock { state -> UInt64? in
            guard state.localSuspension != nil else { return nil }
            state.localSuspension = nil
            state.suspensionSequence += 1
            return state.suspensionSequence
        }
        guard let sequence else { return }
        updates.yield(.suspension(localParticipant, nil))
        state.withLock { $0.statistics.suspensionsSent += 1 }
        try await reliable.send(PlaybackSuspensionMessage(reason: "", active: false, sequence: sequence))
        try await resumeIfNobodyWaits(proposing: time)
    }

    /// After a wait that no suspension holds any more: plays on (at `time` if given).
    private func resumeIfNobodyWaits(proposing time: Double?) async throws(SharedSessionError) {
        let resume = state.withLock { state -> Double? in
            guard state.timeline?.change == .wait, !waiting(state) else { return nil }
            return state.rateBeforeWait
        }
        if let rate = resume {
            try await change(.resume) { timeline, _ in
                timeline.rate = rate
                if let time { timeline.mediaTime = max(0, time) }
            }
        } else if let time {
            try await seek(to: time)
        }
    }

    /// Whether a suspension that makes the group wait is active (anyone's).
    private func waiting(_ state: State) -> Bool {
        let reasons = configuration.suspensionReasonsThatTriggerWaiting
        return state.localSuspension.map(reasons.contains) ?? false
            || state.suspensions.values.contains { reasons.contains($0.reason) }
    }

    // MARK: What arrives

    private func received(_ message: PlaybackTimelineMessage, from source: ParticipantID) {
        guard let timeline = PlaybackTimeline(message) else {
            state.withLock { $0.statistics.rejected += 1 }
            return
        }
        adopt(timeline)
    }

    /// Takes `timeline` if it is newer than the one here; a change whose instant is ahead
    /// is applied at that instant.
    private func adopt(_ timeline: PlaybackTimeline) {
        let (taken, delay) = state.withLock { state -> (Bool, Duration?) in
            state.lamport = max(state.lamport, timeline.stamp.clock)
            if let current = state.timeline, current.stamp >= timeline.stamp { return (false, nil) }
            if timeline.change == .wait, let current = state.timeline, current.rate != 0 {
                state.rateBeforeWait = current.rate
            }
            if let current = state.timeline, current.groupTime <= (groupTime(state) ?? .zero) {
                state.effective = current
            }
            state.timeline = timeline
            guard state.origin || state.estimate.isEstimated else { return (true, nil) }
            let local =
                state.origin && !state.estimate.isEstimated
                ? timeline.groupTime : state.estimate.localTime(atGroup: timeline.groupTime)
            return (true, local - localClock())
        }
        guard taken else { return }
        updates.yield(.timeline(timeline))
        if let delay, delay > .zero {
            // One timer for the newest timeline's instant: a newer timeline replaces it, so
            // a peer's stream of changes (or one set centuries ahead) holds one task, not many.
            let (clock, timers) = (self.clock, self.timers)
            let deadline = clock.now() + delay
            let timer = timers?.add(at: deadline)
            let task = Task { [weak self] in
                defer { if let timer { timers?.done(timer) } }
                guard (try? await clock.sleep(deadline)) != nil, let self else { return }
                self.correct()
            }
            pendingInstant.withLock { pending in
                pending?.cancel()
                pending = task
            }
        } else {
            correct()
        }
    }

    /// The timer set for the newest timeline's instant, if it has not come yet.
    private let pendingInstant = Mutex<Task<Void, Never>?>(nil)

    private func received(_ message: PlaybackSuspensionMessage, from source: ParticipantID) async {
        let change = state.withLock { state -> PlaybackSuspensionReason?? in
            guard message.sequence > state.suspensionSequences[source] ?? 0, message.reason.utf8.count <= 256 else {
                state.statistics.rejected += 1
                return nil
            }
            state.suspensionSequences[source] = message.sequence
            if message.active {
                let reason = PlaybackSuspensionReason(message.reason)
                state.suspensions[source] = (reason, message.sequence)
                return .some(reason)
            }
            state.suspensions[source] = nil
            return .some(nil)
        }
        guard let change else { return }
        updates.yield(.suspension(source, change))
    }

    private func received(_ message: PlaybackClockRequest, from source: ParticipantID) async {
        let arrived = localClock()
        let answer = state.withLock { state -> PlaybackClockReply? in
            guard clocked(state), let received = groupTime(state, at: arrived), let sent = groupTime(state) else { return nil }
            state.statistics.clockRepliesSent += 1
            return PlaybackClockReply(
                sequence: message.sequence, requestSentAt: message.sentAt, receivedAt: received.nanoseconds,
                sentAt: sent.nanoseconds)
        }
        guard let answer else { return }
        _ = try? await unreliable.send(answer, to: .only([source]))
    }

    private func received(_ message: PlaybackClockReply, from source: ParticipantID) {
        let arrived = localClock()
        let first = state.withLock { state -> Bool in
            guard let (sent, target) = state.outstanding.removeValue(forKey: message.sequence),
                sent.nanoseconds == message.requestSentAt, target == source
            else {
                state.statistics.rejected += 1
                return false
            }
            state.answered.insert(source)
            // The smallest id known to have the clock is the reference: a smaller one than
            // the reference so far takes over, and the estimate starts again from it.
            if !clocked(state) || source < (state.reference ?? localParticipant) {
                if let from = state.estimateSource, from != source { state.restartEstimate = true }
                state.reference = source
            }
            guard state.reference == source else { return false }
            // A new reference: the old estimate serves until its first answer, then goes.
            if state.restartEstimate {
                state.restartEstimate = false
                state.estimate = GroupClockEstimate()
            }
            let wasEstimated = state.estimate.isEstimated
            guard
                state.estimate.add(
                    t1: sent, t2: .nanoseconds(message.receivedAt), t3: .nanoseconds(message.sentAt), t4: arrived)
            else {
                state.statistics.rejected += 1
                return false
            }
            state.estimateSource = source
            return !wasEstimated
        }
        // The first estimate: a timeline that arrived before it can now be placed in time.
        if first { correct() }
    }

    private func participantsChanged(_ set: Set<ParticipantID>) async {
        let others = set.subtracting([localParticipant])
        let (newcomers, timeline, suspension, resume) = state.withLock {
            state -> (Set<ParticipantID>, PlaybackTimeline?, PlaybackSuspensionMessage?, Bool) in
            let newcomers = others.subtracting(state.participants)
            // One that left forgets its count too: a coordinator it starts again counts from 1.
            for gone in state.participants.subtracting(others) {
                state.suspensions[gone] = nil
                state.suspensionSequences[gone] = nil
            }
            state.participants = others
            let suspension = state.localSuspension.map {
                PlaybackSuspensionMessage(reason: $0.name, active: true, sequence: state.suspensionSequence)
            }
            // A wait nobody holds any more (the suspended one left): the smallest id goes on.
            let resume =
                state.timeline?.change == .wait && !waiting(state) && others.allSatisfy { localParticipant < $0 }
            return (newcomers, state.timeline, suspension, resume)
        }
        // Whoever joins learns the timeline and the suspensions from everyone (the newest wins).
        if !newcomers.isEmpty { await tell(newcomers, timeline, suspension) }
        if resume { try? await resumeIfNobodyWaits(proposing: nil) }
    }

    /// A coordinator of `source` started (it asks for the state): what its predecessor said
    /// is forgotten, its suspension and its count, since the new one counts from 1; a wait
    /// that only that suspension held ends.
    private func started(_ source: ParticipantID) async {
        let (ended, resume) = state.withLock { state -> (Bool, Bool) in
            state.suspensionSequences[source] = nil
            let ended = state.suspensions.removeValue(forKey: source) != nil
            let resume =
                ended && state.timeline?.change == .wait && !waiting(state)
                && state.participants.allSatisfy { localParticipant < $0 }
            return (ended, resume)
        }
        if ended { updates.yield(.suspension(source, nil)) }
        if resume { try? await resumeIfNobodyWaits(proposing: nil) }
    }

    /// Sends `recipients` this participant's timeline and active suspension.
    private func tell(_ recipients: Set<ParticipantID>) async {
        let (timeline, suspension) = state.withLock { state in
            (
                state.timeline,
                state.localSuspension.map {
                    PlaybackSuspensionMessage(reason: $0.name, active: true, sequence: state.suspensionSequence)
                }
            )
        }
        await tell(recipients, timeline, suspension)
    }

    private func tell(
        _ recipients: Set<ParticipantID>, _ timeline: PlaybackTimeline?, _ suspension: PlaybackSuspensionMessage?
    ) async {
        if let timeline {
            state.withLock { $0.statistics.timelinesSent += 1 }
            _ = try? await reliable.send(PlaybackTimelineMessage(timeline), to: .only(recipients))
        }
        if let suspension {
            state.withLock { $0.statistics.suspensionsSent += 1 }
            _ = try? await reliable.send(suspension, to: .only(recipients))
        }
    }

    // MARK: Time

    /// The group clock now (or at local time `local`), nil while unknown.
    private func groupTime(_ state: State, at local: Duration? = nil) -> Duration? {
        let now = local ?? localClock()
        if state.estimate.isEstimated { return state.estimate.groupTime(atLocal: now) }
        return state.origin ? now : nil
    }

    /// Whether this participant has the group clock: it started it, or estimates it.
    private func clocked(_ state: State) -> Bool { state.origin || state.estimate.isEstimated }

    /// Whom to ask for the group clock next (nil: nobody, this participant keeps it).
    ///
    /// The reference is the smallest id among the participants known to have the clock
    /// (they answered a request): chains of estimates stay one link long. Without one,
    /// a participant probes the others in order of id, round after round; if none
    /// has answered after each was probed three times and its own id is the smallest, it
    /// starts the group clock itself. A participant with the clock and no smaller one known
    /// to have it is the timekeeper; it probes the smaller ids every 30 s, in case one
    /// started a clock too (then it follows that one).
    private func exchangeTarget(_ state: inout State, now: Duration) -> ParticipantID? {
        let known = state.answered.intersection(state.participants)
        if let smallest = known.min(), !clocked(state) || smallest < localParticipant || state.reference == smallest {
            if state.reference != smallest {
                // A new reference: its clock may differ from the old one's by the old one's
                // error; the estimate starts again from its answers (also when the old one
                // left before: the samples are still its).
                if let from = state.estimateSource, from != smallest { state.restartEstimate = true }
                state.reference = smallest
            }
            return smallest
        }
        state.reference = nil
        // Nobody answered three rounds of probes: the smallest id starts the group's clock.
        if !clocked(state), state.participants.allSatisfy({ (state.probes[$0] ?? 0) >= 3 && localParticipant < $0 }) {
            state.origin = true
        }
        let candidates = state.participants.filter { !clocked(state) || $0 < localParticipant }.sorted()
        // Round after round while looking; now and then once it has the clock.
        let again: Duration = clocked(state) ? .seconds(30) : configuration.clockBurstInterval * candidates.count
        if let next = candidates.first(where: { (state.probedAt[$0].map { now - $0 >= again } ?? true) }) {
            state.probedAt[next] = now
            state.probes[next, default: 0] += 1
            return next
        }
        return nil
    }

    /// Each correction interval: a clock exchange when one is due, and the player compared.
    private func tick() async {
        let now = localClock()
        let request = state.withLock { state -> (PlaybackClockRequest, ParticipantID)? in
            guard !state.stopped, now >= state.nextExchange, let target = exchangeTarget(&state, now: now) else { return nil }
            state.clockSequence += 1
            let burst = state.clockSequence <= UInt64(configuration.clockBurst) || !clocked(state)
            let settling = state.reference != nil && state.estimate.uncertainty > configuration.clockSettledUncertainty
            state.nextExchange =
                now
                + (burst
                    ? configuration.clockBurstInterval
                    : settling ? configuration.clockSettlingInterval : configuration.clockInterval)
            state.outstanding[state.clockSequence] = (now, target)
            if state.outstanding.count > 64, let oldest = state.outstanding.keys.min() { state.outstanding[oldest] = nil }
            state.statistics.clockRequestsSent += 1
            return (PlaybackClockRequest(sequence: state.clockSequence, sentAt: now.nanoseconds), target)
        }
        if let (message, target) = request {
            _ = try? await unreliable.send(message, to: .only([target]))
        }
        correct()
    }

    /// Moves the player toward where the timeline says it should be now.
    private func correct() {
        enum Action {
            case none
            case load(String?, Double, Double)
            case move(seek: Double?, rate: Double?)
        }
        let playerTime = player.currentTime
        let playerRate = player.rate
        let action = state.withLock { state -> Action in
            guard !state.stopped, state.localSuspension == nil, let now = groupTime(state), let newest = state.timeline
            else { return .none }
            if newest.groupTime <= now { state.effective = newest }
            guard let timeline = state.effective else { return .none }
            let expected = timeline.expectedTime(at: now)
            if state.acted != timeline.stamp {
                state.acted = timeline.stamp
                if state.item != timeline.item {
                    state.item = timeline.item
                    return .load(timeline.item, expected, timeline.rate)
                }
                let gap = abs(playerTime - expected)
                return .move(seek: gap > configuration.tolerance.seconds ? expected : nil, rate: timeline.rate)
            }
            let gap = playerTime - expected
            if timeline.rate == 0 || abs(gap) >= configuration.seekThreshold.seconds {
                let seek = abs(gap) > configuration.tolerance.seconds ? expected : nil
                return .move(seek: seek, rate: playerRate == timeline.rate ? nil : timeline.rate)
            }
            var rate = timeline.rate
            if abs(gap) > configuration.tolerance.seconds {
                let adjustment = min(
                    configuration.maxRateAdjustment,
                    max(-configuration.maxRateAdjustment, gap / configuration.correctionHorizon.seconds))
                rate = timeline.rate * (1 - adjustment)
            }
            return .move(seek: nil, rate: rate == playerRate ? nil : rate)
        }
        switch action {
        case .none: break
        case .load(let item, let time, let rate):
            player.load(item: item, at: time)
            player.setRate(rate)
        case .move(let seek, let rate):
            if let seek { player.seek(to: seek) }
            if let rate { player.setRate(rate) }
        }
    }
}

/// A change a ``PlaybackCoordinator`` saw.
public enum PlaybackCoordinatorEvent: Sendable, Equatable {
    /// A newer timeline was taken (anyone's).
    case timeline(PlaybackTimeline)
    /// A participant began a suspension (with its reason) or ended it (nil).
    case suspension(ParticipantID, PlaybackSuspensionReason?)
}

/// What a ``PlaybackCoordinator`` sent and refused, for the chatter budget.
public struct PlaybackStatistics: Sendable, Equatable {
    /// Timelines sent (changes, and answers to newcomers).
    public var timelinesSent = 0
    /// Suspension messages sent.
    public var suspensionsSent = 0
    /// Clock requests sent.
    public var clockRequestsSent = 0
    /// Clock replies sent.
    public var clockRepliesSent = 0
    /// Messages refused: malformed timelines, stale suspensions, replies to no request.
    public var rejected = 0

    /// Every message it sent.
    public var sent: Int { timelinesSent + suspensionsSent + clockRequestsSent + clockRepliesSent }
}

extension Duration {
    /// The duration in whole nanoseconds (clamped to 64 bits).
    var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        let (scaled, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        guard !overflow else { return seconds < 0 ? .min : .max }
        return scaled.addingReportingOverflow(attoseconds / 1_000_000_000).overflow ? .max : scaled + attoseconds / 1_000_000_000
    }
}

extension PlaybackTimeline {
    /// The timeline a message carries; nil when a value is out of range (a rate outside
    /// 0 ... 16 or not finite, a position outside 0 ... 10^9 seconds or not finite, an item
    /// name over 1,024 bytes, an unknown change).
    init?(_ message: PlaybackTimelineMessage) {
        guard message.rate.isFinite, (0...16).contains(message.rate), message.mediaTime.isFinite,
            (0...1e9).contains(message.mediaTime), (message.item?.utf8.count ?? 0) <= 1_024,
            let change = Change(rawValue: message.change.rawValue)
        else { return nil }
        self.init(
            item: message.item, rate: message.rate, mediaTime: message.mediaTime, groupTime: .nanoseconds(message.groupTime),
            stamp: Stamp(clock: message.clock, author: ParticipantID(uuid: message.author)), change: change)
    }
}

extension PlaybackTimelineMessage {
    init(_ timeline: PlaybackTimeline) {
        self.init(
            item: timeline.item, rate: timeline.rate, mediaTime: timeline.mediaTime, groupTime: timeline.groupTime.nanoseconds,
            clock: timeline.stamp.clock, author: timeline.stamp.author.uuid,
            change: PlaybackChange(rawValue: timeline.change.rawValue))
    }
}
