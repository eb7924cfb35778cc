import GroupWire

/// The negotiation state machine of one participant (Spec/FORMAT.md, "The agreement"): a
/// state per peer (hello sent, agreed, incompatible), fed with joins, leaves, received
/// hellos and clock ticks, answering with what to do. It does no I/O, so tests and the
/// fuzz target drive it step by step; `Messenger` runs one over its transport.
///
/// - A peer that joins is sent this participant's hello; its state is ``PeerState/helloSent``.
/// - The peer's hello decides the state: ``PeerState/agreed(_:)`` with the ``Agreement``,
///   or ``PeerState/incompatible(_:)`` when the two cannot talk or the hello is malformed,
///   oversized or contradictory (a typed `WireError`, never a crash).
/// - Without a hello, the hello is sent again after ``Configuration/retryInterval``,
///   doubling, and the peer is incompatible (``NegotiationFailure/Kind/noHello``) after
///   ``Configuration/timeout``.
/// - A peer that sends the same hello again has not received this one's (it retries): it is
///   sent again, at most once per ``Configuration/retryInterval``, so two peers never
///   answer each other's repeats forever.
/// - ``update(hello:now:)`` (a new dictionary, another spec after an activity change) sends the
///   new hello to every peer and decides again with each peer's last hello.
public struct NegotiationEngine<Peer: Hashable & Sendable>: Sendable {
    /// Timers and limits of the negotiation.
    public struct Configuration: Sendable, Hashable {
        /// How long to wait for a peer's hello before sending this one again (then twice as
        /// long, and so on). Default 1 s.
        public var retryInterval: Duration
        /// How long a peer may take to send its hello before it is incompatible
        /// (``NegotiationFailure/Kind/noHello``). Default 10 s.
        public var timeout: Duration
        /// What a received hello is checked against.
        public var limits: HelloLimits

        /// Creates a configuration; every argument defaults to the documented default.
        public init(retryInterval: Duration = .seconds(1), timeout: Duration = .seconds(10), limits: HelloLimits = .default) {
            self.retryInterval = retryInterval
            self.timeout = timeout
            self.limits = limits
        }
    }

    /// Where negotiation with one peer stands.
    public enum PeerState: Sendable, Hashable {
        /// This participant's hello went out; the peer's has not come.
        case helloSent
        /// Both hellos are known and the peers talk, as the agreement says.
        case agreed(Agreement)
        /// The peers do not talk; the failure says why.
        case incompatible(NegotiationFailure)
    }

    /// What the engine asks its owner to do or to tell.
    public enum Output: Sendable, Hashable {
        /// Send ``NegotiationEngine/helloBody`` to the peer, as control id 16.
        case sendHello(Peer)
        /// The peer agreed, or its agreement changed.
        case agreed(Peer, Agreement)
        /// The peer is incompatible (again, or for another reason than before).
        case incompatible(Peer, NegotiationFailure)
    }

    private struct Record: Sendable {
        var state: PeerState = .helloSent
        var since: Duration
        var lastSent: Duration
        var retries = 0
        /// The peer's last valid hello and its body.
        var remote: Hello?
        var remoteBody: [UInt8]?
    }

    /// The configuration.
    public let configuration: Configuration
    /// This participant's hello.
    public private(set) var hello: Hello
    /// This participant's hello body, as sent.
    public private(set) var helloBody: [UInt8]
    private var peers: [Peer: Record] = [:]

    /// Creates the engine for a participant announcing `hello`.
    /// - Throws: the hello's encoding errors (`limitExceeded` over `maxHelloSize`, `invalidValue`).
    public init(hello: Hello, configuration: Configuration = Configuration()) throws(WireError) {
        self.configuration = configuration
        self.hello = hello
        helloBody = try hello.payload(limits: configuration.limits)
    }

    /// An engine that never negotiates, for a participant whose own hello could not be
    /// made: it announces version 1 and nothing else, and its owner refuses every send.
    package static var inert: NegotiationEngine { NegotiationEngine() }

    private init() {
        configuration = Configuration()
        hello = Hello()
        helloBody = [0x08, 0x01, 0x10, 0x01]  // Hello(): field 1 = 1, field 2 = 1.
    }

