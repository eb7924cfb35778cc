import DequeModule
import GroupWire
import Synchronization

/// A transport with both delivery modes over any transport (Spec/FORMAT.md, "Delivery").
///
/// Over a transport that loses, duplicates or reorders messages (the platform's unreliable
/// mode, UDP, the fault-injecting hub) it numbers every frame per recipient, keeps
/// reliable frames until they are acknowledged and sends them again when they are not,
/// and delivers what it receives in each sender's order, exactly once
/// (``DeliveryMode/reliable``), or at most once (``DeliveryMode/unreliable``). A recipient
/// whose acknowledgements stop for ``DeliveryConfiguration/peerTimeout`` is reported as
/// gone (``TransportEvent/left(_:)``, ``DeliveryStatistics/removedPeers``) and nothing more
/// is kept for it. Over a transport that is reliable and ordered already it adds nothing.
///
/// ```swift
/// let transport = DeliveryTransport(over: endpoint)
/// let messenger = Messenger(transport: transport)
/// try await messenger.send(stroke)                       // reliable
/// try await messenger.send(cursor, mode: .unreliable)    // at most once
/// ```
public final class DeliveryTransport: Transport {
    /// The transport underneath.
    public let base: any Transport
    /// The bounds and timers.
    public let configuration: DeliveryConfiguration
    /// Whether the layer adds nothing because `base` is reliable and ordered.
    public let isPassThrough: Bool
    /// Messages in each sender's order, exactly once for reliable frames, and membership;
    /// finishes when the transport underneath closes.
    public let events: AsyncStream<TransportEvent>

    private let core: Core
    private let tasks: [Task<Void, Never>]

    /// Creates the layer over `base` and starts reading its events and, unless `base` is
    /// reliable and ordered, the timer for acknowledgements and retransmission. The timer
    /// sets no deadline while nothing is owed or kept, so an idle session does not wake
    /// its device every ``DeliveryConfiguration/maxAckDelay``.
    ///
    /// A `base` that captures (GroupWireCapture's `capturing(to:)`) records the frames as
    /// they travel, delivery headers and acknowledgements too.
    public init(over base: any Transport, configuration: DeliveryConfiguration = DeliveryConfiguration()) {
        self.base = base
        self.configuration = configuration
        let clock = configuration.clock ?? base.clock
        self.clock = clock
        isPassThrough = base.guarantees.deliveryMode == .reliable
        let core = Core(engine: DeliveryEngine(configuration: configuration), clock: clock)
        self.core = core
        guard !isPassThrough else {
            events = base.events
            tasks = []
            return
        }
        // A mailbox rather than an AsyncStream, so a simulation's settle can wait until the
        // reader above has handled what this layer delivered (SettleGauge).
        let mailbox = EventMailbox()
        SettleGauge.current?.watch(core)
        self.events = mailbox.stream
        let incoming = base.events
        let receiving = Task {
            for await event in incoming {
                let outputs = core.handle(event, now: clock.now())
                core.perform(outputs, into: mailbox)
            }
            core.close()
            mailbox.finish(reason: "the transport beneath closed")
        }
        // Frames reach the transport in the order the engine numbered the copies: an app's
        // send sends its own when nobody is sending, and the layer's few frames queued
        // while it did (Core.drain); everything else goes through this task, so no task of
        // the layer waits on the transport for another's frames.
        let sending = Task {
            while let batch = await core.nextBatch() {
                await core.send(batch, base: base)
            }
        }
        let period = configuration.maxAckDelay
        let ticking = Task {
            var next = clock.now() + period
            while !Task.isCancelled {
                core.timerSleeps(until: next)
                do { try await clock.sleep(next) } catch { return }
                let now = clock.now()
                next = max(next + period, now)
                let outputs = core.tick(now: now)
                core.perform(outputs, into: mailbox)
                // A period with nothing for a tick to do: no timer until work comes. The
                // first tick after it is half a period later, so an acknowledgement owed
                // for a lone frame leaves well within maxAckDelay, with room for a late timer.
                if let woken = await core.waitForTimedWork() { next = woken + period / 2 }
            }
        }
        tasks = [receiving, ticking, sending]
    }

