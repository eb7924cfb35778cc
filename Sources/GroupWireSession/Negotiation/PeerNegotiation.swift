import GroupWire
import GroupWireNegotiation
import GroupWireSpec
import Synchronization

/// A message kept for a peer that has not agreed yet.
struct HeldMessage: Sendable {
    let typeID: UInt64
    let payload: [UInt8]
    let session: UInt32?
    let mode: DeliveryMode
}

/// What negotiation asks the messenger to send, in order, on its negotiation task.
enum NegotiationWork: Sendable {
    /// This participant's hello, to one peer.
    case hello([UInt8], to: ParticipantID)
    /// The messages held for a peer that just agreed.
    case flush(ParticipantID)
}

/// A messenger's negotiation: the `NegotiationEngine` over its peers, the messages held
/// for peers that have not agreed, and what each agreed peer reads, behind one lock.
/// The messenger feeds it joins, leaves and hellos from its receiving task and asks it,
/// per send, who gets the message now, who later, and who not at all.
final class PeerNegotiation: Sendable {
    private struct State {
        var engine: NegotiationEngine<ParticipantID>
        /// Per agreed peer: the verdict of each type this participant sends.
        var readable: [ParticipantID: [UInt64: TypeVerdict]] = [:]
        /// Per agreed peer: the types it sends that this participant does not read, and why.
        var unreadable: [ParticipantID: [UInt64: String]] = [:]
        /// Incompatible peers, and why.
        var incompatible: [ParticipantID: NegotiationFailure] = [:]
        /// Per agreed peer: the profile its agreement gives what this participant sends it.
        var profiles: [ParticipantID: PeerProfile] = [:]
        /// Per peer before agreement (and while its held messages are being sent).
        var held: [ParticipantID: [HeldMessage]] = [:]
        var heldBytes: [ParticipantID: Int] = [:]
        var flushing: Set<ParticipantID> = []
        var subscribers: [UInt64: AsyncStream<NegotiationEvent>.Continuation] = [:]
        var nextToken: UInt64 = 0
        var statistics = NegotiationStatistics()
    }

    /// Who a message goes to.
    struct Route {
        /// Recipients that get it now.
        var now: Set<ParticipantID> = []
        /// Recipients that get it once they agree.
        var later: Set<ParticipantID> = []
        /// The agreed profile of each recipient in ``now`` that has one: decided in the same
        /// step as its agreement, so a send never meets an agreement without its profile.
        var profiles: [ParticipantID: PeerProfile] = [:]
        /// Recipients left out, and why.
        var skipped: [SkippedRecipient] = []
    }

    /// What applying the engine's outputs leaves to do outside the lock.
    private enum Effect {
        case work(NegotiationWork)
        case event(NegotiationEvent, [AsyncStream<NegotiationEvent>.Continuation])
    }

    let settings: NegotiationSettings
    /// Why the hello could not be made, if it could not: every send then throws it.
    let configurationError: WireError?
    private let state: Mutex<State>
    private let outbox: AsyncStream<NegotiationWork>.Continuation

    init(settings: NegotiationSettings, hello: Hello, outbox: AsyncStream<NegotiationWork>.Continuation) {
        self.settings = settings
        self.outbox = outbox
        do {
            state = Mutex(State(engine: try NegotiationEngine(hello: hello, configuration: settings.engine)))
            configurationError = nil
        } catch {
            // An engine that never runs: every send throws the error instead.
            state = Mutex(State(engine: .inert))
            configurationError = WireError(error.kind, offset: error.offset, "this participant's hello: \(error.context)")
        }
    }

    /// The profile every peer gets until it agrees: version 1, uncompressed, default sizes.
    static let baseline = PeerProfile(
        compression: nil, maxFrameSize: Hello.defaultMaxFrameSize,
        maxMessageSize: Hello.defaultMaxMessageSize)

    // MARK: Input from the receiving task

