import Foundation

/// What GroupWire needs of a platform's group-session messenger: Apple's
/// `GroupSessionMessenger`, in its reliable and its unreliable mode, for one session. The
/// seam between ``PlatformMessengerTransport``, which holds all the logic and is tested
/// everywhere, and the thin adapter that exists only where the platform does
/// (`GroupActivitiesMessenger`, compiled where GroupActivities can be imported).
public protocol PlatformMessenger: Sendable {
    /// This device's participant id.
    var localParticipant: UUID { get }
    /// The largest message the platform carries, in bytes (64 KB, 65,536, for
    /// `GroupSessionMessenger` in its first release).
    var maxMessageSize: Int { get }
    /// Messages from the other participants, in either mode, as they arrive.
    var messages: AsyncStream<PlatformMessage> { get }
    /// The session's active participants (this one included), now and after each change.
    var participants: AsyncStream<Set<UUID>> { get }
    /// Sends `data` as one message in `mode` to `participants`, or to everyone else when nil.
    func send(_ data: Data, to participants: Set<UUID>?, mode: DeliveryMode) async throws
}

/// One message as the platform delivers it: raw bytes and who sent them.
public struct PlatformMessage: Sendable, Hashable {
    /// The message, exactly as sent (one GroupWire frame).
    public let data: Data
    /// The sender's participant id.
    public let source: UUID

    /// Creates a delivered message.
    public init(data: Data, source: UUID) {
        self.data = data
        self.source = source
    }
}