    /// The state of negotiation with `peer`, nil for a peer never seen (or gone).
    public func state(of peer: Peer) -> PeerState? {
        peers[peer]?.state
    }

    /// The peers known now.
    public var knownPeers: [Peer] { Array(peers.keys) }

    /// `peer` became reachable: it is sent this hello (unless it already has been).
    public mutating func joined(_ peer: Peer, now: Duration) -> [Output] {
        guard peers[peer] == nil else { return [] }
        peers[peer] = Record(since: now, lastSent: now)
        return [.sendHello(peer)]
    }

    /// `peer` left: everything about it is forgotten; a later join negotiates afresh.
    public mutating func left(_ peer: Peer) {
        peers[peer] = nil
    }

    /// `peer`'s hello body arrived.
    public mutating func received(hello body: [UInt8], from peer: Peer, now: Duration) -> [Output] {
        var outputs: [Output] = []
        var record: Record
        if let known = peers[peer] {
            record = known
        } else {
            // A hello before the join: the peer is there, and gets this hello in return.
            record = Record(since: now, lastSent: now)
            outputs.append(.sendHello(peer))
        }
        defer { peers[peer] = record }
        if record.remoteBody == body {
            // The same hello again: the peer is still waiting for this one's.
            if outputs.isEmpty && now - record.lastSent >= configuration.retryInterval {
                record.lastSent = now
                outputs.append(.sendHello(peer))
            }
            return outputs
        }
        let remote: Hello
        do {
            remote = try Hello(payload: body, limits: configuration.limits)
        } catch {
            let failure = NegotiationFailure(.invalidHello, "\(error)")
            if record.state != .incompatible(failure) { outputs.append(.incompatible(peer, failure)) }
            record.state = .incompatible(failure)
            record.remote = nil
            record.remoteBody = nil
            return outputs
        }
        record.remote = remote
        record.remoteBody = body
        outputs += decide(&record, peer: peer)
        return outputs
    }

    /// Time passed: hellos are sent again, and peers that never answered become incompatible.
    public mutating func tick(now: Duration) -> [Output] {
        var outputs: [Output] = []
        for peer in peers.keys.sorted(by: { "\($0)" < "\($1)" }) {
            guard var record = peers[peer], case .helloSent = record.state else { continue }
            if now - record.since >= configuration.timeout {
                let failure = NegotiationFailure(.noHello, "no hello within \(configuration.timeout)")
                record.state = .incompatible(failure)
                outputs.append(.incompatible(peer, failure))
            } else if now - record.lastSent >= configuration.retryInterval * (1 << min(record.retries, 16)) {
                record.retries += 1
                record.lastSent = now
                outputs.append(.sendHello(peer))
            }
            peers[peer] = record
        }
        return outputs
    }

    /// This participant's capabilities changed: every known peer is sent `hello`, and the
    /// agreements with peers whose hello is known are decided again.
    /// - Throws: the new hello's encoding errors; nothing changes then.
    public mutating func update(hello newHello: Hello, now: Duration) throws(WireError) -> [Output] {
        let body = try newHello.payload(limits: configuration.limits)
        hello = newHello
        helloBody = body
        var outputs: [Output] = []
        for peer in peers.keys.sorted(by: { "\($0)" < "\($1)" }) {
            guard var record = peers[peer] else { continue }
            record.lastSent = now
            outputs.append(.sendHello(peer))
            if record.remote != nil { outputs += decide(&record, peer: peer) }
            peers[peer] = record
        }
        return outputs
    }

    /// Decides a record with a known remote hello; outputs only what changed.
    private func decide(_ record: inout Record, peer: Peer) -> [Output] {
        guard let remote = record.remote else { return [] }
        let agreement = Agreement(local: hello, remote: remote)
        let state: PeerState
        let output: Output
        switch agreement.status {
        case .agreed:
            state = .agreed(agreement)
            output = .agreed(peer, agreement)
        case .incompatible(let failure):
            state = .incompatible(failure)
            output = .incompatible(peer, failure)
        }
        guard state != record.state else { return [] }
        record.state = state
        return [output]
    }
}
