import GroupWire
import GroupWireNegotiation
import Synchronization

/// Sends values to the other participants of a group session and delivers theirs, as
/// typed async streams: the one pipeline from value to transport and back.
///
/// Sending: the value's payload (a generated `WireMessage`, any
/// `CodableMessage`, or raw bytes under a type id) is compressed as the
/// recipient's ``PeerProfile`` says, framed, and fragmented to fit the profile and the
/// transport. Receiving: frames are decoded and checked, fragments reassembled per
/// sender, bodies decompressed within the limits, and payloads decoded by the type the
/// type id names, then yielded to every stream listening for that type.
///
/// ```swift
/// let messenger = Messenger(transport: endpoint)
/// let strokes = try messenger.messages(of: UpsertStroke.self)
/// try await messenger.send(UpsertStroke(id: id, color: .red, point: point))
/// for await (stroke, context) in strokes { print(context.source, stroke.point) }
/// ```
///
/// Messages of a type nobody listens for are counted (``MessengerStatistics/messagesUnrouted``)
/// and dropped, as the platform messenger does. What a peer sends can never crash the
/// receiver: invalid frames and bodies are rejected and counted, and memory for partial
/// messages is bounded by ``MessengerConfiguration/reassemblyLimits``. Delivery is what
/// the transport gives (``Transport/guarantees``).
public final class Messenger: Sendable {
    /// A stream of messages of one type, each with its ``MessageContext``.
    public typealias Messages<Message> = AsyncStream<(message: Message, context: MessageContext)>

    /// The transport messages travel over.
    public let transport: any Transport
    /// The configuration the messenger was created with.
    public let configuration: MessengerConfiguration
    /// The profile every recipient without one of its own gets.
    public let defaultProfile: PeerProfile

    private let core: Core
    private let dispatch: Dispatch
    private let negotiation: PeerNegotiation?
    private let tasks: [Task<Void, Never>]

    /// Creates a messenger and starts receiving from `transport`.
    /// - Parameters:
    ///   - transport: the transport to send and receive through; the messenger consumes
    ///     its ``Transport/events``.
    ///   - configuration: codec, limits, clock and negotiation.
    ///
    /// To capture what travels, give it a transport that captures (GroupWireCapture's
    /// `transport.capturing(to:)`, beneath a ``DeliveryTransport``).
    public init(transport: any Transport, configuration: MessengerConfiguration = MessengerConfiguration()) {
        self.transport = transport
        // Clocks not given are the transport's: virtual time is chosen once, at the transport.
        var configuration = configuration
        let timers = transport.clock
        let reassemblyClock = configuration.clock ?? ReassemblyClock(now: timers.now)
        configuration.clock = reassemblyClock
        if configuration.negotiation != nil, configuration.negotiation?.clock == nil {
            configuration.negotiation?.clock = timers
        }
        self.configuration = configuration
        var profile = PeerProfile.default(codec: configuration.codec, limits: configuration.limits)
        profile.maxFrameSize = min(profile.maxFrameSize, transport.guarantees.maxMessageSize)
        defaultProfile = profile
        var outbox: AsyncStream<NegotiationWork>?
        if let settings = configuration.negotiation {
            let (stream, continuation) = AsyncStream<NegotiationWork>.makeStream()
            outbox = stream
            negotiation = PeerNegotiation(
                settings: settings,
                hello: settings.hello(codec: configuration.codec, limits: configuration.limits,
                                      transportMaxMessageSize: transport.guarantees.maxMessageSize),
                outbox: continuation)
        } else {
            negotiation = nil
        }
        let core = Core(negotiation: negotiation)
        self.core = core
        let dispatch = Dispatch(sender: SendPipeline(codec: configuration.codec), transport: transport, core: core,
                                defaultProfile: profile)
        self.dispatch = dispatch
        let pipeline = ReceivePipeline(
            limits: configuration.limits, reassemblyLimits: configuration.reassemblyLimits,
            clock: reassemblyClock, codec: configuration.codec)
        let events = transport.events
        let limits = configuration.limits
        let negotiationClock = configuration.negotiation.map { $0.clock ?? timers }
        var tasks = [Task {
            var pipeline = pipeline
            for await event in events {
                core.handle(event, pipeline: &pipeline, limits: limits, now: negotiationClock?.now() ?? .zero)
            }
            core.finish(reason: transport.closeReason ?? "the transport closed")
        }]
        if let negotiation, let outbox, let clock = negotiationClock {
            tasks.append(Task {
                for await work in outbox {
                    await dispatch.perform(work, negotiation: negotiation)
                }
            })
            let period = negotiation.settings.engine.retryInterval / 4
            tasks.append(Task {
                var next = clock.now() + period
                while !Task.isCancelled {
                    do { try await clock.sleep(next) } catch { return }
                    core.setProfiles(negotiation.tick(now: clock.now()))
                    next += period
                }
            })
        }
        self.tasks = tasks
    }

