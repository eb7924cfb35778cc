import GroupWire
import Synchronization

/// Brings participants who join a session late up to date, as DrawTogether does: this
/// participant watches the session's ``SharedSession/activeParticipants``, and whenever
/// someone new appears it sends them (and only them) a snapshot of its state, reliably.
/// Snapshots others send here arrive on ``snapshots``, filtered by the app's rule:
/// whether a snapshot replaces local state is for the app to say (DrawTogether keeps one
/// only if its point count beats the points it has).
///
/// ```swift
/// let catchUp = try CatchUp(session: session, makeSnapshot: { canvas.snapshot() },
///                           replaces: { $0.pointCount > canvas.pointCount })
/// for await (snapshot, _) in catchUp.snapshots { canvas.load(snapshot) }
/// ```
///
/// `replaces` runs as each snapshot arrives, which can be before the app's loop has loaded
/// the one before it (a late joiner gets several at once): a rule that compares with what
/// was loaded holds only if `replaces` records what it accepts, or if loading merges (as
/// DrawingTogether's does), so that a smaller snapshot loaded after a larger one loses
/// nothing.
///
/// The participants present when watching starts are the baseline (a late joiner does not
/// send snapshots to those already there; they send theirs to it). Start it once the
/// session is joined; ``stop()`` (or releasing it) ends both tasks.
public final class CatchUp<Snapshot: MessageCodable>: Sendable {
    /// The snapshots other participants sent this one that `replaces` accepted, with their
    /// context (sender, compression); finishes when the session stops being current or ``stop()`` is called.
    public let snapshots: AsyncStream<(snapshot: Snapshot, context: MessageContext)>
    private let tasks: [Task<Void, Never>]
    private let ledger: Ledger

    /// Who was sent a snapshot, shared with the watching task.
    private final class Ledger: Sendable {
        let sent = Mutex<[ParticipantID]>([])
    }

    /// Starts watching `session` and listening for snapshots.
    /// - Parameters:
    ///   - session: a joined session.
    ///   - makeSnapshot: the snapshot to send to newcomers now, or nil for nothing to send
    ///     (an empty canvas).
    ///   - replaces: whether a received snapshot should replace local state.
    /// - Throws: `WireError.Kind.duplicateTypeID` when another type uses the snapshot's
    ///   type id on the session's messenger.
    public init<Activity: SharedActivity>(
        session: SharedSession<Activity>,
        makeSnapshot: @escaping @Sendable () -> Snapshot?,
        replaces: @escaping @Sendable (Snapshot) -> Bool
    ) throws(WireError) {
        let messenger = session.messenger
        let incoming = try messenger.messages(of: Snapshot.self)
        let (stream, continuation) = AsyncStream<(snapshot: Snapshot, context: MessageContext)>.makeStream()
        snapshots = stream
        let ledger = Ledger()
        self.ledger = ledger
        let local = session.localParticipant
        let updates = session.activeParticipantUpdates
        let watching = Task {
            var known: Set<ParticipantID>?
            for await participants in updates {
                let others = participants.subtracting([local])
                defer { known = others }
                guard let before = known else { continue }
                let newcomers = others.subtracting(before)
                guard !newcomers.isEmpty, let snapshot = makeSnapshot() else { continue }
                // Session control and snapshots travel reliably: the session's messenger is
                // in reliable mode. A failed send (the session ended) ends nothing here.
                if (try? await messenger.send(snapshot, to: .only(newcomers))) != nil {
                    ledger.sent.withLock { $0.append(contentsOf: newcomers.sorted()) }
                }
            }
        }
        let receiving = Task {
            for await (snapshot, context) in incoming where replaces(snapshot) {
                continuation.yield((snapshot, context))
            }
            continuation.finish()
        }
        continuation.onTermination = { _ in receiving.cancel() }
        tasks = [watching, receiving]
    }

    /// The participants this one has sent a snapshot to, in order.
    public var snapshotsSent: [ParticipantID] { ledger.sent.withLock { $0 } }

    /// Stops watching and listening.
    public func stop() {
        for task in tasks { task.cancel() }
    }

    deinit {
        stop()
    }
}
