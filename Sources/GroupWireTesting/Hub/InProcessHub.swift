import GroupWire
import GroupWireSession

/// Connects participants in one process, with injected faults, in real time or on a
/// virtual clock.
///
/// Sending schedules each copy of a message for delivery according to the hub's
/// ``FaultPlan``; copies arrive in order of delivery time, ties in send order.
///
/// - **Real time** (`InProcessHub()`, the default): a copy without delay arrives at once,
///   a delayed one when its time comes, as over a network. The endpoints' `Transport/clock`
///   is the system's, so a messenger, delivery layer or session over them needs no clock.
/// - **Virtual time** (`InProcessHub(clock: VirtualClock())`), for tests: nothing arrives
///   until the test moves time (``advance(by:)``, ``step(by:patience:)``, ``runUntilIdle()``). The
///   endpoints' `Transport/clock` reads the virtual clock, so every layer above them
///   (a `DeliveryTransport`, a `Messenger`, its negotiation and reassembly) sets its timers
///   on the same simulated time without being given it. Because time is simulated and faults
///   are seeded per link, a test replays exactly: same seed, same sends, same deliveries.
///
/// Joins and leaves reach the other participants at once, as `TransportEvent/joined(_:)`
/// and `TransportEvent/left(_:)`; a participant that joins first hears of everyone
/// already connected. Copies already on their way from a participant that leaves are
/// still delivered, as on a real network.
public actor InProcessHub {
    /// The faults injected on every link.
    public nonisolated let plan: FaultPlan
    /// The largest message the hub carries.
    public nonisolated let maxMessageSize: Int
    /// The hub's simulated time; nil when the hub runs in real time.
    public nonisolated let clock: VirtualClock?
    /// The time the hub's endpoints give the layers above them (`Transport/clock`): the
    /// virtual clock's, or the system's in real time.
    public nonisolated let timerClock: TimerClock
    /// What the hub did to the messages so far.
    public private(set) var statistics = FaultStatistics()
    /// The queues between the tasks of the system on this hub that ``settle(patience:)``
    /// also waits for: those made while `SettleGauge.current` is this gauge.
    package nonisolated let gauge = SettleGauge()

    private struct Member {
        let number: UInt64
        let mailbox: EventMailbox
    }

    private struct Scheduled {
        let due: Duration
        let sequence: UInt64
        let recipient: ParticipantID
        let message: TransportMessage
    }

    private var members: [ParticipantID: Member] = [:]
    /// The members in the order they joined (the order copies are handed out in).
    private var ordered: [(id: ParticipantID, member: Member)] = []
    /// Real time, a reliable plan and no delay: every copy is due the moment it is sent, so
    /// it goes straight to its recipient's mailbox, in send order, with nothing scheduled.
    private let deliversAtOnce: Bool
    private var joined: UInt64 = 0
    private var injectors: [UInt64: FaultInjector] = [:]
    private var scheduled: [Scheduled] = []
    private var nextSequence: UInt64 = 0
    private var isClosed = false
    /// In real time: the task that delivers the next delayed copy, and when it wakes.
    private var timer: (task: Task<Void, Never>, due: Duration)?

    /// Creates a hub.
    /// - Parameters:
    ///   - plan: the faults to inject; by default a reliable link without delay.
    ///   - maxMessageSize: the largest message carried, 65,536 bytes by default (the
    ///     platform messenger's first limit).
    ///   - clock: the simulated time the hub schedules deliveries on; nil (the default)
    ///     runs the hub in real time. The endpoints hand it to the layers above them.
    public init(plan: FaultPlan = .reliable(), maxMessageSize: Int = 65_536, clock: VirtualClock? = nil) {
        self.plan = plan
        self.maxMessageSize = maxMessageSize
        self.clock = clock
        timerClock = clock.map { TimerClock($0) } ?? .continuous
        deliversAtOnce = clock == nil && plan.mode == .reliable && plan.delay == .zero ... .zero
    }

    /// The hub's time now: the virtual clock's, or real time since the hub was made.
    public nonisolated var elapsed: Duration { timerClock.now() }

    /// What every endpoint of the hub promises.
    public nonisolated var guarantees: TransportGuarantees {
        let reliable = plan.mode == .reliable
        return TransportGuarantees(isReliable: reliable, isOrdered: reliable, maxMessageSize: maxMessageSize)
    }

    /// Connects a participant.
    /// - Throws: `WireError.Kind.alreadyJoined` when it is connected already,
    ///   `WireError.Kind.transportClosed` after ``close()``.
    public func join(_ participant: ParticipantID) throws(WireError) -> HubEndpoint {
        guard !isClosed else { throw WireError(.transportClosed, "the hub is closed") }
        guard members[participant] == nil else {
            throw WireError(.alreadyJoined, "participant \(participant) is already connected")
        }
        let mailbox = EventMailbox()
        for (other, member) in members.sorted(by: { $0.value.number < $1.value.number }) {
            mailbox.yield(.joined(other))
            member.mailbox.yield(.joined(participant))
        }
        members[participant] = Member(number: joined, mailbox: mailbox)
        ordered.append((participant, Member(number: joined, mailbox: mailbox)))
        joined += 1
        return HubEndpoint(hub: self, localParticipant: participant, events: mailbox.stream, mailbox: mailbox)
    }

    /// Disconnects a participant: its stream finishes, copies still on the way to it are
    /// lost, and every other participant hears that it left.
    public func leave(_ participant: ParticipantID) {
        guard let member = members.removeValue(forKey: participant) else { return }
        ordered.removeAll { $0.id == participant }
        member.mailbox.finish(reason: "\(participant) left the hub")
        scheduled.removeAll { $0.recipient == participant }
        for other in members.values.sorted(by: { $0.number < $1.number }) {
            other.mailbox.yield(.left(participant))
        }
    }

    /// The connected participants.
    public var participants: Set<ParticipantID> { Set(members.keys) }

    /// The number of copies scheduled but not yet delivered.
    public var inFlightCount: Int { scheduled.count }

    /// When the next copy on its way arrives (nil when none is): a driver of simulated time
    /// steps to it so that what arrives is read at its own instant.
    public var nextDelivery: Duration? { scheduled.map(\.due).min() }

    /// Schedules one message from `source` to each recipient.
    func route(_ bytes: [UInt8], from source: ParticipantID, to recipients: Recipients) throws(WireError) {
        guard !isClosed, let sender = members[source] else {
            throw WireError(.transportClosed, "participant \(source) is not connected")
        }
        guard bytes.count <= maxMessageSize else {
            throw WireError(
                .messageTooLarge, "message of \(bytes.count) bytes is over the transport's \(maxMessageSize)-byte limit")
        }
        let now = elapsed
        if deliversAtOnce {
            for (recipient, member) in ordered where recipient != source && recipients.includes(recipient) {
                statistics.sent += 1
                statistics.delivered += 1
                member.mailbox.yield(.message(TransportMessage(source: source, bytes: bytes, arrival: now)))
            }
            return
        }
        let targets = members.filter { $0.key != source && (recipients.participants?.contains($0.key) ?? true) }
        for (recipient, member) in targets.sorted(by: { $0.value.number < $1.value.number }) {
            // safe because: member numbers are join counts, far below 2^32.
            let link = sender.number << 32 | member.number
            var injector = injectors[link] ?? FaultInjector(plan: plan, link: link)
            let decision = injector.decide(bytes, at: now)
            injectors[link] = injector
            statistics.sent += 1
            if decision.deliveries.isEmpty { statistics.dropped += 1 }
            statistics.duplicated += max(0, decision.deliveries.count - 1)
            if decision.reordered { statistics.reordered += 1 }
            for due in decision.deliveries {
                scheduled.append(
                    Scheduled(
                        due: due, sequence: nextSequence, recipient: recipient,
                        message: TransportMessage(source: source, bytes: bytes, arrival: due)))
                nextSequence += 1
            }
        }
        if clock == nil { deliverInRealTime() }
    }

    /// In real time: delivers what is due now and sets the timer for the next delayed copy.
    private func deliverInRealTime() {
        deliver(through: elapsed)
        guard let next = scheduled.map(\.due).min() else {
            timer?.task.cancel()
            timer = nil
            return
        }
        if let timer, timer.due <= next { return }
        timer?.task.cancel()
        let clock = timerClock
        timer = (
            Task { [weak self] in
                do { try await clock.sleep(next) } catch { return }
                await self?.timerFired()
            }, next
        )
    }

    private func timerFired() {
        timer = nil
        deliverInRealTime()
    }

    /// Moves simulated time forward by `duration`, delivering every copy due by then. A
    /// hub in real time ignores it: its time moves by itself.
    public func advance(by duration: Duration) {
        guard clock != nil else { return }
        deliver(through: elapsed + duration)
    }

    /// Delivers every scheduled copy, moving simulated time to the last delivery. A hub in
    /// real time ignores it: its copies arrive when their time comes.
    public func runUntilIdle() {
        guard clock != nil, let last = scheduled.map(\.due).max() else { return }
        deliver(through: last)
    }

    /// Moves simulated time forward by `duration` like ``advance(by:)``, then waits until
    /// the system has caught up with it (see ``settle(patience:)``).
    /// - Throws: ``HubSettleError`` when it has not caught up within `patience` of real time.
    public func step(by duration: Duration, patience: Duration = .seconds(120)) async throws {
        advance(by: duration)
        try await settle(patience: patience)
    }

    /// Waits until everything the hub delivered has been taken by its readers (a
    /// participant's events that nobody reads are not waited for), every timer that
    /// simulated time woke has started running again, and every queue registered with the
    /// hub's gauge has been handled: those between the tasks of a system built with the
    /// gauge set (the delivery layers' events and sends, the messengers' streams and the
    /// tasks reading them, and the playback coordinators' timers until a timer whose
    /// instant came did that instant's work), as a ``WatchParty`` builds its participants.
    ///
    /// This is what a loop that drives simulated time does after each step, so that a
    /// machine busy with other work cannot make time run ahead of the tasks it wakes (timers
    /// firing on acknowledgements that simply have not been read yet). It waits for those
    /// events, not for a length of real time.
    /// - Parameter patience: the real time after which it gives up, so that a reader that
    ///   stopped reading fails the test instead of hanging it.
    /// - Throws: ``HubSettleError`` naming who had not caught up.
    public func settle(patience: Duration = .seconds(120)) async throws {
        let deadline = ContinuousClock.now + patience
        var pause = Duration.microseconds(50)
        while true {
            // Give the woken tasks a turn before looking.
            await Task.yield()
            let behind = members.filter { !$0.value.mailbox.isTaken }.map(\.key)
            let woken = clock?.wokenCount ?? 0
            let queues = behind.isEmpty && woken == 0 ? gauge.unsettled : 0
            if behind.isEmpty && woken == 0 && queues == 0 { return }
            guard ContinuousClock.now < deadline else {
                var waits: [String] = []
                if !behind.isEmpty { waits.append("the readers of \(behind.map(\.description).sorted())") }
                if woken > 0 { waits.append("\(woken) woken timers") }
                if queues > 0 { waits.append("\(queues) queues not yet handled") }
                throw HubSettleError(
                    description: "after \(patience) the hub still waits for \(waits.joined(separator: ", "))")
            }
            // A poll interval: the wait ends on the state above, not on this pause.
            try await Task.sleep(for: pause)
            pause = min(pause * 2, .milliseconds(5))
        }
    }

    /// Disconnects everyone: every stream finishes after the copies already delivered.
    public func close() {
        isClosed = true
        for member in members.values {
            member.mailbox.finish(reason: "the hub closed")
        }
        members.removeAll()
        ordered.removeAll()
        scheduled.removeAll()
        timer?.task.cancel()
        timer = nil
    }

    private func deliver(through time: Duration) {
        let due = scheduled.filter { $0.due <= time }.sorted { ($0.due, $0.sequence) < ($1.due, $1.sequence) }
        scheduled.removeAll { $0.due <= time }
        for copy in due {
            clock?.advance(to: copy.due)
            guard let member = members[copy.recipient] else { continue }
            member.mailbox.yield(.message(copy.message))
            statistics.delivered += 1
        }
        clock?.advance(to: time)
    }
}

/// The system did not catch up with the hub's simulated time within the patience given.
public struct HubSettleError: Error, CustomStringConvertible, Sendable {
    /// Who had not caught up.
    public let description: String
}
