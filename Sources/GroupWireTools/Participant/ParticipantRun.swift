import Foundation
import GroupWire
import GroupWireCapture
import GroupWireCompression
import GroupWireNegotiation
import GroupWireNetwork
import GroupWireSession
import Synchronization

/// One run of ``ParticipantTool`` with the types of `Canvas`.
struct ParticipantRun<Canvas: ParticipantCanvas> {
    let tool: ParticipantTool
    let schema: HelloSchema

    /// What the listening tasks share.
    private final class Canvas_: Sendable {
        /// The most points a snapshot brought (the app keeps a snapshot only when it has more).
        let kept = Mutex<UInt64>(0)
    }

    func run() async throws {
        let relay: RelayTransport
        do {
            // With other nodes to go to, a lost connection is made again (for as long as the
            // run may wait), and the delivery layer below sends again what the move lost.
            let reconnect =
                tool.alternatives.isEmpty
                ? nil
                : RelayReconnect(
                    within: tool.timeout, alternatives: tool.alternatives.map { RelayAddress(host: tool.host, port: $0) })
            relay = try await RelayTransport.connect(
                host: tool.host, port: tool.port, token: tool.token, tls: tool.tls, reconnect: reconnect, timeout: tool.timeout)
        } catch {
            throw ParticipantFailure("cannot join through the relay at \(tool.host):\(tool.port): \(error)")
        }
        // The demo gives each participant process GROUPWIRE_CAPTURE: its frames as they travel.
        let transport = CountingTransport(CapturingTransport.fromEnvironment(relay))
        let local = relay.localParticipant
        var welcome = ParticipantEvent(.welcome)
        welcome.participant = Self.name(relay.localParticipant)
        welcome.identity = relay.welcome.you.identity
        welcome.version = Canvas.version
        Self.emit(welcome)

        // A move takes a node timeout and a reconnect: the layer waits for a peer longer than
        // the relay keeps its place (the cluster demo's grace is 10 s).
        var layer = DeliveryConfiguration()
        layer.peerTimeout = .seconds(30)
        let messenger = Messenger(
            transport: tool.alternatives.isEmpty ? transport : DeliveryTransport(over: transport, configuration: layer),
            configuration: MessengerConfiguration(
                codec: tool.zstd ? try PayloadCompressor() : nil, negotiation: NegotiationSettings(schema: schema)))
        // Negotiation events are reported from when the stream is made: make it first.
        let negotiation = messenger.negotiationEvents()
        var tasks: [Task<Void, Never>] = []
        defer { for task in tasks { task.cancel() } }
        let reported = Reported()
        tasks.append(
            Task {
                for await event in negotiation {
                    // One line per peer's first agreement (or failure): the end of the run
                    // reports what this stream has not (yet) told.
                    guard reported.claim(event.peer) else { continue }
                    Self.emit(Self.event(event))
                }
            })
        let coordinator = SharedSessionCoordinator(messenger: messenger)
        let sessions = coordinator.sessions(for: DrawTogetherActivity.self)
        if tool.activate {
            try await until("this participant to be able to start a session") {
                coordinator.stateObserver.isEligibleForGroupSession
            }
            try coordinator.activate(DrawTogetherActivity(name: relay.welcome.room))
        }
        let session = try await first(of: sessions)
        // Everything that takes time happens before the join: the others send their
        // snapshots as soon as they see this participant, and a message that arrives
        // before its stream exists is not kept.
        let painter = local.uuid.uuid.0
        let offered = Canvas.canvas(strokes: tool.canvasStrokes, seed: UInt64(painter))
        let offeredJSON = try JSONEncoder().encode(offered).count
        let strokes = try session.messenger.messages(of: Canvas.StrokeMessage.self)
        try session.join()
        let joinedAt = ContinuousClock.now

        let updates = session.activeParticipantUpdates
        tasks.append(
            Task {
                var known: Set<ParticipantID> = [local]
                for await participants in updates {
                    for joined in participants.subtracting(known).sorted() where joined != local { Self.emit(.joined, joined) }
                    for left in known.subtracting(participants).sorted() where left != local { Self.emit(.left, left) }
                    known = participants
                    var event = ParticipantEvent(.session)
                    event.count = participants.count
                    Self.emit(event)
                }
            })
        tasks.append(
            Task {
                for await (stroke, context) in strokes {
                    var event = ParticipantEvent(.stroke)
                    event.participant = Self.name(context.source)
                    event.index = Canvas.index(of: stroke)
                    Self.emit(event)
                }
            })
        let kept = Canvas_()
        let catchUp = try CatchUp(
            session: session,
            makeSnapshot: {
                transport.countJSON(offeredJSON)
                return offered
            },
            replaces: { snapshot in
                kept.kept.withLock { kept in
                    guard Canvas.points(in: snapshot) > kept else { return false }
                    kept = Canvas.points(in: snapshot)
                    return true
                }
            })
        defer { catchUp.stop() }
        let snapshots = catchUp.snapshots
        tasks.append(
            Task {
                for await (snapshot, context) in snapshots {
                    var event = ParticipantEvent(.snapshot)
                    event.participant = Self.name(context.source)
                    event.points = Canvas.points(in: snapshot)
                    event.compressed = context.wasCompressed
                    event.milliseconds = Self.milliseconds(ContinuousClock.now - joinedAt)
                    Self.emit(event)
                }
            })

        // Every peer's negotiation is reported before statistics and the last line, however
        // far behind the reporting task is (a process under load quitting right after an
        // agreement) or however early it came (a late joiner's first hellos can be answered
        // before its stream exists): a process killed after `statistics` has said it too.
        func reportNegotiations() {
            for peer in messenger.reachableParticipants.sorted() where reported.claim(peer) {
                switch messenger.negotiationState(of: peer) {
                case .agreed(let agreement)?: Self.emit(Self.event(.agreed(peer, agreement)))
                case .incompatible(let failure)?: Self.emit(Self.event(.incompatible(peer, failure)))
                case .helloSent?, nil: reported.release(peer)
                }
            }
        }

        var next = 0
        let strokeJSON = try JSONEncoder().encode(Canvas.stroke(0, by: painter)).count
        for await line in Self.commands() {
            let words = line.split(separator: " ")
            switch words.first {
            case "draw":
                guard words.count == 3, let count = Int(words[1]), let pause = Int(words[2]), count >= 0,
                    (0...10_000).contains(pause)
                else {
                    Self.emit(error: "'\(line)': expected draw COUNT MILLISECONDS")
                    continue
                }
                for _ in 0..<count {
                    try await session.messenger.send(Canvas.stroke(next, by: painter))
                    transport.countJSON(strokeJSON)
                    next += 1
                    if pause > 0 { try await Task.sleep(for: .milliseconds(pause)) }
                }
                var event = ParticipantEvent(.sent)
                event.count = next
                Self.emit(event)
            case "statistics":
                reportNegotiations()
                Self.emit(statistics(transport, relay))
            case "quit":
                break
            default:
                Self.emit(error: "'\(line)': expected draw COUNT MILLISECONDS, statistics or quit")
                continue
            }
            if words.first == "quit" { break }
        }
        try? session.leave()
        reportNegotiations()
        Self.emit(statistics(transport, relay))
        await relay.close()
    }

