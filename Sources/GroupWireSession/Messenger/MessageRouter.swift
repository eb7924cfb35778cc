import GroupWire
import Synchronization

/// Which types a messenger reads and who listens for them: the type registry, the raw
/// type ids, the streams subscribed per type id; a received data message is decoded by
/// the type its id names and handed to every stream listening. Streams are fed and
/// finished outside the lock, so a stream's termination handler may call back in.
final class MessageRouter: Sendable {
    /// What became of a received data message.
    enum Outcome {
        case delivered
        /// Nobody listens for its type id (or no type reads it).
        case unrouted
        /// Its payload does not decode as its type.
        case rejected(WireError)
    }

    private struct State {
        var registry = MessageRegistry()
        var rawTypeIDs: Swift.Set<UInt64> = []
        /// The streams listening per type id, in the order they subscribed.
        var subscribers: [UInt64: [Subscriber]] = [:]
        var nextToken: UInt64 = 0
        /// Why the transport closed, once it has: no stream is made or fed any more.
        var closeReason: String?
    }

    private let state = Mutex(State())

    /// - Throws: `transportClosed`, with the transport's reason, once it has closed.
    func checkOpen() throws(WireError) {
        if let reason = closeReason {
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
            guard state.closeReason == nil else { return nil }
            state.nextToken += 1
            var subscriber = subscriber
            subscriber.token = state.nextToken
            for id in typeIDs where !(state.subscribers[id]?.contains { $0.token == subscriber.token } ?? false) {
                state.subscribers[id, default: []].append(subscriber)
            }
            return state.nextToken
        }
    }

    func unsubscribe(_ token: UInt64) {
        state.withLock { state in
            for id in Array(state.subscribers.keys) {
                state.subscribers[id]?.removeAll { $0.token == token }
                if state.subscribers[id]?.isEmpty == true { state.subscribers[id] = nil }
            }
        }
    }

    /// Removes and finishes the subscribers made for `session`.
    func endSubscriptions(of session: UInt32) {
        let ended = state.withLock { state -> [Subscriber] in
            var ended: [UInt64: Subscriber] = [:]
            for id in Array(state.subscribers.keys) {
                for subscriber in state.subscribers[id] ?? [] where subscriber.session == session {
                    ended[subscriber.token] = subscriber
                }
                state.subscribers[id]?.removeAll { $0.session == session }
                if state.subscribers[id]?.isEmpty == true { state.subscribers[id] = nil }
            }
            return Array(ended.values)
        }
        for subscriber in ended { subscriber.finish() }
    }

    /// Hands `message` (a data message from `source`) to every stream listening for its
    /// type id; each decodes it as its own type (one registered type per id, so they agree),
    /// straight into its element: no boxed value between them.
    func deliver(_ message: ReceivedMessage, from source: ParticipantID, limits: Limits) -> Outcome {
        let (subscribers, registered, isRaw) = state.withLock { state in
            (
                state.subscribers[message.typeID] ?? [], state.registry.type(for: message.typeID),
                state.rawTypeIDs.contains(message.typeID)
            )
        }
        guard !subscribers.isEmpty, isRaw || registered != nil else { return .unrouted }
        let context = MessageContext(
            source: source, typeID: message.typeID, wasCompressed: message.compression != nil,
            session: message.session)
        do {
            for subscriber in subscribers {
                try subscriber.deliver(message, context, limits)
            }
        } catch {
            let name = registered?.wireTypeName ?? "raw bytes"
            return .rejected(WireError(error.kind, offset: error.offset, "\(name) from \(source): \(error.context)"))
        }
        return .delivered
    }

    /// Finishes every stream: the transport closed, for `reason`.
    func finish(reason: String) {
        let subscribers = state.withLock { state -> [Subscriber] in
            state.closeReason = reason
            var all: [UInt64: Subscriber] = [:]
            for subscriber in state.subscribers.values.joined() { all[subscriber.token] = subscriber }
            state.subscribers.removeAll()
            return Array(all.values)
        }
        for subscriber in subscribers {
            subscriber.finish()
        }
    }
}

/// One stream listening for messages.
struct Subscriber: Sendable {
    /// Decodes a message of its type id (or takes its payload, for raw bytes) and hands it
    /// to the stream, or drops it when the stream's filter refuses its context.
    /// - Throws: the decoder's `WireError`.
    let deliver: @Sendable (ReceivedMessage, MessageContext, Limits) throws(WireError) -> Void
    let finish: @Sendable () -> Void
    /// The session whose end finishes the stream, if any.
    var session: UInt32?
    /// Set by the router when it subscribes.
    var token: UInt64 = 0
}