    deinit {
        for task in tasks { task.cancel() }
        negotiation?.finish()
    }

    // MARK: Sending

    /// Sends `message` to `recipients`.
    /// - Parameters:
    ///   - message: a generated message or any `CodableMessage`.
    ///   - recipients: everybody else (default) or some participants.
    ///   - mode: reliable (default) or unreliable, over a transport that has both (a
    ///     ``DeliveryTransport``, the platform messenger); other transports give what
    ///     their ``Transport/guarantees`` say.
    /// - Throws: `WireError.Kind.duplicateTypeID` when another type uses its type id
    ///   on this messenger; `WireError.Kind.messageTooLarge` over a recipient's
    ///   maximum message size (before anything is sent); the encoder's, codec's and
    ///   transport's errors; under negotiation with
    ///   ``NegotiationSettings/UnreadableRecipients/fail``, `recipientCannotRead`.
    /// - Returns: the recipients negotiation left out (their specs cannot read the type,
    ///   or they are incompatible), with the reason; empty without negotiation.
    @discardableResult
    public func send<Message: MessageCodable>(
        _ message: Message, to recipients: Recipients = .all, mode: DeliveryMode = .reliable
    ) async throws(WireError) -> SendReport {
        try await send(message, to: recipients, session: nil, mode: mode)
    }

    /// Sends `message` in the frames of `session` (nil: outside any session).
    @discardableResult
    func send<Message: MessageCodable>(
        _ message: Message, to recipients: Recipients, session: UInt32?, mode: DeliveryMode = .reliable
    ) async throws(WireError) -> SendReport {
        try core.checkOpen()
        try core.register(Message.self)
        var target = recipients
        var agreed: [ParticipantID: PeerProfile] = [:]
        var report = SendReport()
        if negotiation != nil {
            let negotiated = try negotiatedRecipients(
                recipients, typeID: Message.wireTypeID, typeName: Message.wireTypeName, session: session, mode: mode,
                payload: { () throws(WireError) in try message.messagePayload() })
            report.skipped = negotiated.skipped
            guard let now = negotiated.now else { return report }
            (target, agreed) = now
        }
        let (messageID, groups) = core.plan(target, defaultProfile: defaultProfile, agreed: agreed)
        // The common case: one profile for everybody and a generated message that fits one
        // frame, written straight into it (no payload buffer, no list of frames).
        if groups.count == 1,
           let frame = try dispatch.sender.frame(message: message, profile: dispatch.transportProfile(groups[0].profile), session: session)
        {
            if mode == .reliable {
                try await transport.send(frame, to: groups[0].recipients)
            } else {
                try await transport.send([frame], to: groups[0].recipients, mode: mode)
            }
            core.countSent(frames: 1)
            return report
        }
        let payload = try message.messagePayload()
        try await dispatch.send(kind: .data, typeID: Message.wireTypeID, payload: payload, messageID: messageID, groups: groups,
                                session: session, mode: mode)
        return report
    }

    /// Who gets a message now under negotiation: the recipients that agreed and read its
    /// type; those still negotiating get it later (held) or now in the baseline profile.
    /// - Returns: the recipients for now with the profiles their agreements give (nil when
    ///   nobody gets it now), and those left out.
    private func negotiatedRecipients(
        _ recipients: Recipients, typeID: UInt64, typeName: String, session: UInt32?, mode: DeliveryMode,
        payload: () throws(WireError) -> [UInt8]
    ) throws(WireError) -> (now: (recipients: Recipients, profiles: [ParticipantID: PeerProfile])?, skipped: [SkippedRecipient]) {
        guard let negotiation else { return ((recipients, [:]), []) }
        let route = try negotiation.route(typeID: typeID, typeName: typeName, to: recipients.participants ?? core.reachableParticipants)
        var now = route.now
        var profiles = route.profiles
        if !route.later.isEmpty {
            let held = HeldMessage(typeID: typeID, payload: try payload(), session: session, mode: mode)
            for peer in try negotiation.hold(held, for: route.later) {
                now.insert(peer)
                profiles[peer] = negotiation.profile(of: peer)
            }
        }
        return (now.isEmpty ? nil : (.only(now), profiles), route.skipped)
    }

