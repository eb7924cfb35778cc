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
    /// reliable and ordered, the timer for acknowledgements and retransmission.
    ///
    /// With `GROUPWIRE_CAPTURE` set, `base` is wrapped in a ``CapturingTransport`` first, so
    /// the frames are captured as they travel (delivery headers and acknowledgements too).
    public init(over base: any Transport, configuration: DeliveryConfiguration = DeliveryConfiguration()) {
        let base = CapturingTransport.fromEnvironment(base)
        self.base = base
        self.configuration = configuration
        let clock = configuration.clock ?? base.clock
        self.clock = clock
        isPassThrough = base.guarantees.deliveryMode == .reliable
        let core = Core(engine: DeliveryEngine(configuration: configuration))
        self.core = core
        guard !isPassThrough else {
            events = base.events
            tasks = []
            return
        }
        let (events, continuation) = AsyncStream<TransportEvent>.makeStream()
        self.events = events
        let incoming = base.events
        let receiving = Task {
            for await event in incoming {
                let outputs = core.handle(event, now: clock.now())
                await core.perform(outputs, base: base, continuation: continuation)
            }
            core.close()
            continuation.finish()
        }
        let period = configuration.maxAckDelay
        let ticking = Task {
            var next = clock.now() + period
            while !Task.isCancelled {
                do { try await clock.sleep(next) } catch { return }
                let now = clock.now()
                next = max(next + period, now)
                let outputs = core.tick(now: now)
                await core.perform(outputs, base: base, continuation: continuation)
            }
        }
        tasks = [receiving, ticking]
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
        let outputs = try await core.prepare(frames, to: recipients, mode: mode, configuration: configuration, clock: clock)
        if let failure = await core.send(outputs, mode: mode, base: base, waits: true) {
            throw failure
        }
    }
}

extension DeliveryTransport {
    /// The engine behind one lock, and the senders waiting for room.
    final class Core: Sendable {
        private struct State {
            var engine: DeliveryEngine
            var waiters: [UInt64: CheckedContinuation<Void, Never>] = [:]
            var nextWaiter: UInt64 = 0
            var isClosed = false
            /// Frames to send, in the order the engine numbered their copies, and whether a
            /// task is sending them now.
            var outbox = Deque<Outgoing>()
            var isSending = false
            /// Senders waiting until the task sending for them has sent their last frame
            /// (by token), and the tokens whose frames went before their sender waited.
            var sent: [UInt64: CheckedContinuation<Void, Never>] = [:]
            var sentEarly: Set<UInt64> = []
            var nextToken: UInt64 = 0

            mutating func takeWaiters() -> [CheckedContinuation<Void, Never>] {
                defer { waiters.removeAll() }
                return Array(waiters.values)
            }
        }

        /// A frame for the transport underneath, and the mode it goes in.
        private struct Outgoing {
            let bytes: [UInt8]
            let recipient: ParticipantID
            let mode: DeliveryMode
            /// Set on the last frame of a send that waits for it to go.
            var token: UInt64?
        }

        private let state: Mutex<State>

