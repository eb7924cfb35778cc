import Foundation
import GroupWire
import Synchronization

/// One participant's side of the group sessions carried by a ``Messenger``: it activates
/// activities, hands out a ``SharedSession`` each time an activity is started (by anyone),
/// and keeps every participant's view of the current session converging.
///
/// The session protocol (Spec/FORMAT.md, "Sessions" and "Session control") travels in
/// control frames: an activation names a new session id and carries the activity; joins,
/// leaves, activity replacements and ends refer to that id; every data frame sent in a
/// session names it in its session header. Concurrent activations and replacements
/// converge on the one with the highest Lamport stamp (clock, then participant id).
/// A participant that becomes reachable is told about the current session and who joined.
///
/// Control messages need a transport that delivers them (the in-process hub without drops,
/// a relay); over a lossy transport they need the reliable delivery mode.
public final class SharedSessionCoordinator: Sendable {
    /// The messenger sessions send and receive through.
    public let messenger: Messenger
    /// This device: one person on two devices is two participants.
    public var localParticipant: ParticipantID { messenger.transport.localParticipant }
    /// Whether a group session can be started now.
    public let stateObserver: SharedStateObserver

    private let engine: LockedEngine
    private let outbox: AsyncStream<(SessionControl, Recipients)>.Continuation
    private let sending: Task<Void, Never>
    private let decide: (@Sendable (SharedActivityMetadata, Bool) -> ActivationDecision)?
    private let newSessionID: @Sendable () -> UInt32

    /// Creates the coordinator for `messenger`'s participant.
    /// - Parameters:
    ///   - messenger: the messenger the session protocol and the sessions' messages use.
    ///   - activationDecision: overrides ``prepareForActivation(_:)``: given the activity's
    ///     metadata and whether the group is eligible, what to do.
    ///   - sessionIDs: where new session ids come from (random by default; a seeded source
    ///     makes a test replay exactly). Zero is never used.
    public init(
        messenger: Messenger,
        activationDecision: (@Sendable (SharedActivityMetadata, Bool) -> ActivationDecision)? = nil,
        sessionIDs: (@Sendable () -> UInt32)? = nil
    ) {
        self.messenger = messenger
        decide = activationDecision
        newSessionID = sessionIDs ?? { UInt32.random(in: 1...UInt32.max) }
        let observer = SharedStateObserver()
        stateObserver = observer
        let engine = LockedEngine()
        self.engine = engine
        let (stream, continuation) = AsyncStream<(SessionControl, Recipients)>.makeStream()
        outbox = continuation
        sending = Task {
            for await (control, recipients) in stream {
                try? await messenger.sendControl(control.controlID, payload: control.payload(), to: recipients)
            }
        }
        let local = messenger.transport.localParticipant
        // The snapshot of who is reachable is taken and stored before any later membership
        // change can reach the engine (both under the messenger's lock).
        messenger.observeSessionInput(
            start: { reachable in
                engine.withLock { $0.reachable = reachable }
                observer.update(!reachable.isEmpty)
            },
            { [engine, continuation, observer, weak messenger] input in
                let effects = engine.withLock { $0.handle(input, local: local) }
                Self.perform(effects, outbox: continuation, observer: observer, messenger: messenger)
            })
    }