    /// Sends a control message (kind 1, Spec/FORMAT.md "Control ids") with `payload`.
    func sendControl(_ controlID: UInt64, payload: [UInt8], to recipients: Recipients) async throws(WireError) {
        try await dispatch.sendControl(controlID, payload: payload, to: recipients)
    }

    /// Sends raw bytes under `typeID`, in `mode`; receivers read them with ``rawMessages(typeID:)``.
    /// - Throws: `WireError.Kind.duplicateTypeID` when a message type uses `typeID`
    ///   on this messenger; otherwise as ``send(_:to:mode:)``.
    /// - Returns: as ``send(_:to:mode:)``.
    @discardableResult
    public func send(
        _ bytes: [UInt8], typeID: UInt64, to recipients: Recipients = .all, mode: DeliveryMode = .reliable
    ) async throws(WireError) -> SendReport {
        try core.checkOpen()
        try core.registerRaw(typeID)
        let negotiated = try negotiatedRecipients(recipients, typeID: typeID, typeName: "raw bytes", session: nil, mode: mode,
                                                  payload: { () throws(WireError) in bytes })
        let report = SendReport(skipped: negotiated.skipped)
        guard let (target, agreed) = negotiated.now else { return report }
        let (messageID, groups) = core.plan(target, defaultProfile: defaultProfile, agreed: agreed)
        try await dispatch.send(kind: .data, typeID: typeID, payload: bytes, messageID: messageID, groups: groups, session: nil, mode: mode)
        return report
    }

    // MARK: Negotiation

    /// The events of negotiation with each peer from now on (agreed, incompatible), when
    /// the configuration negotiates; each call makes a new stream. Finishes when the
    /// transport closes (at once without negotiation).
    public func negotiationEvents() -> AsyncStream<NegotiationEvent> {
        guard let negotiation else { return AsyncStream { $0.finish() } }
        return negotiation.events()
    }

    /// Where negotiation with `participant` stands; nil without negotiation or for a
    /// participant not reachable.
    public func negotiationState(of participant: ParticipantID) -> NegotiationEngine<ParticipantID>.PeerState? {
        negotiation?.state(of: participant)
    }

    /// Why the transport closed, once its events have ended and the messenger has seen
    /// it (every send then throws `transportClosed` with it); nil while open.
    public var closeReason: String? { core.closeReason }

    /// What negotiation did so far; all zero without it.
    public var negotiationStatistics: NegotiationStatistics {
        negotiation?.statistics ?? NegotiationStatistics()
    }

    /// Announces changed capabilities to every peer: the codec's dictionaries as they are
    /// now (one was added), and `schema` when given (another spec, after an activity
    /// change). Returns once the new hello is handed to the transport for every peer, so
    /// anything sent afterwards reaches each peer after it; agreements are decided again.
    /// - Throws: `WireError.Kind.invalidValue` without negotiation; the hello's errors
    ///   (`limitExceeded`); the transport's.
    public func renegotiate(schema: HelloSchema? = nil) async throws(WireError) {
        guard let negotiation, let settings = configuration.negotiation else {
            throw WireError(.invalidValue, "this messenger does not negotiate (MessengerConfiguration.negotiation is nil)")
        }
        var changed = settings
        changed.schema = schema ?? negotiation.currentSchema
        let hello = changed.hello(codec: configuration.codec, limits: configuration.limits,
                                  transportMaxMessageSize: transport.guarantees.maxMessageSize)
        let (peers, profiles) = try negotiation.update(hello: hello, now: (settings.clock ?? transport.clock).now())
        core.setProfiles(profiles)
        let body = negotiation.helloBody
        for peer in peers {
            try await dispatch.sendControl(Hello.controlID, payload: body, to: .only([peer]))
        }
    }

