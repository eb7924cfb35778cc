import GroupWire
import GroupWireNegotiation

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
    /// The transport messages travel over.
    public let transport: any Transport
    /// The configuration the messenger was created with.
    public let configuration: MessengerConfiguration
    /// The profile every recipient without one of its own gets.
    public let defaultProfile: PeerProfile

    // The parts (each in its own file): who gets what in which profile; encoding and
    // handing frames over; types and streams; negotiation's filter; the session layer's
    // input; the counts.
    private let planner: SendPlanner
    private let sender: MessageSender
    private let router = MessageRouter()
    private let gate: NegotiationGate?
    private let sessionInput = SessionInputRelay()
    private let counters = MessengerCounters()
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
        let profile = MessageSender.profile(
            PeerProfile.default(codec: configuration.codec, limits: configuration.limits),
            cappedFor: transport)
        defaultProfile = profile
        var outbox: AsyncStream<NegotiationWork>?
        if let settings = configuration.negotiation {
            let (stream, continuation) = AsyncStream<NegotiationWork>.makeStream()
            outbox = stream
            negotiation = PeerNegotiation(
                settings: settings,
                hello: settings.hello(
                    codec: configuration.codec, limits: configuration.limits,
                    transportMaxMessageSize: transport.guarantees.maxMessageSize),
                outbox: continuation)
        } else {
            negotiation = nil
        }
        let planner = SendPlanner(defaultProfile: profile, counters: counters)
        self.planner = planner
        let sender = MessageSender(
            pipeline: SendPipeline(codec: configuration.codec), transport: transport, planner: planner,
            counters: counters)
        self.sender = sender
        let gate = negotiation.map { NegotiationGate(negotiation: $0, planner: planner) }
        self.gate = gate
        let receiveLoop = ReceiveLoop(
            pipeline: ReceivePipeline(
                limits: configuration.limits, reassemblyLimits: configuration.reassemblyLimits,
                clock: reassemblyClock, codec: configuration.codec),
            limits: configuration.limits, planner: planner, router: router, session: sessionInput, negotiation: gate,
            counters: counters)
        let events = transport.events
        let negotiationClock = configuration.negotiation.map { $0.clock ?? timers }
        var tasks = [
            Task {
                var receiver = receiveLoop
                for await event in events {
                    receiver.handle(event, now: negotiationClock?.now() ?? .zero)
                }
                receiver.finish(reason: transport.closeReason ?? "the transport closed")
            }
        ]
        if let gate, let outbox, let clock = negotiationClock {
            tasks.append(
                Task {
                    for await work in outbox {
                        await gate.perform(work, sender: sender)
                    }
                })
            let period = gate.negotiation.settings.engine.retryInterval / 4
            tasks.append(
                Task {
                    var next = clock.now() + period
                    while !Task.isCancelled {
                        do { try await clock.sleep(next) } catch { return }
                        planner.setProfiles(gate.negotiation.tick(now: clock.now()))
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
        try router.checkOpen()
        try router.register(Message.self)
        var target = recipients
        var agreed: [ParticipantID: PeerProfile] = [:]
        var report = SendReport()
        if let gate {
            let negotiated = try gate.recipients(
                recipients, typeID: Message.wireTypeID, typeName: Message.wireTypeName, session: session, mode: mode,
                payload: { () throws(WireError) in try message.messagePayload() })
            report.skipped = negotiated.skipped
            guard let now = negotiated.now else { return report }
            (target, agreed) = now
        }
        let (messageID, groups) = planner.plan(target, agreed: agreed)
        try await sender.send(message, messageID: messageID, groups: groups, session: session, mode: mode)
        return report
    }

    /// Sends a control message (kind 1, Spec/FORMAT.md "Control ids") with `payload`.
    func sendControl(_ controlID: UInt64, payload: [UInt8], to recipients: Recipients) async throws(WireError) {
        try await sender.sendControl(controlID, payload: payload, to: recipients)
    }

    /// Sends raw bytes under `typeID`, in `mode`; receivers read them with ``rawMessages(typeID:)``.
    /// - Throws: `WireError.Kind.duplicateTypeID` when a message type uses `typeID`
    ///   on this messenger; otherwise as ``send(_:to:mode:)``.
    /// - Returns: as ``send(_:to:mode:)``.
    @discardableResult
    public func send(
        _ bytes: [UInt8], typeID: UInt64, to recipients: Recipients = .all, mode: DeliveryMode = .reliable
    ) async throws(WireError) -> SendReport {
        try router.checkOpen()
        try router.registerRaw(typeID)
        var target = recipients
        var agreed: [ParticipantID: PeerProfile] = [:]
        var report = SendReport()
        if let gate {
            let negotiated = try gate.recipients(
                recipients, typeID: typeID, typeName: "raw bytes", session: nil, mode: mode,
                payload: { () throws(WireError) in bytes })
            report.skipped = negotiated.skipped
            guard let now = negotiated.now else { return report }
            (target, agreed) = now
        }
        let (messageID, groups) = planner.plan(target, agreed: agreed)
        try await sender.send(
            kind: .data, typeID: typeID, payload: bytes, messageID: messageID, groups: groups, session: nil, mode: mode)
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
    public var closeReason: String? { router.closeReason }

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
        let hello = changed.hello(
            codec: configuration.codec, limits: configuration.limits,
            transportMaxMessageSize: transport.guarantees.maxMessageSize)
        let (peers, profiles) = try negotiation.update(hello: hello, now: (settings.clock ?? transport.clock).now())
        planner.setProfiles(profiles)
        let body = negotiation.helloBody
        for peer in peers {
            try await sender.sendControl(Hello.controlID, payload: body, to: .only([peer]))
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
    @inlinable
    public func messages<Message: MessageCodable>(of type: Message.Type) throws(WireError) -> Messages<Message> {
        try messages(of: type, session: nil) { _ in true }
    }

    /// The messages of `type` whose context `accept` lets through (a session's, while it
    /// is joined); the stream finishes with ``endStreams(of:)`` for `session`. Inlinable, so
    /// the decoding and the stream are specialized for the type where it is called.
    @inlinable
    func messages<Message: MessageCodable>(
        of type: Message.Type, session: UInt32?, where accept: @escaping @Sendable (MessageContext) -> Bool
    ) throws(WireError) -> Messages<Message> {
        let stream = Messages<Message>()
        let buffer = stream.buffer
        try subscribe(
            registering: [Message.self], typeIDs: [Message.wireTypeID], session: session,
            deliver: { (message, context, limits) throws(WireError) in
                let value = try message.decode(Message.self, limits: limits)
                if accept(context) { buffer.append(value, context: context) }
            },
            finish: buffer.finish, onTermination: buffer.setOnTermination, probe: buffer)
        return stream
    }

    /// Finishes every stream made for `session` (its session has ended here).
    func endStreams(of session: UInt32) {
        router.endSubscriptions(of: session)
    }

    /// Starts handing control messages and membership changes to `observer` (on the
    /// receiving task), after handing `start` who is reachable at that moment; both happen
    /// under the messenger's lock, so nothing is missed, seen twice or seen out of order.
    func observeSessionInput(
        start: (Swift.Set<ParticipantID>) -> Void, _ observer: @escaping @Sendable (SessionInput) -> Void
    ) {
        sessionInput.observe(start: { [planner] in start(planner.reachable) }, observer)
    }

    /// Every message of a spec, as the generated enum over them, so one loop can switch
    /// over all of them.
    /// - Throws: `WireError.Kind.duplicateTypeID` when another type uses an id of
    ///   the set on this messenger.
    @inlinable
    public func messages<MessageSet: WireMessageSet>(of set: MessageSet.Type) throws(WireError) -> Messages<MessageSet> {
        try messages(of: set, session: nil) { _ in true }
    }

    /// Every message of a spec whose context `accept` lets through (a session's, while it
    /// is joined); the stream finishes with ``endStreams(of:)`` for `session`.
    @inlinable
    func messages<MessageSet: WireMessageSet>(
        of set: MessageSet.Type, session: UInt32?, where accept: @escaping @Sendable (MessageContext) -> Bool
    ) throws(WireError) -> Messages<MessageSet> {
        let stream = Messages<MessageSet>()
        let buffer = stream.buffer
        let types = MessageSet.messageTypes
        try subscribe(
            registering: types, typeIDs: types.map { $0.wireTypeID }, session: session,
            deliver: { (message, context, limits) throws(WireError) in
                guard let type = types.first(where: { $0.wireTypeID == message.typeID }) else { return }
                let value = try message.decode(as: type, limits: limits)
                if accept(context), let element = MessageSet(value) { buffer.append(element, context: context) }
            },
            finish: buffer.finish, onTermination: buffer.setOnTermination, probe: buffer)
        return stream
    }

    /// The raw bytes sent under `typeID` with ``send(_:typeID:to:mode:)``.
    /// - Throws: `WireError.Kind.duplicateTypeID` when a message type uses `typeID`.
    public func rawMessages(typeID: UInt64) throws(WireError) -> Messages<[UInt8]> {
        try router.registerRaw(typeID)
        let stream = Messages<[UInt8]>()
        let buffer = stream.buffer
        try subscribe(
            registering: [], typeIDs: [typeID], session: nil,
            deliver: { message, context, _ in buffer.append(message.payload, context: context) },
            finish: buffer.finish, onTermination: buffer.setOnTermination, probe: buffer)
        return stream
    }

    /// The one non-generic step behind every stream: registers `types`, then hands
    /// `deliver` each message of `typeIDs` (it decodes the message and feeds its stream),
    /// and sets the stream's termination to stop that; `finish` ends the stream with the
    /// transport (at once, if it has closed already) or with `session`.
    /// - Throws: `WireError.Kind.duplicateTypeID` when one of `types` collides.
    @usableFromInline
    func subscribe(
        registering types: [any MessageCodable.Type], typeIDs: [UInt64], session: UInt32?,
        deliver: @escaping @Sendable (ReceivedMessage, MessageContext, Limits) throws(WireError) -> Void,
        finish: @escaping @Sendable () -> Void, onTermination: (@escaping @Sendable () -> Void) -> Void,
        probe: any SettleProbe
    ) throws(WireError) {
        SettleGauge.current?.watch(probe)
        for type in types {
            try router.register(type)
        }
        let subscriber = Subscriber(deliver: deliver, finish: finish, session: session)
        if let token = router.subscribe(subscriber, to: typeIDs) {
            onTermination { [router] in router.unsubscribe(token) }
        } else {
            finish()
        }
    }

    // MARK: State

    /// The participants the transport says are reachable now.
    public var reachableParticipants: Swift.Set<ParticipantID> {
        planner.reachable
    }

    /// Sets the profile used for `participant` (nil: the default profile), for a messenger
    /// without negotiation whose app learns what a peer reads some other way.
    /// - Throws: `WireError.Kind.invalidValue` when the messenger negotiates: negotiation
    ///   alone sets each peer's profile (from the peer's hello), so a profile set here would
    ///   be overwritten at the next agreement.
    public func setProfile(_ profile: PeerProfile?, for participant: ParticipantID) throws(WireError) {
        guard negotiation == nil else {
            throw WireError(
                .invalidValue, "this messenger negotiates: \(participant)'s profile comes from its hello, not from setProfile")
        }
        planner.setProfile(profile, for: participant)
    }

    /// What was sent and received so far.
    public var statistics: MessengerStatistics {
        counters.statistics
    }
}