    /// The common setup in one call: over `transport`, a ``DeliveryTransport`` (which adds
    /// the reliable and unreliable modes the transport lacks; none for a transport whose
    /// ``TransportGuarantees/deliveryMode`` is already reliable), a ``Messenger`` with
    /// `codec` and `negotiation`, and the coordinator of its sessions. The parts stay
    /// reachable: ``messenger``, and its `transport` (the delivery layer, whose
    /// `statistics` say what it did).
    ///
    /// ```swift
    /// let coordinator = try SharedSessionCoordinator(
    ///     over: transport, codec: PayloadCompressor(),
    ///     negotiation: NegotiationSettings(messages: DrawTogetherMessage.self))
    /// ```
    /// - Parameters:
    ///   - transport: the hub endpoint, relay connection or platform transport.
    ///   - codec: the compression codec (GroupWireCompression's `PayloadCompressor`), or
    ///     nil to send everything uncompressed.
    ///   - negotiation: negotiation with each peer, or nil for none.
    ///   - delivery: the delivery layer's bounds and timers (timers on the transport's clock).
    ///   - limits: what received frames and messages are checked against.
    ///   - activationDecision: overrides ``prepareForActivation(_:)`` (see
    ///     ``init(messenger:activationDecision:sessionIDs:)``).
    ///   - sessionIDs: where new session ids come from (random by default).
    public convenience init(
        over transport: any Transport, codec: (any PayloadCodec)? = nil, negotiation: NegotiationSettings? = nil,
        delivery: DeliveryConfiguration = DeliveryConfiguration(), limits: Limits = .default,
        activationDecision: (@Sendable (SharedActivityMetadata, Bool) -> ActivationDecision)? = nil,
        sessionIDs: (@Sendable () -> UInt32)? = nil
    ) {
        // A transport that already delivers reliably and in order (a delivery layer, or a
        // transport that promises it) needs no layer of its own; any other gets one.
        let layered =
            transport.guarantees.deliveryMode == .reliable
            ? transport : DeliveryTransport(over: transport, configuration: delivery)
        let messenger = Messenger(
            transport: layered,
            configuration: MessengerConfiguration(
                codec: codec, limits: limits, negotiation: negotiation))
        self.init(messenger: messenger, activationDecision: activationDecision, sessionIDs: sessionIDs)
    }

    deinit {
        outbox.finish()
    }

    // MARK: Starting activities

    /// Whether to share `activity` with the group: the app's decision when it gave one,
    /// else `activationPreferred` when the group is eligible (someone else is reachable)
    /// and `activationDisabled` when not.
    public func prepareForActivation<Activity: SharedActivity>(_ activity: Activity) -> ActivationDecision {
        let eligible = stateObserver.isEligibleForGroupSession
        if let decide { return decide(activity.activityMetadata, eligible) }
        return eligible ? .activationPreferred : .activationDisabled
    }

    /// Starts a new session of `activity` for the whole group: every participant (this one
    /// too) gets it from ``sessions(for:)`` in the `waiting` state. A session already running
    /// is invalidated (`replaced`) everywhere: this is how "clear canvas" starts afresh.
    /// - Returns: the new session's id.
    /// - Throws: ``SharedSessionError/Kind/notEligible`` unless ``prepareForActivation(_:)``
    ///   says `activationPreferred`; ``SharedSessionError/Kind/activityEncoding`` when the
    ///   activity cannot be encoded.
    @discardableResult
    public func activate<Activity: SharedActivity>(_ activity: Activity) throws(SharedSessionError) -> UInt32 {
        guard prepareForActivation(activity) == .activationPreferred else {
            throw SharedSessionError(
                .notEligible, session: nil, "activation is not preferred: nobody else is reachable, or the app declined")
        }
        let bytes = try Self.encode(activity)
        let local = localParticipant
        let (id, effects) = engine.withLock { engine -> (UInt32, [Effect]) in
            var id = newSessionID()
            while id == 0 || engine.retired.contains(id) || engine.current?.announcement.session == id {
                id = newSessionID()
            }
            let stamp = SessionStamp(clock: engine.tick(), participant: local)
            let announcement = SessionAnnouncement(
                session: id, activated: stamp, activitySet: stamp, activityIdentifier: Activity.activityIdentifier,
                metadata: activity.activityMetadata, activity: bytes)
            return (id, engine.adopt(announcement) + [.send(.activate(announcement), .all)])
        }
        Self.perform(effects, outbox: outbox, observer: stateObserver, messenger: messenger)
        return id
    }