    // MARK: Receiving

    /// The messages of type `type` from the other participants, as they arrive.
    ///
    /// Registers the type: from now on, messages with its type id are decoded as it.
    /// Several streams may listen for one type; each gets every message. A stream finishes
    /// when the transport closes.
    /// - Throws: `WireError.Kind.duplicateTypeID` when another type (or raw
    ///   bytes) uses its type id on this messenger.
    public func messages<Message: MessageCodable>(of type: Message.Type) throws(WireError) -> Messages<Message> {
        try messages(of: type, session: nil) { _ in true }
    }

    /// The messages of `type` whose context `accept` lets through (a session's, while it
    /// is joined); the stream finishes with ``endStreams(of:)`` for `session`.
    func messages<Message: MessageCodable>(
        of type: Message.Type, session: UInt32?, where accept: @escaping @Sendable (MessageContext) -> Bool
    ) throws(WireError) -> Messages<Message> {
        try core.register(Message.self)
        return subscribe(to: [Message.wireTypeID], session: session) { value, context in accept(context) ? value as? Message : nil }
    }

    /// Finishes every stream made for `session` (its session has ended here).
    func endStreams(of session: UInt32) {
        core.endSubscriptions(of: session)
    }

    /// Starts handing control messages and membership changes to `observer` (on the
    /// receiving task), after handing `start` who is reachable at that moment; both happen
    /// under the messenger's lock, so nothing is missed, seen twice or seen out of order.
    func observeSessionInput(
        start: (Swift.Set<ParticipantID>) -> Void, _ observer: @escaping @Sendable (SessionInput) -> Void
    ) {
        core.observeSessionInput(start: start, observer)
    }

    /// Every message of a spec, as the generated enum over them, so one loop can switch
    /// over all of them.
    /// - Throws: `WireError.Kind.duplicateTypeID` when another type uses an id of
    ///   the set on this messenger.
    public func messages<MessageSet: WireMessageSet>(of set: MessageSet.Type) throws(WireError) -> Messages<MessageSet> {
        try messages(of: set, session: nil) { _ in true }
    }

    /// Every message of a spec whose context `accept` lets through (a session's, while it
    /// is joined); the stream finishes with ``endStreams(of:)`` for `session`.
    func messages<MessageSet: WireMessageSet>(
        of set: MessageSet.Type, session: UInt32?, where accept: @escaping @Sendable (MessageContext) -> Bool
    ) throws(WireError) -> Messages<MessageSet> {
        for type in MessageSet.messageTypes {
            try core.register(type)
        }
        return subscribe(to: MessageSet.messageTypes.map { $0.wireTypeID }, session: session) { value, context in
            accept(context) ? (value as? any MessageCodable).flatMap(MessageSet.init) : nil
        }
    }

    /// The raw bytes sent under `typeID` with ``send(_:typeID:to:mode:)``.
    /// - Throws: `WireError.Kind.duplicateTypeID` when a message type uses `typeID`.
    public func rawMessages(typeID: UInt64) throws(WireError) -> Messages<[UInt8]> {
        try core.registerRaw(typeID)
        return subscribe(to: [typeID]) { value, _ in value as? [UInt8] }
    }

    /// A stream fed from `typeIDs`, converting each decoded value with `convert`.
    private func subscribe<Element: Sendable>(
        to typeIDs: [UInt64], session: UInt32? = nil, convert: @escaping @Sendable (any Sendable, MessageContext) -> Element?
    ) -> Messages<Element> {
        let (stream, continuation) = Messages<Element>.makeStream()
        let subscriber = Subscriber(
            deliver: { value, context in
                if let element = convert(value, context) { continuation.yield((element, context)) }
            },
            finish: { continuation.finish() }, session: session)
        if let token = core.subscribe(subscriber, to: typeIDs) {
            continuation.onTermination = { [core] _ in core.unsubscribe(token) }
        } else {
            continuation.finish()
        }
        return stream
    }

    // MARK: State

    /// The participants the transport says are reachable now.
    public var reachableParticipants: Swift.Set<ParticipantID> {
        core.reachableParticipants
    }

    /// Sets the profile used for `participant` (nil: the default profile). Negotiation
    /// calls this once it knows what a peer reads.
    public func setProfile(_ profile: PeerProfile?, for participant: ParticipantID) {
        core.setProfile(profile, for: participant)
    }