    deinit {
        for task in tasks { task.cancel() }
        core.close()
    }

    /// This participant.
    public var localParticipant: ParticipantID { base.localParticipant }

    /// Reliable and ordered, with the transport's message size less the delivery header.
    public var guarantees: TransportGuarantees {
        let size = base.guarantees.maxMessageSize - (isPassThrough ? 0 : DeliveryHeader.maxEncodedSize)
        return TransportGuarantees(isReliable: true, isOrdered: true, maxMessageSize: size)
    }

    /// The room of the transport beneath.
    public var roomName: String { base.roomName }

    /// The time the layer's timers read: its configuration's clock, else the transport's.
    public let clock: TimerClock

    /// Why the transport beneath closed.
    public var closeReason: String? { base.closeReason }

    /// What the layer did so far.
    public var statistics: DeliveryStatistics { core.statistics }

    /// How many ``send(_:to:mode:)`` calls are waiting for room in the retransmission
    /// buffer now (``DeliveryConfiguration/whenFull`` `.wait`).
    public var sendsWaitingForRoom: Int { core.waitingSends }

    /// Sends `bytes` reliably.
    /// - Throws: as ``send(_:to:mode:)``.
    public func send(_ bytes: [UInt8], to recipients: Recipients) async throws(WireError) {
        try await send([bytes], to: recipients, mode: .reliable)
    }

    /// Sends the frames of one message in `mode`. Reliable: the frames are kept for each
    /// recipient until acknowledged; when they do not fit its buffer, this waits for room
    /// or throws, as ``DeliveryConfiguration/whenFull`` says, before any frame is sent.
    /// - Throws: `WireError.Kind.messageTooLarge` for a frame over ``guarantees``' size;
    ///   `WireError.Kind.bufferFull` for a message larger than the buffer, or when full
    ///   and not waiting; `WireError.Kind.transportClosed` once the transport underneath
    ///   closed or the waiting task was cancelled.
    public func send(_ frames: [[UInt8]], to recipients: Recipients, mode: DeliveryMode) async throws(WireError) {
        let limit = guarantees.maxMessageSize
        for frame in frames where frame.count > limit {
            throw WireError(.messageTooLarge, "message of \(frame.count) bytes is over the transport's \(limit)-byte limit")
        }
        guard !isPassThrough else {
            try await base.send(frames, to: recipients, mode: mode)
            return
        }
        guard let queued = try await core.prepare(frames, to: recipients, mode: mode, configuration: configuration, clock: clock)
        else {
            return
        }
        let failure = queued.drains ? await core.drain(queued.token, base: base) : await core.sent(queued.token)
        if let failure { throw failure }
    }
}

extension DeliveryTransport {
    /// The engine behind one lock, and the senders waiting for room.
    final class Core: SettleProbe {
        private struct State {
            var engine: DeliveryEngine
            var waiters: [UInt64: CheckedContinuation<Void, Never>] = [:]
            var nextWaiter: UInt64 = 0
            var isClosed = false
            /// Frames to send, in the order the engine numbered their copies, and whether a
            /// task is sending them now.
            var outbox = Deque<Outgoing>()
            /// Whether a task holds the sending role: an app's send sending its own frames
            /// (those queued before them, and a few of the layer's queued after them), or the
            /// layer's sending task (`senderWake`).
            var isSending = false
            var senderWake = false
            /// The sending task, waiting to be woken.
            var idle: CheckedContinuation<Void, Never>?
            /// Whether the timer task waits for work rather than the clock (the engine had
            /// nothing a tick could do), its continuation, and the time of the work that
            /// woke it, kept until it sleeps on the clock again.
            var timerWaits = false
            var timerIdle: CheckedContinuation<Void, Never>?
            var timerWokenAt: Duration?
            /// When the timer's next tick is due, kept until that tick is done; nil while
            /// the timer waits for work.
            var timerDeadline: Duration?
            /// Whether the latest tick had anything to do.
            var tickFoundWork = true
            /// Senders waiting until their last frame went (by token), and the tokens whose
            /// frames went before their sender waited, with what sending them met.
            var sent: [UInt64: CheckedContinuation<Void, Never>] = [:]
            var sentEarly: [UInt64: WireError?] = [:]
            var failures: [UInt64: WireError] = [:]
            var nextToken: UInt64 = 0