    /// Handles a join, leave or hello; returns the profile changes to make.
    func handle(_ input: SessionInput, now: Duration) -> [(ParticipantID, PeerProfile?)] {
        let (effects, profiles) = state.withLock { state -> ([Effect], [(ParticipantID, PeerProfile?)]) in
            guard configurationError == nil else { return ([], []) }
            switch input {
            case .joined(let peer):
                // A peer whose hello came first is known (and maybe agreed) already: keep its profile.
                let outputs = state.engine.joined(peer, now: now)
                let (effects, profiles) = apply(outputs, to: &state)
                return (effects, (outputs.isEmpty ? [] : [(peer, Self.baseline)]) + profiles)
            case .left(let peer):
                state.engine.left(peer)
                forget(peer, in: &state, dropped: true)
                return ([], [(peer, nil)])
            case .control(let control):
                return apply(state.engine.received(hello: control.payload, from: control.source, now: now), to: &state)
            case .closed:
                // Nothing to decide: the messenger sends nothing once its transport has closed.
                return ([], [])
            }
        }
        perform(effects)
        return profiles
    }

    /// Time passed: hellos again, timeouts.
    func tick(now: Duration) -> [(ParticipantID, PeerProfile?)] {
        guard configurationError == nil else { return [] }
        let (effects, profiles) = state.withLock { state in apply(state.engine.tick(now: now), to: &state) }
        perform(effects)
        return profiles
    }

    /// Capabilities changed: the new hello goes to every peer, in order before anything
    /// sent after this call returns (the messenger sends the returned bodies itself).
    func update(hello: Hello, now: Duration) throws(WireError) -> (
        hellos: [ParticipantID], profiles: [(ParticipantID, PeerProfile?)]
    ) {
        let (hellos, effects, profiles) = try state.withLock {
            (state) throws(WireError) -> ([ParticipantID], [Effect], [(ParticipantID, PeerProfile?)]) in
            var hellos: [ParticipantID] = []
            var rest: [NegotiationEngine<ParticipantID>.Output] = []
            for output in try state.engine.update(hello: hello, now: now) {
                if case .sendHello(let peer) = output { hellos.append(peer) } else { rest.append(output) }
            }
            let (effects, profiles) = apply(rest, to: &state)
            return (hellos, effects, profiles)
        }
        perform(effects)
        return (hellos, profiles)
    }

    /// The spec this participant announces now.
    var currentSchema: HelloSchema? { state.withLock { $0.engine.hello.schema } }

    /// This participant's hello body now.
    var helloBody: [UInt8] { state.withLock { $0.engine.helloBody } }

    /// Applies the engine's outputs to the state in the same critical section as the
    /// engine's step (agreements to the readable table and the profiles, failures to the
    /// incompatible ones), so nobody sees an agreement without what follows from it.
    /// - Returns: what is left to do outside the lock (hellos and flushes to the outbox,
    ///   events to the subscribers), and the profile changes for the messenger.
    private func apply(_ outputs: [NegotiationEngine<ParticipantID>.Output], to state: inout State)
        -> ([Effect], [(ParticipantID, PeerProfile?)])
    {
        var effects: [Effect] = []
        var profiles: [(ParticipantID, PeerProfile?)] = []
        for output in outputs {
            switch output {
            case .sendHello(let peer):
                effects.append(.work(.hello(state.engine.helloBody, to: peer)))
            case .agreed(let peer, let agreement):
                var table: [UInt64: TypeVerdict] = [:]
                for type in agreement.types {
                    if let verdict = type.sending { table[type.typeID] = verdict }
                }
                state.readable[peer] = table
                var unreadable: [UInt64: String] = [:]
                for type in agreement.types {
                    if let verdict = type.receiving, !verdict.isReadable {
                        unreadable[type.typeID] = "\(type.name) from \(peer): \(verdict)"
                    }
                }
                state.unreadable[peer] = unreadable
                state.incompatible[peer] = nil
                state.statistics.agreements += 1
                if state.held[peer] != nil { state.flushing.insert(peer) }
                let profile = Self.profile(agreement)
                state.profiles[peer] = profile
                profiles.append((peer, profile))
                effects.append(.work(.flush(peer)))
                effects.append(.event(.agreed(peer, agreement), Array(state.subscribers.values)))
            case .incompatible(let peer, let failure):
                forget(peer, in: &state, dropped: true)
                state.incompatible[peer] = failure
                state.statistics.incompatiblePeers += 1
                profiles.append((peer, Self.baseline))
                effects.append(.event(.incompatible(peer, failure), Array(state.subscribers.values)))
            }
        }
        return (effects, profiles)
    }