    /// What was sent and received so far.
    public var statistics: MessengerStatistics {
        core.statistics
    }
}

/// Sends encoded messages: what the messenger's own sends and its negotiation task share.
struct Dispatch: Sendable {
    let sender: SendPipeline
    let transport: any Transport
    let core: Messenger.Core
    let defaultProfile: PeerProfile

    /// `profile` with its frame size capped at what the transport carries in one message.
    func transportProfile(_ profile: PeerProfile) -> PeerProfile {
        var profile = profile
        profile.maxFrameSize = min(profile.maxFrameSize, transport.guarantees.maxMessageSize)
        return profile
    }

    /// Encodes once per distinct profile among the recipients and hands the frames over.
    func send(
        kind: FrameKind, typeID: UInt64, payload: [UInt8], messageID: UInt64,
        groups: [(profile: PeerProfile, recipients: Recipients)], session: UInt32?, mode: DeliveryMode
    ) async throws(WireError) {
        var encoded: [(frames: [[UInt8]], recipients: Recipients)] = []
        for group in groups {
            let frames = try sender.frames(kind: kind, typeID: typeID, payload: payload, messageID: messageID,
                                           profile: transportProfile(group.profile), session: session)
            encoded.append((frames, group.recipients))
        }
        for (frames, target) in encoded {
            try await transport.send(frames, to: target, mode: mode)
        }
        core.countSent(frames: encoded.reduce(0) { $0 + $1.frames.count })
    }

    /// Sends a control message; control always travels reliably (Spec/FORMAT.md, "Delivery").
    func sendControl(_ controlID: UInt64, payload: [UInt8], to recipients: Recipients) async throws(WireError) {
        let (messageID, groups) = core.plan(recipients, defaultProfile: defaultProfile)
        try await send(kind: .control, typeID: controlID, payload: payload, messageID: messageID, groups: groups,
                       session: nil, mode: .reliable)
    }

    /// Does what negotiation asks: a hello to a peer, or the messages held for a peer
    /// that agreed, in the order they were sent, until none are left.
    func perform(_ work: NegotiationWork, negotiation: PeerNegotiation) async {
        switch work {
        case .hello(let body, let peer):
            // A lost hello is sent again by the engine's timer; a closed transport ends everything.
            try? await sendControl(Hello.controlID, payload: body, to: .only([peer]))
        case .flush(let peer):
            while let held = negotiation.takeHeld(for: peer) {
                for message in held {
                    let agreed = negotiation.profile(of: peer).map { [peer: $0] } ?? [:]
                    let (messageID, groups) = core.plan(.only([peer]), defaultProfile: defaultProfile, agreed: agreed)
                    do {
                        try await send(kind: .data, typeID: message.typeID, payload: message.payload, messageID: messageID,
                                       groups: groups, session: message.session, mode: message.mode)
                    } catch {
                        core.countHeldSendFailure(error)
                    }
                }
            }
        }
    }
}

/// What the session layer hears from a messenger: control messages and membership.
enum SessionInput: Sendable {
    /// A control message (kind 1) from a participant.
    case control(ReceivedControl)
    /// A participant became reachable.
    case joined(ParticipantID)
    /// A participant is no longer reachable.
    case left(ParticipantID)
    /// The transport closed, for the reason given: nobody is reachable any more.
    case closed(String)
}

/// A control message as received.
struct ReceivedControl: Sendable {
    /// Who sent it.
    let source: ParticipantID
    /// Its control id.
    let controlID: UInt64
    /// Its body, decompressed and reassembled.
    let payload: [UInt8]
}

/// One stream listening for messages.
struct Subscriber: Sendable {
    let deliver: @Sendable (any Sendable, MessageContext) -> Void
    let finish: @Sendable () -> Void
    /// The session whose end finishes the stream, if any.
    var session: UInt32?
}

