import GroupWire
import Synchronization

/// A messenger's ``MessengerStatistics``, counted by its parts (the sender, the planner, the
/// receiving loop) behind one lock.
final class MessengerCounters: Sendable {
    private let counts = Mutex(MessengerStatistics())

    var statistics: MessengerStatistics { counts.withLock { $0 } }

    /// One message sent, however many frames and recipients.
    func countMessage() {
        counts.withLock { $0.messagesSent += 1 }
    }

    func countSent(frames: Int) {
        counts.withLock { $0.framesSent += frames }
    }

    /// A message could not be sent or was rejected, for `error`.
    func countRejected(_ error: WireError) {
        counts.withLock { counts in
            counts.rejected += 1
            counts.lastRejection = error
        }
    }

    /// A frame was received: what the pipeline made of it, and whether its message reached
    /// a stream (`delivered`) or nobody listened (`unrouted`).
    func countReceived(_ result: ReceiveResult, delivered: Bool, unrouted: Bool) {
        counts.withLock { counts in
            counts.framesReceived += 1
            counts.partialMessagesDropped += result.drops.count
            if let rejection = result.rejection {
                counts.rejected += 1
                counts.lastRejection = rejection
            }
            if delivered { counts.messagesDelivered += 1 }
            if unrouted { counts.messagesUnrouted += 1 }
        }
    }
}