    /// The sessions of `Activity`, as they are started by any participant; a session
    /// already current (waiting or joined) when the sequence is created comes first.
    public func sessions<Activity: SharedActivity>(for activity: Activity.Type) -> AsyncStream<SharedSession<Activity>> {
        let (stream, continuation) = AsyncStream<SharedSession<Activity>>.makeStream()
        let listener: @Sendable (SessionAnnouncement) -> Void = { [weak self] announcement in
            guard let self, let value = try? WireDecoder().decode(Activity.self, from: announcement.activity) else { return }
            continuation.yield(SharedSession(coordinator: self, id: announcement.session, activity: value))
        }
        let current = engine.withLock { engine -> SessionAnnouncement? in
            engine.nextToken += 1
            engine.listeners[Activity.activityIdentifier, default: [:]][engine.nextToken] = listener
            guard let record = engine.current, record.announcement.activityIdentifier == Activity.activityIdentifier,
                record.state == .waiting || record.state == .joined
            else { return nil }
            return record.announcement
        }
        if let current { listener(current) }
        return stream
    }

    // MARK: Session operations (SharedSession calls these)

    func state(of session: UInt32) -> SharedSessionState {
        engine.withLock { $0.state(of: session) }
    }

    func states(of session: UInt32) -> AsyncStream<SharedSessionState> {
        let (stream, continuation) = AsyncStream<SharedSessionState>.makeStream()
        let state = engine.withLock { engine -> SharedSessionState in
            let state = engine.state(of: session)
            if case .invalidated = state { return state }
            engine.nextToken += 1
            engine.stateWatchers[session, default: [:]][engine.nextToken] = continuation
            return state
        }
        continuation.yield(state)
        if case .invalidated = state { continuation.finish() }
        return stream
    }

    func activeParticipants(of session: UInt32) -> Set<ParticipantID> {
        engine.withLock { engine in
            engine.current?.announcement.session == session ? engine.current?.joined ?? [] : []
        }
    }

    func participantUpdates(of session: UInt32) -> AsyncStream<Set<ParticipantID>> {
        let (stream, continuation) = AsyncStream<Set<ParticipantID>>.makeStream()
        let current = engine.withLock { engine -> Set<ParticipantID>? in
            guard let record = engine.current, record.announcement.session == session else { return nil }
            engine.nextToken += 1
            engine.participantWatchers[session, default: [:]][engine.nextToken] = continuation
            return record.joined
        }
        if let current { continuation.yield(current) } else { continuation.finish() }
        return stream
    }

    func announcement(of session: UInt32) -> SessionAnnouncement? {
        engine.withLock { engine in
            engine.current?.announcement.session == session ? engine.current?.announcement : nil
        }
    }

    func isJoined(_ session: UInt32) -> Bool {
        state(of: session) == .joined
    }

    func join(_ session: UInt32) throws(SharedSessionError) {
        let local = localParticipant
        let effects = try engine.withLock { (engine) throws(SharedSessionError) -> [Effect] in
            guard engine.state(of: session) == .waiting else {
                throw Self.refusal(.notWaiting, session: session, state: engine.state(of: session), "join")
            }
            return engine.setLocalState(.joined, local: local) + [.send(.join(session: session), .all)]
        }
        Self.perform(effects, outbox: outbox, observer: stateObserver, messenger: messenger)
    }

    func leave(_ session: UInt32) throws(SharedSessionError) {
        let local = localParticipant
        let effects = try engine.withLock { (engine) throws(SharedSessionError) -> [Effect] in
            guard engine.state(of: session) == .joined else {
                throw Self.refusal(.notJoined, session: session, state: engine.state(of: session), "leave")
            }
            return engine.setLocalState(.invalidated(reason: .left), local: local) + [.send(.leave(session: session), .all)]
        }
        Self.perform(effects, outbox: outbox, observer: stateObserver, messenger: messenger)
    }