extension Messenger {
    /// The messenger's shared state, behind one lock. Streams are fed and finished outside
    /// the lock, so a stream's termination handler may call back in.
    final class Core: Sendable {
        private struct State {
            var registry = MessageRegistry()
            var rawTypeIDs: Swift.Set<UInt64> = []
            var subscribers: [UInt64: [UInt64: Subscriber]] = [:]
            var nextToken: UInt64 = 0
            var nextMessageID: UInt64 = 0
            var reachable: Swift.Set<ParticipantID> = []
            var profiles: [ParticipantID: PeerProfile] = [:]
            var statistics = MessengerStatistics()
            var isFinished = false
            /// Why the transport closed, once it has.
            var closeReason: String?
            var sessionObserver: (@Sendable (SessionInput) -> Void)?
            /// Session input kept for the observer: control messages that came before there
            /// was one (a coordinator made after the messenger started receiving), and
            /// whatever arrives while those are handed over, so it gets everything in order.
            var sessionBacklog: [SessionInput] = []
            /// Whether ``observeSessionInput(start:_:)`` is handing the backlog over.
            var replayingSessionInput = false
            /// The payload bytes of the control messages in the backlog.
            var sessionBacklogBytes = 0
        }

        /// The most session control messages, and their most payload bytes, kept before a
        /// coordinator observes; beyond either, later ones are counted unrouted.
        static let maxSessionBacklog = (messages: 256, bytes: 256 << 10)

        private let state = Mutex(State())
        private let negotiation: PeerNegotiation?

        init(negotiation: PeerNegotiation?) {
            self.negotiation = negotiation
        }

        /// - Throws: `transportClosed`, with the transport's reason, once it has closed.
        func checkOpen() throws(WireError) {
            if let reason = state.withLock({ $0.closeReason }) {
                throw WireError(.transportClosed, "the messenger's transport closed: \(reason)")
            }
        }

        /// Why the transport closed, once it has.
        var closeReason: String? { state.withLock { $0.closeReason } }

        func register(_ type: any MessageCodable.Type) throws(WireError) {
            try state.withLock { (state) throws(WireError) in
                guard !state.rawTypeIDs.contains(type.wireTypeID) else {
                    throw WireError(.duplicateTypeID, "type id \(type.wireTypeID) is taken by raw bytes and \(type.wireTypeName)")
                }
                try state.registry.register(type)
            }
        }

        func registerRaw(_ typeID: UInt64) throws(WireError) {
            try MessageRegistry.checkRange(typeID, name: "raw bytes")
            try state.withLock { (state) throws(WireError) in
                if let type = state.registry.type(for: typeID) {
                    throw WireError(.duplicateTypeID, "type id \(typeID) is taken by \(type.wireTypeName) and raw bytes")
                }
                state.rawTypeIDs.insert(typeID)
            }
        }

        /// Adds `subscriber` for `typeIDs`; nil when the transport has closed already.
        func subscribe(_ subscriber: Subscriber, to typeIDs: [UInt64]) -> UInt64? {
            state.withLock { state in
                guard !state.isFinished else { return nil }
                state.nextToken += 1
                for id in typeIDs {
                    state.subscribers[id, default: [:]][state.nextToken] = subscriber
                }
                return state.nextToken
            }
        }

        /// Removes and finishes the subscribers made for `session`.
        func endSubscriptions(of session: UInt32) {
            let ended = state.withLock { state -> [Subscriber] in
                var ended: [UInt64: Subscriber] = [:]
                for id in Array(state.subscribers.keys) {
                    for (token, subscriber) in state.subscribers[id] ?? [:] where subscriber.session == session {
                        ended[token] = subscriber
                        state.subscribers[id]?[token] = nil
                    }
                    if state.subscribers[id]?.isEmpty == true { state.subscribers[id] = nil }
                }
                return Array(ended.values)
            }
            for subscriber in ended { subscriber.finish() }
        }

        func unsubscribe(_ token: UInt64) {
            state.withLock { state in
                for id in Array(state.subscribers.keys) {
                    state.subscribers[id]?[token] = nil
                    if state.subscribers[id]?.isEmpty == true { state.subscribers[id] = nil }
                }
            }
        }

