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
        var subscribers: [UInt64: [UInt64: Subscriber]] = [:]
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
            for id in typeIDs {
                state.subscribers[id, default: [:]][state.nextToken] = subscriber
            }
            return state.nextToken
        }
    }

    func unsubscribe(_ token: UInt64) {
        state.withLock { state in
            for id in Array(state.subscribers.keys) {
                state.subscribers[id]?[token] = nil
                if state.subscribers[id]?.isEmpty == true { state.subscribers[id] = nil }
            }
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

    /// Decodes `message` (a data message from `source`) by its type and hands it to every
    /// stream listening for its type id.
    func deliver(_ message: ReceivedMessage, from source: ParticipantID, limits: Limits) -> Outcome {
        let (subscribers, registered, isRaw) = state.withLock { state in
            (
                state.subscribers[message.typeID].map { Array($0.values) } ?? [],
                state.registry.type(for: message.typeID), state.rawTypeIDs.contains(message.typeID)
            )
        }
        guard !subscribers.isEmpty else { return .unrouted }
        let value: any Sendable
        if isRaw {
            value = message.payload
        } else if let registered {
            do {
                value = try message.decode(as: registered, limits: limits)
            } catch {
                return .rejected(
                    WireError(error.kind, offset: error.offset, "\(registered.wireTypeName) from \(source): \(error.context)"))
            }
        } else {
            return .unrouted
        }
        let context = MessageContext(
            source: source, typeID: message.typeID, wasCompressed: message.compression != nil,
            session: message.session)
        for subscriber in subscribers {
            subscriber.deliver(value, context)
        }
        return .delivered
    }

    /// Finishes every stream: the transport closed, for `reason`.
    func finish(reason: String) {
        let subscribers = state.withLock { state -> [Subscriber] in
            state.closeReason = reason
            let all = state.subscribers.values.flatMap { $0.values }
            state.subscribers.removeAll()
            return all
        }
        for subscriber in subscribers {
            subscriber.finish()
        }
    }
}

/// One stream listening for messages.
struct Subscriber: Sendable {
    let deliver: @Sendable (any Sendable, MessageContext) -> Void
    let finish: @Sendable () -> Void
    /// The session whose end finishes the stream, if any.
    var session: UInt32?
}