    /// Does what ``apply(_:to:)`` left, in order.
    private func perform(_ effects: [Effect]) {
        for effect in effects {
            switch effect {
            case .work(let work): outbox.yield(work)
            case .event(let event, let subscribers): for subscriber in subscribers { subscriber.yield(event) }
            }
        }
    }

    private func forget(_ peer: ParticipantID, in state: inout State, dropped: Bool) {
        state.readable[peer] = nil
        state.profiles[peer] = nil
        state.unreadable[peer] = nil
        state.incompatible[peer] = nil
        state.flushing.remove(peer)
        if let held = state.held.removeValue(forKey: peer), dropped {
            state.statistics.heldMessagesDropped += held.count
        }
        state.heldBytes[peer] = nil
    }

    /// The profile an agreement gives what this participant sends the peer.
    static func profile(_ agreement: Agreement) -> PeerProfile {
        PeerProfile(
            envelopeVersion: agreement.envelopeVersion ?? Frame.version,
            compression: agreement.sending.codec.map {
                CompressionChoice(codec: $0, dictionaryID: agreement.sending.dictionaryID)
            },
            maxFrameSize: agreement.sending.maxFrameSize, maxMessageSize: agreement.sending.maxMessageSize)
    }

    // MARK: Sending

    /// Who gets a message of `typeID` among `recipients` (reachable or named), by each
    /// one's state and the settings' policies.
    /// - Throws: `recipientCannotRead` (policy ``NegotiationSettings/UnreadableRecipients/fail``).
    func route(typeID: UInt64, typeName: String, to recipients: Set<ParticipantID>) throws(WireError) -> Route {
        if let configurationError { throw configurationError }
        let hold = if case .hold = settings.beforeAgreement { true } else { false }
        let failing = settings.unreadableRecipients == .fail
        let ownType = MessageDecl.groupWireTypeIDs.contains(typeID)
        return try state.withLock { (state) throws(WireError) -> Route in
            var route = Route()
            for peer in recipients {
                if let table = state.readable[peer] {
                    // GroupWire's own types are outside the agreement: an agreed peer gets them.
                    let verdict = ownType ? .same : table[typeID] ?? .unknown
                    if verdict.isReadable {
                        // After the messages held for it, while they are being sent.
                        if state.flushing.contains(peer) {
                            route.later.insert(peer)
                        } else {
                            route.now.insert(peer)
                            route.profiles[peer] = state.profiles[peer]
                        }
                    } else if failing {
                        throw WireError(
                            .recipientCannotRead,
                            "\(typeName) (type id \(typeID)) cannot go to \(peer): \(verdict == .unknown ? "unknown to its spec" : "\(verdict)")"
                        )
                    } else {
                        route.skipped.append(SkippedRecipient(participant: peer, reason: .cannotRead(verdict)))
                    }
                    continue
                }
                switch state.engine.state(of: peer) {
                case .helloSent?:
                    if hold { route.later.insert(peer) } else { route.now.insert(peer) }
                case .incompatible?:
                    route.skipped.append(SkippedRecipient(participant: peer, reason: .peerIncompatible))
                case .agreed?, nil:
                    // Not a peer negotiation knows (not reachable): the transport decides.
                    route.now.insert(peer)
                }
            }
            state.statistics.recipientsSkipped += route.skipped.count
            route.skipped.sort { $0.participant < $1.participant }
            return route
        }
    }