        /// A fresh message id, and the recipients grouped by profile: each recipient's
        /// profile from `agreed` (what negotiation decided for this send), else the one set
        /// for it, else `defaultProfile`.
        func plan(_ recipients: Recipients, defaultProfile: PeerProfile, agreed: [ParticipantID: PeerProfile] = [:])
            -> (messageID: UInt64, groups: [(profile: PeerProfile, recipients: Recipients)])
        {
            state.withLock { state in
                let messageID = state.nextMessageID
                state.nextMessageID &+= 1  // safe because: 2^64 sends never happen; ids only need to differ in flight.
                state.statistics.messagesSent += 1
                func profile(_ participant: ParticipantID) -> PeerProfile? { agreed[participant] ?? state.profiles[participant] }
                // Everybody on the default profile: one encoding, the transport fans out.
                let named = recipients.participants ?? state.reachable
                guard named.contains(where: { profile($0) != nil }) else {
                    return (messageID, [(defaultProfile, recipients)])
                }
                // Everybody on one profile (negotiated peers usually are): one encoding too.
                if let first = named.first {
                    let common = profile(first) ?? defaultProfile
                    if named.allSatisfy({ (profile($0) ?? defaultProfile) == common }) {
                        return (messageID, [(common, recipients)])
                    }
                }
                var byProfile: [PeerProfile: Swift.Set<ParticipantID>] = [:]
                for participant in named {
                    byProfile[profile(participant) ?? defaultProfile, default: []].insert(participant)
                }
                // In a stable order: by each group's first participant.
                let groups = byProfile.sorted { ($0.value.min()?.description ?? "") < ($1.value.min()?.description ?? "") }
                    .map { (profile: $0.key, recipients: Recipients.only($0.value)) }
                return (messageID, groups)
            }
        }

        func countSent(frames: Int) {
            state.withLock { $0.statistics.framesSent += frames }
        }

        var reachableParticipants: Swift.Set<ParticipantID> {
            state.withLock { $0.reachable }
        }

        func setProfile(_ profile: PeerProfile?, for participant: ParticipantID) {
            state.withLock { $0.profiles[participant] = profile }
        }

        /// Applies the profile changes negotiation decided.
        func setProfiles(_ changes: [(ParticipantID, PeerProfile?)]) {
            guard !changes.isEmpty else { return }
            state.withLock { state in
                for (participant, profile) in changes { state.profiles[participant] = profile }
            }
        }

        /// A held message could not be sent once its peer agreed (too large for it, transport closed).
        func countHeldSendFailure(_ error: WireError) {
            state.withLock { state in
                state.statistics.rejected += 1
                state.statistics.lastRejection = error
            }
        }

        var statistics: MessengerStatistics {
            state.withLock { $0.statistics }
        }

        func observeSessionInput(start: (Swift.Set<ParticipantID>) -> Void, _ observer: @escaping @Sendable (SessionInput) -> Void) {
            state.withLock { state in
                start(state.reachable)
                state.sessionObserver = observer
                state.replayingSessionInput = true
            }
            // The backlog, outside the lock (the observer sends), until it stays empty; the
            // receiving task queues behind it meanwhile.
            while true {
                let backlog = state.withLock { state -> [SessionInput] in
                    defer {
                        state.sessionBacklog = []
                        state.sessionBacklogBytes = 0
                    }
                    if state.sessionBacklog.isEmpty { state.replayingSessionInput = false }
                    return state.sessionBacklog
                }
                guard !backlog.isEmpty else { return }
                for input in backlog { observer(input) }
            }
        }

        /// Where session input goes now: to the observer; into the backlog (before there is
        /// an observer, for control messages, or while the backlog is handed over); or
        /// nowhere (no observer and a full backlog, or membership before an observer, which
        /// its start snapshot covers).
        private enum SessionRoute {
            case observer(@Sendable (SessionInput) -> Void)
            case kept
            case dropped
        }

        private func route(_ input: SessionInput) -> SessionRoute {
            state.withLock { state in
                if state.replayingSessionInput {
                    state.sessionBacklog.append(input)
                    return .kept
                }
                if let observer = state.sessionObserver { return .observer(observer) }
                // The end is kept whatever the bound: a coordinator made later must see it.
                if case .closed = input {
                    state.sessionBacklog.append(input)
                    return .kept
                }
                guard case .control(let control) = input, state.sessionBacklog.count < Self.maxSessionBacklog.messages,
                      state.sessionBacklogBytes + control.payload.count <= Self.maxSessionBacklog.bytes
                else { return .dropped }
                state.sessionBacklog.append(input)
                state.sessionBacklogBytes += control.payload.count
                return .kept
            }
        }