    func end(_ session: UInt32) throws(SharedSessionError) {
        let local = localParticipant
        let effects = try engine.withLock { (engine) throws(SharedSessionError) -> [Effect] in
            let state = engine.state(of: session)
            guard state == .waiting || state == .joined else {
                throw Self.refusal(.invalidated, session: session, state: state, "end")
            }
            let clock = engine.tick()
            return engine.retireCurrent(.ended(by: local)) + [.send(.end(session: session, clock: clock), .all)]
        }
        Self.perform(effects, outbox: outbox, observer: stateObserver, messenger: messenger)
    }

    func replaceActivity<Activity: SharedActivity>(_ session: UInt32, with activity: Activity) throws(SharedSessionError) {
        let bytes = try Self.encode(activity)
        let local = localParticipant
        let effects = try engine.withLock { (engine) throws(SharedSessionError) -> [Effect] in
            guard engine.state(of: session) == .joined, var announcement = engine.current?.announcement else {
                throw Self.refusal(.notJoined, session: session, state: engine.state(of: session), "replace the activity of")
            }
            announcement.activitySet = SessionStamp(clock: engine.tick(), participant: local)
            announcement.metadata = activity.activityMetadata
            announcement.activity = bytes
            engine.current?.announcement = announcement
            return [.send(.replace(announcement), .all)]
        }
        Self.perform(effects, outbox: outbox, observer: stateObserver, messenger: messenger)
    }

    // MARK: Helpers

    private static func encode<Activity: SharedActivity>(_ activity: Activity) throws(SharedSessionError) -> [UInt8] {
        do {
            return try WireEncoder().encode(activity)
        } catch {
            throw SharedSessionError(.activityEncoding, session: nil, "\(Activity.self) cannot be encoded: \(error)")
        }
    }

    private static func refusal(
        _ kind: SharedSessionError.Kind, session: UInt32, state: SharedSessionState, _ operation: String
    ) -> SharedSessionError {
        if case .invalidated(let reason) = state {
            return SharedSessionError(
                .invalidated, session: session, "cannot \(operation) a session invalidated (\(reason)); it is never reused")
        }
        return SharedSessionError(kind, session: session, "cannot \(operation) a session that is \(state)")
    }

    /// Performs what the engine decided, outside its lock.
    private static func perform(
        _ effects: [Effect], outbox: AsyncStream<(SessionControl, Recipients)>.Continuation, observer: SharedStateObserver,
        messenger: Messenger?
    ) {
        for effect in effects {
            switch effect {
            case .send(let control, let recipients): outbox.yield((control, recipients))
            case .notify(let listeners, let announcement): listeners.forEach { $0(announcement) }
            case .state(let watchers, let state, let finish):
                for watcher in watchers {
                    watcher.yield(state)
                    if finish { watcher.finish() }
                }
            case .participants(let watchers, let participants, let finish):
                for watcher in watchers {
                    watcher.yield(participants)
                    if finish { watcher.finish() }
                }
            case .eligibility(let eligible): observer.update(eligible)
            case .ended(let session): messenger?.endStreams(of: session)
            }
        }
    }
}

/// The engine behind a lock, shared by the coordinator and the messenger's receiving task.
final class LockedEngine: Sendable {
    private let mutex = Mutex(Engine())

    func withLock<Result, Failure: Error>(_ body: (inout Engine) throws(Failure) -> sending Result) throws(Failure)
        -> sending Result
    {
        try mutex.withLock(body)
    }
}

/// Something the engine decided, done outside its lock.
enum Effect: Sendable {
    case send(SessionControl, Recipients)
    case notify([@Sendable (SessionAnnouncement) -> Void], SessionAnnouncement)
    case state([AsyncStream<SharedSessionState>.Continuation], SharedSessionState, finish: Bool)
    case participants([AsyncStream<Set<ParticipantID>>.Continuation], Set<ParticipantID>, finish: Bool)
    case eligibility(Bool)
    /// The session is over here: its message streams finish.
    case ended(UInt32)
}