            /// Queues the frames among `outputs`, in order. `token` (an app's send): the last
            /// frame carries a new token, and the send sends them itself when nobody is
            /// sending (`drains`). The layer's own frames wake the sending task when nobody
            /// is sending (returned to resume), so no task of the layer ever sends for others;
            /// while an app's send is sending they wait for it, which carries a few (`drain`).
            mutating func enqueue(_ outputs: [DeliveryEngine.Output], mode: DeliveryMode, token: Bool)
                -> (token: UInt64?, drains: Bool, wake: CheckedContinuation<Void, Never>?)
            {
                let start = outbox.count
                for case .send(let bytes, let recipient) in outputs {
                    outbox.append(Outgoing(bytes: bytes, recipient: recipient, mode: mode))
                }
                guard outbox.count > start else { return (nil, false, nil) }
                var issued: UInt64?
                if token {
                    nextToken += 1
                    outbox[outbox.count - 1].token = nextToken
                    issued = nextToken
                }
                guard !isSending else { return (issued, false, nil) }
                isSending = true
                if token { return (issued, true, nil) }
                return (nil, false, wakeSender())
            }

            mutating func takeWaiters() -> [CheckedContinuation<Void, Never>] {
                defer { waiters.removeAll() }
                return Array(waiters.values)
            }

            /// Wakes the timer task if it waits for work and the engine now has some.
            mutating func wakeTimer(now: Duration) -> CheckedContinuation<Void, Never>? {
                guard timerWaits, engine.needsTimer else { return nil }
                timerWaits = false
                timerWokenAt = now
                defer { timerIdle = nil }
                return timerIdle
            }

            /// Gives the sending role to the layer's sending task.
            mutating func wakeSender() -> CheckedContinuation<Void, Never>? {
                senderWake = true
                defer { idle = nil }
                return idle
            }
        }

        /// A frame for the transport underneath, and the mode it goes in.
        struct Outgoing: Sendable {
            let bytes: [UInt8]
            let recipient: ParticipantID
            let mode: DeliveryMode
            /// Set on the last frame of a send that waits for it to go.
            var token: UInt64?
        }

        private let state: Mutex<State>
        /// The time the layer's timer reads.
        private let clock: TimerClock

        init(engine: DeliveryEngine, clock: TimerClock) {
            state = Mutex(State(engine: engine))
            self.clock = clock
        }

        var statistics: DeliveryStatistics {
            state.withLock { state in
                var statistics = state.engine.statistics
                statistics.paths = state.engine.paths
                return statistics
            }
        }

        /// Senders waiting for room now.
        var waitingSends: Int { state.withLock { $0.waiters.count } }

        /// Whether every frame queued has gone to the transport beneath (sends waiting for
        /// room wait for acknowledgements, which only time brings), a timer that work woke
        /// sleeps on the clock again, and a tick whose time has come is done (so it reads
        /// its own instant, not one a driver of simulated time moved on to meanwhile).
        var isSettled: Bool {
            let now = clock.now()
            return state.withLock { state in
                !state.isSending && state.timerWokenAt == nil && (state.timerDeadline.map { now < $0 } ?? true)
            }
        }

        /// The timer task is about to sleep until `deadline`.
        func timerSleeps(until deadline: Duration) {
            state.withLock { $0.timerDeadline = deadline }
        }