        /// Hands `input` to the session observer, now or later (see ``route(_:)``).
        /// - Returns: false when it went nowhere.
        @discardableResult
        private func deliverSessionInput(_ input: SessionInput) -> Bool {
            switch route(input) {
            case .observer(let observer):
                observer(input)
                return true
            case .kept:
                return true
            case .dropped:
                return false
            }
        }

        /// Handles one transport event on the receiving task.
        func handle(_ event: TransportEvent, pipeline: inout ReceivePipeline, limits: Limits, now: Duration) {
            let message: TransportMessage
            switch event {
            case .joined(let participant):
                state.withLock { _ = $0.reachable.insert(participant) }
                if let negotiation { setProfiles(negotiation.handle(.joined(participant), now: now)) }
                deliverSessionInput(.joined(participant))
                return
            case .left(let participant):
                state.withLock { _ = $0.reachable.remove(participant) }
                if let negotiation { setProfiles(negotiation.handle(.left(participant), now: now)) }
                deliverSessionInput(.left(participant))
                return
            case .message(let received):
                message = received
            }
            let result = pipeline.receive(frameBytes: message.bytes, from: message.source)
            if let whole = result.message, whole.kind == .control {
                if let negotiation, whole.typeID == Hello.controlID {
                    record(result, delivered: true, unrouted: false)
                    let control = ReceivedControl(source: message.source, controlID: whole.typeID, payload: whole.payload)
                    setProfiles(negotiation.handle(.control(control), now: now))
                    return
                }
                let input = SessionInput.control(ReceivedControl(source: message.source, controlID: whole.typeID, payload: whole.payload))
                // Counted before it is handed on, as before: the observer may send.
                let route = route(input)
                let routed: Bool
                if case .dropped = route { routed = false } else { routed = true }
                record(result, delivered: routed, unrouted: !routed)
                if case .observer(let observer) = route { observer(input) }
                return
            }
            guard let whole = result.message, whole.kind == .data else {
                record(result, delivered: false, unrouted: false)
                return
            }
            if let rejection = negotiation?.rejection(typeID: whole.typeID, from: message.source) {
                var rejected = result
                rejected.rejection = rejection
                record(rejected, delivered: false, unrouted: false)
                return
            }
            let (subscribers, registered, isRaw) = state.withLock { state in
                (state.subscribers[whole.typeID].map { Array($0.values) } ?? [],
                 state.registry.type(for: whole.typeID), state.rawTypeIDs.contains(whole.typeID))
            }
            guard !subscribers.isEmpty else {
                record(result, delivered: false, unrouted: true)
                return
            }
            let value: any Sendable
            if isRaw {
                value = whole.payload
            } else if let registered {
                do {
                    value = try whole.decode(as: registered, limits: limits)
                } catch {
                    var rejected = result
                    rejected.rejection = WireError(error.kind, offset: error.offset,
                                                   "\(registered.wireTypeName) from \(message.source): \(error.context)")
                    record(rejected, delivered: false, unrouted: false)
                    return
                }
            } else {
                record(result, delivered: false, unrouted: true)
                return
            }
            let context = MessageContext(source: message.source, typeID: whole.typeID, wasCompressed: whole.compression != nil,
                                         session: whole.session)
            for subscriber in subscribers {
                subscriber.deliver(value, context)
            }
            record(result, delivered: true, unrouted: false)
        }

        private func record(_ result: ReceiveResult, delivered: Bool, unrouted: Bool) {
            state.withLock { state in
                state.statistics.framesReceived += 1
                state.statistics.partialMessagesDropped += result.drops.count
                if let rejection = result.rejection {
                    state.statistics.rejected += 1
                    state.statistics.lastRejection = rejection
                }
                if delivered { state.statistics.messagesDelivered += 1 }
                if unrouted { state.statistics.messagesUnrouted += 1 }
            }
        }

        /// Finishes every stream: the transport closed.
        func finish(reason: String) {
            let subscribers = state.withLock { state -> [Subscriber] in
                state.isFinished = true
                state.closeReason = reason
                state.reachable = []
                let all = state.subscribers.values.flatMap { $0.values }
                state.subscribers.removeAll()
                return all
            }
            for subscriber in subscribers {
                subscriber.finish()
            }
            deliverSessionInput(.closed(reason))
        }
    }
}
