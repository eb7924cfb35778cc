import GroupWire
import GroupWireNegotiation

/// How a ``Messenger`` negotiates with each peer (Spec/FORMAT.md, "The agreement"): what
/// its hello announces, and what it does while a peer has not agreed or cannot read a type.
///
/// ```swift
/// let schema = try HelloSchema(spec: compiledSpec)   // the app's spec
/// let messenger = Messenger(transport: transport, configuration: MessengerConfiguration(
///     codec: try PayloadCompressor(), negotiation: NegotiationSettings(schema: schema)))
/// for await event in messenger.negotiationEvents() { print(event) }
/// ```
public struct NegotiationSettings: Sendable {
    /// What to do with a message for a recipient whose spec has no such type, or whose
    /// reader the type's agreement calls incompatible.
    public enum UnreadableRecipients: Sendable, Hashable {
        /// Send to the others and leave that recipient out (counted in
        /// ``NegotiationStatistics/recipientsSkipped``).
        case skip
        /// Send nothing and throw `WireError.Kind.recipientCannotRead`, naming the
        /// recipient, the type and the verdict.
        case fail
    }

    /// What to do with a message for a peer whose hello has not come yet.
    public enum BeforeAgreement: Sendable, Hashable {
        /// Keep it for that peer and send it, in order, once the peer agrees; at most
        /// `messages` messages and `bytes` payload bytes per peer, beyond which a send throws
        /// `WireError.Kind.bufferFull`. Dropped if the peer turns out incompatible or leaves.
        case hold(messages: Int, bytes: Int)
        /// Send it at once in the baseline profile: envelope version 1, uncompressed, the
        /// default sizes; every peer reads it, whatever its version of the type.
        case sendBaseline
    }

    /// The app's spec, announced in the hello; nil for a peer without one (a tool), which
    /// sends and reads no typed message with a peer that negotiates.
    public var schema: HelloSchema?
    /// The envelope versions this peer reads and writes; never pushed outside by a peer.
    public var envelopeVersions: ClosedRange<UInt8>
    /// For recipients that cannot read a type. Default ``UnreadableRecipients/skip``.
    public var unreadableRecipients: UnreadableRecipients
    /// For peers that have not agreed. Default: hold 256 messages and 1 MiB per peer.
    public var beforeAgreement: BeforeAgreement
    /// Timers and hello limits of the state machine.
    public var engine: NegotiationEngine<ParticipantID>.Configuration
    /// The time source for the hello timers; nil (the default) takes the transport's
    /// (``Transport/clock``).
    public var clock: TimerClock?

    /// Creates settings; every argument but the schema defaults to the documented default.
    public init(
        schema: HelloSchema?, envelopeVersions: ClosedRange<UInt8> = Frame.version...Frame.version,
        unreadableRecipients: UnreadableRecipients = .skip,
        beforeAgreement: BeforeAgreement = .hold(messages: 256, bytes: 1 << 20),
        engine: NegotiationEngine<ParticipantID>.Configuration = .init(), clock: TimerClock? = nil
    ) {
        self.schema = schema
        self.envelopeVersions = envelopeVersions
        self.unreadableRecipients = unreadableRecipients
        self.beforeAgreement = beforeAgreement
        self.engine = engine
        self.clock = clock
    }

    /// Settings announcing the spec a generated message set was compiled from, so the
    /// hello always says what the app's types read and write:
    /// `NegotiationSettings(messages: DrawTogetherMessage.self)`. Every other argument as in
    /// ``init(schema:envelopeVersions:unreadableRecipients:beforeAgreement:engine:clock:)``.
    /// - Throws: `WireError.Kind.invalidSchema` when the set carries no spec text (see
    ///   `HelloSchema.init(messages:)`).
    public init<Messages: WireMessageSet>(
        messages: Messages.Type, unreadableRecipients: UnreadableRecipients = .skip,
        beforeAgreement: BeforeAgreement = .hold(messages: 256, bytes: 1 << 20)
    ) throws(WireError) {
        self.init(
            schema: try HelloSchema(messages: messages), unreadableRecipients: unreadableRecipients,
            beforeAgreement: beforeAgreement)
    }

    /// The hello for a messenger with `codec` and `limits` over a transport carrying at
    /// most `maxMessageSize` bytes: the codec with its dictionaries (none without a codec),
    /// the smaller frame size, and the schema.
    func hello(codec: (any PayloadCodec)?, limits: Limits, transportMaxMessageSize: Int) -> Hello {
        let codecs =
            codec.map { codec in
                [
                    HelloCodec(
                        codec: codec.codecID, dictionaries: codec.dictionaryFiles().compactMap { HelloDictionary(dictionary: $0) }
                    )
                ]
            } ?? []
        return Hello(
            envelopeVersions: envelopeVersions, codecs: codecs,
            maxFrameSize: max(64, min(limits.maxFrameSize, transportMaxMessageSize)),
            maxMessageSize: max(1, limits.maxMessageSize), schema: schema)
    }
}

/// What negotiation tells an app about a peer.
public enum NegotiationEvent: Sendable, Hashable {
    /// The peer agreed (or its agreement changed): messages flow as the `Agreement` says,
    /// and its types that either side cannot read are named there.
    case agreed(ParticipantID, Agreement)
    /// The peer is incompatible: nothing typed flows to or from it; the session goes on
    /// for everyone else.
    case incompatible(ParticipantID, NegotiationFailure)
}

extension WireError.Kind {
    /// A recipient's spec has no such message type, or cannot read this version of it
    /// (``NegotiationSettings/UnreadableRecipients/fail``).
    public static let recipientCannotRead = WireError.Kind(name: "recipientCannotRead")
}