        /// Handles an event of the transport underneath; wakes waiting senders when it
        /// made room.
        func handle(_ event: TransportEvent, now: Duration) -> [DeliveryEngine.Output] {
            switch event {
            case .joined(let participant):
                return change(now: now, departure: false) { $0.joined(participant, now: now) }
            case .left(let participant):
                return change(now: now, departure: true) { $0.left(participant) }
            case .message(let message):
                // Read before the lock: the app's sends wait only for what changes the engine.
                let read = DeliveryEngine.read(message)
                return change(now: now, departure: false) { $0.receive(message, read: read, now: now) }
            }
        }

        /// Changes the engine under the lock as an event asks; queues what it sends and
        /// wakes waiting senders when it made room (or, on a `departure`, whenever any wait).
        private func change(
            now: Duration, departure: Bool, _ body: (inout DeliveryEngine) -> [DeliveryEngine.Output]
        ) -> [DeliveryEngine.Output] {
            let (outputs, waiters) = state.withLock { state in
                let before = state.engine.statistics.bufferedBytes
                let outputs = body(&state.engine)
                let freed = state.engine.statistics.bufferedBytes < before
                var waiters = freed || !state.waiters.isEmpty && departure ? state.takeWaiters() : []
                if let sender = state.enqueue(outputs, mode: .reliable, token: false).wake { waiters.append(sender) }
                if let timer = state.wakeTimer(now: now) { waiters.append(timer) }
                return (outputs, waiters)
            }
            for waiter in waiters { waiter.resume() }
            return outputs
        }

        /// One timer tick; wakes waiting senders when a removal made room.
        func tick(now: Duration) -> [DeliveryEngine.Output] {
            let (outputs, waiters) = state.withLock { state in
                state.tickFoundWork = state.engine.needsTimer
                let before = state.engine.statistics.bufferedBytes
                let outputs = state.engine.tick(now: now)
                var waiters = state.engine.statistics.bufferedBytes < before ? state.takeWaiters() : []
                if let sender = state.enqueue(outputs, mode: .reliable, token: false).wake { waiters.append(sender) }
                return (outputs, waiters)
            }
            for waiter in waiters { waiter.resume() }
            return outputs
        }

        /// Yields what the engine handed up (what it asked to send is queued already).
        func perform(_ outputs: [DeliveryEngine.Output], into mailbox: EventMailbox) {
            for output in outputs {
                switch output {
                case .send:
                    break
                case .deliver(let message):
                    mailbox.yield(.message(message))
                case .removed(let participant), .left(let participant):
                    mailbox.yield(.left(participant))
                case .joined(let participant):
                    mailbox.yield(.joined(participant))
                }
            }
        }

        /// For the sending task: the frames queued, in order, once it holds the sending role
        /// and there are any (it gives the role up when nothing is left); nil once the layer
        /// closed and nothing is left.
        func nextBatch() async -> [Outgoing]? {
            while true {
                let batch = state.withLock { state -> [Outgoing]? in
                    if state.senderWake || state.isClosed {
                        if !state.outbox.isEmpty {
                            defer { state.outbox.removeAll(keepingCapacity: true) }
                            return Array(state.outbox)
                        }
                        if state.isClosed { return nil }
                        state.senderWake = false
                        state.isSending = false
                    }
                    return []
                }
                guard let batch else { return nil }
                if !batch.isEmpty { return batch }
                await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                    let now = state.withLock { state -> Bool in
                        guard !state.senderWake, !state.isClosed else { return true }
                        state.idle = continuation
                        return false
                    }
                    if now { continuation.resume() }
                }
            }
        }