    private func statistics(_ transport: CountingTransport, _ relay: RelayTransport) -> ParticipantEvent {
        var counts = transport.statistics
        counts.relayBytesSent = relay.statistics.bytesSent
        counts.relayBytesReceived = relay.statistics.bytesReceived
        var event = ParticipantEvent(.statistics)
        event.statistics = counts
        return event
    }

    /// The first session offered, within the timeout.
    private func first(of sessions: AsyncStream<SharedSession<DrawTogetherActivity>>) async throws -> SharedSession<
        DrawTogetherActivity
    > {
        let found = Mutex<SharedSession<DrawTogetherActivity>?>(nil)
        let task = Task {
            for await session in sessions {
                found.withLock { $0 = session }
                return
            }
        }
        defer { task.cancel() }
        try await until("a session to be offered") { found.withLock { $0 != nil } }
        guard let session = found.withLock({ $0 }) else { throw ParticipantFailure("no session was offered") }
        return session
    }

    /// Waits until `condition` holds, at most the tool's timeout.
    private func until(_ what: String, _ condition: () -> Bool) async throws {
        let deadline = ContinuousClock.now + tool.timeout
        while !condition() {
            guard ContinuousClock.now < deadline else {
                throw ParticipantFailure("gave up waiting for \(what) after \(tool.timeout)")
            }
            try await Task.sleep(for: .milliseconds(10))
        }
    }

    /// Standard input's lines, read on a thread of their own; finishes at the end of input.
    private static func commands() -> AsyncStream<String> {
        let (stream, continuation) = AsyncStream<String>.makeStream()
        let reader = Thread {
            while let line = readLine() { continuation.yield(line.trimmingCharacters(in: .whitespaces)) }
            continuation.finish()
        }
        reader.start()
        return stream
    }

    private static func event(_ negotiation: NegotiationEvent) -> ParticipantEvent {
        switch negotiation {
        case .agreed(let peer, let agreement):
            var event = ParticipantEvent(.agreed)
            event.participant = name(peer)
            event.version = agreement.envelopeVersion.map(UInt64.init)
            event.detail = agreement.sending.codec == nil ? "uncompressed" : "zstd"
            return event
        case .incompatible(let peer, let failure):
            var event = ParticipantEvent(.incompatible)
            event.participant = name(peer)
            event.detail = "\(failure)"
            return event
        }
    }

    static func name(_ participant: ParticipantID) -> String { participant.uuid.uuidString.lowercased() }

    static func milliseconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
    }

    private static func emit(_ kind: ParticipantEvent.Kind, _ participant: ParticipantID) {
        var event = ParticipantEvent(kind)
        event.participant = name(participant)
        emit(event)
    }

    private static func emit(error text: String) {
        var event = ParticipantEvent(.error)
        event.detail = text
        emit(event)
    }

    /// One line, written at once: the driving program reads as it goes.
    static func emit(_ event: ParticipantEvent) {
        StandardStreams.standardOutput(event.line)
    }
}

/// Why a participant stopped.
struct ParticipantFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// The peers whose negotiation a participant has reported.
private final class Reported: Sendable {
    private let peers = Mutex<Set<ParticipantID>>([])
    /// Whether `peer` is reported now for the first time (the caller then reports it).
    func claim(_ peer: ParticipantID) -> Bool { peers.withLock { $0.insert(peer).inserted } }
    /// `peer` was not reported after all.
    func release(_ peer: ParticipantID) { _ = peers.withLock { $0.remove(peer) } }
}

extension NegotiationEvent {
    /// The peer the event is about.
    fileprivate var peer: ParticipantID {
        switch self {
        case .agreed(let peer, _), .incompatible(let peer, _): peer
        }
    }
}