        init(engine: DeliveryEngine) {
            state = Mutex(State(engine: engine))
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

        /// Handles an event of the transport underneath; wakes waiting senders when it
        /// made room.
        func handle(_ event: TransportEvent, now: Duration) -> [DeliveryEngine.Output] {
            let (outputs, waiters) = state.withLock { state in
                let before = state.engine.statistics.bufferedBytes
                let outputs: [DeliveryEngine.Output]
                switch event {
                case .joined(let participant): outputs = state.engine.joined(participant, now: now)
                case .left(let participant): outputs = state.engine.left(participant)
                case .message(let message): outputs = state.engine.receive(message, now: now)
                }
                let freed = state.engine.statistics.bufferedBytes < before
                return (outputs, freed || !state.waiters.isEmpty && event.isLeft ? state.takeWaiters() : [])
            }
            for waiter in waiters { waiter.resume() }
            return outputs
        }

        /// One timer tick; wakes waiting senders when a removal made room.
        func tick(now: Duration) -> [DeliveryEngine.Output] {
            let (outputs, waiters) = state.withLock { state in
                let before = state.engine.statistics.bufferedBytes
                let outputs = state.engine.tick(now: now)
                return (outputs, state.engine.statistics.bufferedBytes < before ? state.takeWaiters() : [])
            }
            for waiter in waiters { waiter.resume() }
            return outputs
        }

        /// Yields what the engine handed up, and sends what it asked to send, in order.
        func perform(_ outputs: [DeliveryEngine.Output], base: any Transport,
                     continuation: AsyncStream<TransportEvent>.Continuation) async {
            for output in outputs {
                switch output {
                case .send:
                    break
                case .deliver(let message):
                    continuation.yield(.message(message))
                case .removed(let participant), .left(let participant):
                    continuation.yield(.left(participant))
                case .joined(let participant):
                    continuation.yield(.joined(participant))
                }
            }
            // A lost acknowledgement or copy is covered by the next one, or by a probe.
            _ = await send(outputs, mode: .reliable, base: base)
        }

        /// Sends the frames among `outputs` in the order the engine gave them, whichever
        /// task's outputs they are: loss detection judges copies by the order it numbered
        /// them, so the layer's tasks (the app's sends, acknowledgements, the timer) must
        /// not overtake each other on the way down. The first task to find nobody sending
        /// sends everything queued, its own frames and those queued meanwhile.
        /// - Returns: `transportClosed` if the transport underneath closed while this task
        ///   was sending; other failures are not reported (reliable frames are kept and sent
        ///   again; an unreliable frame is lost, as its mode allows).
        ///
        /// With `waits` (an app's send), a task that finds another sending waits until its
        /// frames went, so a fast app is held back by the transport as before and the queue
        /// stays bounded; the layer's own tasks do not wait (what they send is bounded by
        /// the frames kept).
        func send(_ outputs: [DeliveryEngine.Output], mode: DeliveryMode, base: any Transport, waits: Bool = false) async -> WireError? {
            let (mustSend, token) = state.withLock { state -> (Bool, UInt64?) in
                let start = state.outbox.count
                for case .send(let bytes, let recipient) in outputs {
                    state.outbox.append(Outgoing(bytes: bytes, recipient: recipient, mode: mode))
                }
                guard state.outbox.count > start else { return (false, nil) }
                guard state.isSending else {
                    state.isSending = true
                    return (true, nil)
                }
                guard waits else { return (false, nil) }
                state.nextToken += 1
                state.outbox[state.outbox.count - 1].token = state.nextToken
                return (false, state.nextToken)
            }
            if let token {
                await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                    let now = state.withLock { state -> Bool in
                        if state.sentEarly.remove(token) != nil { return true }
                        state.sent[token] = continuation
                        return false
                    }
                    if now { continuation.resume() }
                }
            }
            guard mustSend else { return nil }
            var failure: WireError?
            while true {
                let batch = state.withLock { state -> [Outgoing] in
                    let batch = Array(state.outbox)
                    state.outbox.removeAll(keepingCapacity: true)
                    if batch.isEmpty { state.isSending = false }
                    return batch
                }
                guard !batch.isEmpty else { return failure }
                for frame in batch {
                    do {
                        // Unreliable frames take the transport's own unreliable mode where
                        // it has one (the platform messenger's): no point in its
                        // retransmitting them.
                        if frame.mode == .reliable {
                            try await base.send(frame.bytes, to: .only([frame.recipient]))
                        } else {
                            try await base.send([frame.bytes], to: .only([frame.recipient]), mode: frame.mode)
                        }
                    } catch where error.kind == .transportClosed {
                        failure = error
                    } catch {
                    }
                    if let token = frame.token {
                        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
                            guard let waiter = state.sent.removeValue(forKey: token) else {
                                state.sentEarly.insert(token)
                                return nil
                            }
                            return waiter
                        }
                        waiter?.resume()
                    }
                }
            }
        }

        /// Numbers the frames, waiting for room as configured.
        func prepare(_ frames: [[UInt8]], to recipients: Recipients, mode: DeliveryMode,
                     configuration: DeliveryConfiguration, clock: TimerClock) async throws(WireError) -> [DeliveryEngine.Output] {
            while true {
                let now = clock.now()
                let attempt: Result<DeliveryEngine.Prepared, WireError> = state.withLock { state in
                    guard !state.isClosed else {
                        return .failure(WireError(.transportClosed, "the delivery layer's transport closed"))
                    }
                    let targets = recipients.participants.map { Array($0) } ?? state.engine.reachable
                    do throws(WireError) {
                        return .success(try state.engine.prepare(frames, to: targets, mode: mode, now: now,
                                                                 failWhenFull: configuration.whenFull == .fail))
                    } catch {
                        return .failure(error)
                    }
                }
                switch attempt {
                case .failure(let error):
                    throw error
                case .success(.ready(let outputs)):
                    return outputs
                case .success(.needsRoom):
                    try await waitForRoom()
                }
            }
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
                return state.takeWaiters()
            }
            for waiter in waiters { waiter.resume() }
        }
    }
}

extension TransportEvent {
    /// Whether this is a departure.
    fileprivate var isLeft: Bool {
        if case .left = self { return true }
        return false
    }
}