        /// For the timer task after a tick: when that tick found nothing to do and the
        /// engine still has nothing a tick could do (``DeliveryEngine/needsTimer``), waits
        /// until an event or a send gives it some and returns that moment; nil at once
        /// otherwise, or once the layer closed. A stream that owes an acknowledgement at
        /// every tick (a frame every few milliseconds) keeps the timer's period, so its
        /// acknowledgements stay one per period.
        func waitForTimedWork() async -> Duration? {
            let waits = state.withLock { state -> Bool in
                guard !state.isClosed, !state.tickFoundWork, !state.engine.needsTimer else { return false }
                state.timerWaits = true
                state.timerDeadline = nil
                return true
            }
            guard waits else { return nil }
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let now = state.withLock { state -> Bool in
                    guard state.timerWaits, !state.isClosed else { return true }
                    state.timerIdle = continuation
                    return false
                }
                if now { continuation.resume() }
            }
            return state.withLock { state in
                state.timerWaits = false
                defer { state.timerWokenAt = nil }
                return state.timerWokenAt
            }
        }

        /// For an app's send that holds the sending role: sends what is queued (its own
        /// frames and those before them), then what the layer queued meanwhile (repairs,
        /// acknowledgements, frames the window let out: at most ``carriedFrames`` in all),
        /// and gives the role to the sending task if more came, or another send's frames,
        /// so an app's send never sends for others for long. Carrying the layer's few
        /// frames spares a wake-up of the sending task and the app's next send a wait for it.
        /// - Returns: `transportClosed` if the transport closed under its frames.
        func drain(_ token: UInt64, base: any Transport) async -> WireError? {
            let batch = state.withLock { state -> [Outgoing] in
                defer { state.outbox.removeAll(keepingCapacity: true) }
                return Array(state.outbox)
            }
            let failure = await send(batch, base: base, own: token)
            var carried = 0
            while let more = carry(after: carried) {
                carried += more.count
                await send(more, base: base)
            }
            return failure
        }

        /// For an app's send that sent its frames and `carried` of the layer's after them:
        /// the layer's frames queued since, if they are few enough to carry too; otherwise
        /// nil, and the sending role goes to the sending task (more frames, or another
        /// send's) or is given up (none).
        private func carry(after carried: Int) -> [Outgoing]? {
            let (batch, sender) = state.withLock { state -> ([Outgoing]?, CheckedContinuation<Void, Never>?) in
                guard !state.senderWake else { return (nil, nil) }
                guard !state.outbox.isEmpty else {
                    state.isSending = false
                    return (nil, nil)
                }
                guard carried + state.outbox.count <= Self.carriedFrames, state.outbox.allSatisfy({ $0.token == nil }) else {
                    return (nil, state.wakeSender())
                }
                defer { state.outbox.removeAll(keepingCapacity: true) }
                return (Array(state.outbox), nil)
            }
            sender?.resume()
            return batch
        }

        /// The most frames of the layer's own an app's send carries after its own.
        static let carriedFrames = 32

        /// Hands `batch` to the transport in order and tells each waiting send that its
        /// frames went. A frame that fails is not retried here: a reliable one is kept and
        /// sent again by loss detection, an unreliable one is lost, as its mode allows.
        /// - Parameter own: the token of the send that sends this batch itself (its last
        ///   frame is in it): what sending that frame met is returned instead of booked.
        /// - Returns: `transportClosed` if the transport closed under the frame with `own`.
        @discardableResult
        func send(_ batch: [Outgoing], base: any Transport, own: UInt64? = nil) async -> WireError? {
            var ownFailure: WireError?
            for frame in batch {
                var failure: WireError?
                do {
                    // Unreliable frames take the transport's own unreliable mode where it has
                    // one (the platform messenger's): no point in its retransmitting them.
                    if frame.mode == .reliable {
                        try await base.send(frame.bytes, to: .only([frame.recipient]))
                    } else {
                        try await base.send([frame.bytes], to: .only([frame.recipient]), mode: frame.mode)
                    }
                } catch  where error.kind == .transportClosed {
                    failure = error
                } catch {
                }
                guard let token = frame.token else { continue }
                guard token != own else {
                    ownFailure = failure
                    continue
                }
                let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
                    guard let waiter = state.sent.removeValue(forKey: token) else {
                        state.sentEarly.updateValue(failure, forKey: token)
                        return nil
                    }
                    if let failure { state.failures[token] = failure }
                    return waiter
                }
                waiter?.resume()
            }
            return ownFailure
        }

        /// Waits until the frames of the send with `token` went to the transport (a fast app
        /// is held back by the transport as before, and the queue stays bounded); returns
        /// `transportClosed` if the transport closed under them.
        func sent(_ token: UInt64) async -> WireError? {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let now = state.withLock { state -> Bool in
                    if state.sentEarly[token] != nil {
                        return true
                    }
                    guard !state.isClosed else { return true }
                    state.sent[token] = continuation
                    return false
                }
                if now { continuation.resume() }
            }
            return state.withLock { state in
                if let early = state.sentEarly.removeValue(forKey: token) { return early }
                if let failure = state.failures.removeValue(forKey: token) { return failure }
                return state.isClosed ? WireError(.transportClosed, "the delivery layer's transport closed") : nil
            }
        }

        /// Numbers the frames, waiting for room as configured, and queues what goes now;
        /// returns the token of its last frame and whether this send sends them itself
        /// (nil: nothing to send now).
        func prepare(
            _ frames: [[UInt8]], to recipients: Recipients, mode: DeliveryMode,
            configuration: DeliveryConfiguration, clock: TimerClock
        ) async throws(WireError) -> (token: UInt64, drains: Bool)? {
            while true {
                let now = clock.now()
                // Numbered and queued under one lock, so copies reach the sending task in the
                // order the engine numbered them, whichever task numbered them.
                let attempt: Result<Prepared, WireError> = state.withLock { state in
                    guard !state.isClosed else {
                        return .failure(WireError(.transportClosed, "the delivery layer's transport closed"))
                    }
                    let targets = recipients.participants.map { Array($0) } ?? state.engine.reachable
                    do throws(WireError) {
                        switch try state.engine.prepare(
                            frames, to: targets, mode: mode, now: now,
                            failWhenFull: configuration.whenFull == .fail)
                        {
                        case .ready(let outputs):
                            let queued = state.enqueue(outputs, mode: mode, token: true)
                            let timer = state.wakeTimer(now: now)
                            return .success(Prepared(ready: true, token: queued.token, drains: queued.drains, timer: timer))
                        case .needsRoom:
                            return .success(Prepared(ready: false, token: nil, drains: false, timer: nil))
                        }
                    } catch {
                        return .failure(error)
                    }
                }
                switch attempt {
                case .failure(let error):
                    throw error
                case .success(let prepared) where prepared.ready:
                    prepared.timer?.resume()
                    return prepared.token.map { ($0, prepared.drains) }
                case .success:
                    try await waitForRoom()
                }
            }
        }

        /// What one attempt of ``prepare(_:to:mode:configuration:clock:)`` found: whether the
        /// frames fit, the token of their last frame and whether the send sends them
        /// itself, and the timer task to wake (it waited for work).
        private struct Prepared {
            let ready: Bool
            let token: UInt64?
            let drains: Bool
            let timer: CheckedContinuation<Void, Never>?
        }

        /// Suspends until acknowledgements, a departure or a removal may have made room.
        private func waitForRoom() async throws(WireError) {
            let token = state.withLock { state in
                state.nextWaiter += 1
                return state.nextWaiter
            }
            await withTaskCancellationHandler {
                await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                    let resumeNow = state.withLock { state -> Bool in
                        guard !Task.isCancelled, !state.isClosed else { return true }
                        state.waiters[token] = continuation
                        return false
                    }
                    if resumeNow { continuation.resume() }
                }
            } onCancel: {
                let waiter = state.withLock { $0.waiters.removeValue(forKey: token) }
                waiter?.resume()
            }
            if Task.isCancelled {
                throw WireError(.transportClosed, "the send was cancelled while it waited for room")
            }
        }

        /// Closes: waiting senders resume and fail.
        func close() {
            let waiters = state.withLock { state in
                state.isClosed = true
                var waiters = state.takeWaiters() + Array(state.sent.values)
                state.sent.removeAll()
                if let sender = state.idle { waiters.append(sender) }
                state.idle = nil
                if let timer = state.timerIdle { waiters.append(timer) }
                state.timerIdle = nil
                return waiters
            }
            for waiter in waiters { waiter.resume() }
        }
    }
}
