import GroupWire

/// One session of an activity on this participant, as Apple's `GroupSession`: received
/// from ``SharedSessionCoordinator/sessions(for:)`` in the `waiting` state, `join()`ed when
/// the app is ready, and invalidated when it leaves, when anyone ends it, or when a newer
/// activation replaces it. An invalidated session is never reused.
public final class SharedSession<Activity: SharedActivity>: Sendable, Identifiable {
    /// The session id every frame of the session names (Spec/FORMAT.md, "Sessions").
    public let id: UInt32
    /// The activity as it was when this participant received the session.
    public let initialActivity: Activity
    private let coordinator: SharedSessionCoordinator

    init(coordinator: SharedSessionCoordinator, id: UInt32, activity: Activity) {
        self.coordinator = coordinator
        self.id = id
        initialActivity = activity
    }

    /// The current activity: the newest replacement every participant converges on.
    public var activity: Activity {
        guard let announcement = coordinator.announcement(of: id),
            let value = try? WireDecoder().decode(Activity.self, from: announcement.activity)
        else { return initialActivity }
        return value
    }

    /// This participant's state now.
    public var state: SharedSessionState { coordinator.state(of: id) }

    /// The state now and each change after it; finishes once the session is invalidated.
    public var states: AsyncStream<SharedSessionState> { coordinator.states(of: id) }

    /// The participants that joined the session (this one too, once joined); one person on
    /// two devices counts twice.
    public var activeParticipants: Set<ParticipantID> { coordinator.activeParticipants(of: id) }

    /// The participants now and after each change; finishes when the session stops being current.
    public var activeParticipantUpdates: AsyncStream<Set<ParticipantID>> { coordinator.participantUpdates(of: id) }

    /// This device.
    public var localParticipant: ParticipantID { coordinator.localParticipant }

    /// Sends and receives this session's messages, reliably.
    public var messenger: SharedSessionMessenger { messenger(deliveryMode: .reliable) }

    /// A messenger for this session whose sends travel in `deliveryMode`, as Apple's
    /// `GroupSessionMessenger(session:deliveryMode:)`: unreliable for frequent updates
    /// that each replace the last (Spec/FORMAT.md, "Delivery").
    public func messenger(deliveryMode: DeliveryMode) -> SharedSessionMessenger {
        SharedSessionMessenger(coordinator: coordinator, session: id, deliveryMode: deliveryMode)
    }

    /// Joins: messages start to flow and the others see this participant.
    /// - Throws: ``SharedSessionError/Kind/notWaiting`` unless waiting;
    ///   ``SharedSessionError/Kind/invalidated`` once invalidated.
    public func join() throws(SharedSessionError) {
        try coordinator.join(id)
    }

    /// Leaves, for this participant only; the session is invalidated (`left`) here.
    /// - Throws: ``SharedSessionError/Kind/notJoined`` unless joined.
    public func leave() throws(SharedSessionError) {
        try coordinator.leave(id)
    }

    /// Ends the session for everyone.
    /// - Throws: ``SharedSessionError/Kind/invalidated`` once invalidated.
    public func end() throws(SharedSessionError) {
        try coordinator.end(id)
    }

    /// Replaces the activity for everyone; concurrent replacements converge on the one
    /// with the newest Lamport stamp.
    /// - Throws: ``SharedSessionError/Kind/notJoined`` unless joined.
    public func replaceActivity(with activity: Activity) throws(SharedSessionError) {
        try coordinator.replaceActivity(id, with: activity)
    }
}

/// A session's messenger, as Apple's `GroupSessionMessenger`: what it sends names the
/// session in every frame, and it delivers only messages of its session while joined, so
/// nothing of an ended session ever reaches the next.
public struct SharedSessionMessenger: Sendable {
    let coordinator: SharedSessionCoordinator
    /// The session's id.
    public let session: UInt32
    /// How what it sends travels.
    public let deliveryMode: DeliveryMode

    /// Sends `message` to the session's participants.
    /// - Throws: ``SharedSessionError/Kind/invalidated`` (with the reason: left, ended,
    ///   replaced, transport closed) once the session is over here;
    ///   ``SharedSessionError/Kind/notJoined`` while it waits;
    ///   ``SharedSessionError/Kind/sendFailed`` with the messenger's error.
    /// - Returns: the recipients negotiation left out, and why (``Messenger/send(_:to:mode:)``).
    @discardableResult
    public func send<Message: MessageCodable>(_ message: Message, to recipients: Recipients = .all)
        async throws(SharedSessionError) -> SendReport
    {
        switch coordinator.state(of: session) {
        case .joined: break
        case .waiting: throw SharedSessionError(.notJoined, session: session, "messages flow only while the session is joined")
        case .invalidated(let reason):
            throw SharedSessionError(.invalidated, session: session, "the session is over here: \(reason)")
        }
        do {
            return try await coordinator.messenger.send(message, to: recipients, session: session, mode: deliveryMode)
        } catch {
            throw SharedSessionError(.sendFailed, session: session, "\(error)")
        }
    }

    /// The messages of `type` sent in this session, delivered while it is joined here; the
    /// stream finishes when the session ends here (left, ended, replaced, transport closed).
    /// - Throws: `WireError.Kind.duplicateTypeID` when another type uses its type id.
    public func messages<Message: MessageCodable>(of type: Message.Type) throws(WireError) -> Messenger.Messages<Message> {
        let messenger = coordinator.messenger
        return try sessionStream { session, accept throws(WireError) in
            try messenger.messages(of: type, session: session, where: accept)
        }
    }

    /// Every message of a spec sent in this session, as the generated enum over them
    /// (`DrawTogetherMessage`), delivered while it is joined here; the stream finishes when
    /// the session ends here.
    /// - Throws: `WireError.Kind.duplicateTypeID` when another type uses an id of the set.
    public func messages<MessageSet: WireMessageSet>(of set: MessageSet.Type) throws(WireError) -> Messenger.Messages<MessageSet>
    {
        let messenger = coordinator.messenger
        return try sessionStream { session, accept throws(WireError) in
            try messenger.messages(of: set, session: session, where: accept)
        }
    }

    /// A stream `subscribe` makes for this session with its filter (this session's messages,
    /// while joined here); finished at once when the session is over already.
    private func sessionStream<Element>(
        _ subscribe: (UInt32, @escaping @Sendable (MessageContext) -> Bool) throws(WireError) -> Messenger.Messages<Element>
    ) throws(WireError) -> Messenger.Messages<Element> {
        let session = session
        let coordinator = coordinator
        let stream = try subscribe(session) { context in context.session == session && coordinator.isJoined(session) }
        if case .invalidated = coordinator.state(of: session) { coordinator.messenger.endStreams(of: session) }
        return stream
    }
}