    /// Keeps `message` for `peers` that still wait; returns those that agreed meanwhile
    /// (their held messages are all sent), which get it now.
    /// - Throws: `bufferFull` when a peer's held messages or bytes would pass the bound; nothing is kept then.
    func hold(_ message: HeldMessage, for peers: Set<ParticipantID>) throws(WireError) -> Set<ParticipantID> {
        guard case .hold(let maxMessages, let maxBytes) = settings.beforeAgreement else { return peers }
        return try state.withLock { (state) throws(WireError) -> Set<ParticipantID> in
            var ready: Set<ParticipantID> = []
            var waiting: [ParticipantID] = []
            for peer in peers {
                let pending =
                    state.flushing.contains(peer) || (state.readable[peer] == nil && state.engine.state(of: peer) == .helloSent)
                guard pending else {
                    if state.readable[peer] != nil { ready.insert(peer) }
                    continue
                }
                let count = state.held[peer]?.count ?? 0
                let bytes = state.heldBytes[peer] ?? 0
                guard count < maxMessages, bytes + message.payload.count <= maxBytes else {
                    throw WireError(
                        .bufferFull,
                        "\(peer) has not agreed yet and \(count) messages (\(bytes) bytes) wait for it; the bound is \(maxMessages) messages and \(maxBytes) bytes"
                    )
                }
                waiting.append(peer)
            }
            for peer in waiting {
                state.held[peer, default: []].append(message)
                state.heldBytes[peer, default: 0] += message.payload.count
                state.statistics.messagesHeld += 1
            }
            return ready
        }
    }

    /// The next held messages of `peer` to send, those of types it reads (the others are
    /// skipped, as a send after agreement would); nil when none are left, and the peer then
    /// takes new messages directly.
    func takeHeld(for peer: ParticipantID) -> [HeldMessage]? {
        state.withLock { state -> [HeldMessage]? in
            guard let table = state.readable[peer], let held = state.held.removeValue(forKey: peer), !held.isEmpty else {
                state.flushing.remove(peer)
                state.held[peer] = nil
                state.heldBytes[peer] = nil
                return nil
            }
            state.heldBytes[peer] = nil
            let readable = held.filter {
                MessageDecl.groupWireTypeIDs.contains($0.typeID) || table[$0.typeID]?.isReadable == true
            }
            // Held before the peer's spec was known, so no send could fail for them then.
            state.statistics.recipientsSkipped += held.count - readable.count
            return readable
        }
    }

    // MARK: Receiving

    /// Why a message of `typeID` from `peer` is not read, or nil when it is: the peer is
    /// incompatible, or the agreement says this participant's spec cannot read the type.
    func rejection(typeID: UInt64, from peer: ParticipantID) -> WireError? {
        state.withLock { state in
            if let reason = state.unreadable[peer]?[typeID] {
                return WireError(.recipientCannotRead, reason)
            }
            if let failure = state.incompatible[peer] {
                return WireError(.recipientCannotRead, "type id \(typeID) from \(peer), an incompatible peer (\(failure))")
            }
            return nil
        }
    }

    // MARK: State

    /// The profile `peer`'s agreement gives, or nil before agreement.
    func profile(of peer: ParticipantID) -> PeerProfile? {
        state.withLock { $0.profiles[peer] }
    }

    /// The state of negotiation with `peer`.
    func state(of peer: ParticipantID) -> NegotiationEngine<ParticipantID>.PeerState? {
        state.withLock { $0.engine.state(of: peer) }
    }

    var statistics: NegotiationStatistics { state.withLock { $0.statistics } }

    /// A new stream of events.
    func events() -> AsyncStream<NegotiationEvent> {
        let (stream, continuation) = AsyncStream<NegotiationEvent>.makeStream()
        let token = state.withLock { state in
            state.nextToken += 1
            state.subscribers[state.nextToken] = continuation
            return state.nextToken
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLock { $0.subscribers.removeValue(forKey: token) }
        }
        return stream
    }

    /// Ends every event stream: the transport closed.
    func finish() {
        let subscribers = state.withLock { state in
            defer { state.subscribers.removeAll() }
            return Array(state.subscribers.values)
        }
        for subscriber in subscribers { subscriber.finish() }
        outbox.finish()
    }
}

/// What negotiation did so far (``Messenger/negotiationStatistics``).
public struct NegotiationStatistics: Sendable, Hashable {
    /// Agreements reached or changed.
    public var agreements = 0
    /// Peers found incompatible.
    public var incompatiblePeers = 0
    /// Messages held for a peer before agreement.
    public var messagesHeld = 0
    /// Held messages dropped because their peer left or was incompatible.
    public var heldMessagesDropped = 0
    /// Recipients left out of a send: the type unreadable to them, or the peer incompatible.
    public var recipientsSkipped = 0

    /// All zero.
    public init() {}
}
