import Foundation
import GroupWire
import GroupWireSession
import Synchronization

/// A stand-in for Apple's `GroupSessionMessenger` with the platform's limits, for testing
/// `PlatformMessengerTransport` (and anything above it) where GroupActivities does not
/// exist: one group of fake messengers in one process.
///
/// - Messages over ``maxMessageSize`` (64 KB, 65,536 bytes) fail to send with
///   ``FakePlatformError``, as the platform's do.
/// - Reliable mode delivers every message, in order, at once.
/// - Unreliable mode loses a message with probability `loss` and holds one back with
///   probability `reorder`, so that the next unreliable message to the same recipient
///   overtakes it; decisions come from a seeded generator, so a test replays.
public final class FakePlatformGroup: Sendable {
    /// The platform's message size limit.
    public let maxMessageSize: Int
    private let loss: Double
    private let reorder: Double
    private let state: Mutex<State>

    private struct Member {
        let messages: AsyncStream<PlatformMessage>.Continuation
        let participants: AsyncStream<Set<UUID>>.Continuation
        var held: PlatformMessage?
    }

    private struct State {
        var members: [UUID: Member] = [:]
        var order: [UUID] = []
        var random: SeededRandom
        var sent: [(source: UUID, mode: DeliveryMode, size: Int)] = []
    }

    /// Creates an empty group.
    public init(maxMessageSize: Int = 65_536, seed: UInt64 = 1, loss: Double = 0, reorder: Double = 0) {
        self.maxMessageSize = maxMessageSize
        self.loss = loss
        self.reorder = reorder
        state = Mutex(State(random: SeededRandom(seed: seed, stream: 0xF1A7)))
    }

    /// Adds a participant: everyone sees the new participant set.
    public func join(_ participant: UUID) -> FakePlatformMessenger {
        let (messages, messageContinuation) = AsyncStream<PlatformMessage>.makeStream()
        let (participants, participantContinuation) = AsyncStream<Set<UUID>>.makeStream()
        state.withLock { state in
            state.members[participant] = Member(messages: messageContinuation, participants: participantContinuation)
            state.order.append(participant)
            let all = Set(state.members.keys)
            for member in state.members.values { member.participants.yield(all) }
        }
        return FakePlatformMessenger(group: self, localParticipant: participant, messages: messages, participants: participants)
    }

    /// Removes a participant: its streams finish and everyone else sees it gone.
    public func leave(_ participant: UUID) {
        state.withLock { state in
            guard let member = state.members.removeValue(forKey: participant) else { return }
            state.order.removeAll { $0 == participant }
            member.messages.finish()
            member.participants.finish()
            let all = Set(state.members.keys)
            for other in state.members.values { other.participants.yield(all) }
        }
    }

    /// What was sent so far: sender, mode and size of each platform message.
    public var sent: [(source: UUID, mode: DeliveryMode, size: Int)] {
        state.withLock { $0.sent }
    }

    func send(_ data: Data, from source: UUID, to participants: Set<UUID>?, mode: DeliveryMode) throws {
        guard data.count <= maxMessageSize else {
            throw FakePlatformError(description: "message of \(data.count) bytes is over the \(maxMessageSize)-byte limit")
        }
        try state.withLock { state in
            guard state.members[source] != nil else {
                throw FakePlatformError(description: "\(source) is not in the session")
            }
            state.sent.append((source, mode, data.count))
            let message = PlatformMessage(data: data, source: source)
            for recipient in state.order where recipient != source && (participants?.contains(recipient) ?? true) {
                guard var member = state.members[recipient] else { continue }
                if mode == .unreliable {
                    let lost = state.random.chance(loss)
                    let heldBack = state.random.chance(reorder)
                    guard !lost else { continue }
                    if heldBack, member.held == nil {
                        member.held = message
                        state.members[recipient] = member
                        continue
                    }
                }
                member.messages.yield(message)
                if mode == .unreliable, let held = member.held {
                    member.messages.yield(held)
                    member.held = nil
                }
                state.members[recipient] = member
            }
        }
    }
}

/// One participant's messenger in a ``FakePlatformGroup``.
public struct FakePlatformMessenger: PlatformMessenger {
    let group: FakePlatformGroup
    /// This participant.
    public let localParticipant: UUID
    /// Messages from the others.
    public let messages: AsyncStream<PlatformMessage>
    /// The group's participant sets.
    public let participants: AsyncStream<Set<UUID>>

    /// The group's limit.
    public var maxMessageSize: Int { group.maxMessageSize }

    /// Sends as the platform would.
    public func send(_ data: Data, to participants: Set<UUID>?, mode: DeliveryMode) async throws {
        try group.send(data, from: localParticipant, to: participants, mode: mode)
    }
}

/// The error a fake platform messenger throws (too large, not in the session).
public struct FakePlatformError: Error, CustomStringConvertible {
    /// What went wrong.
    public let description: String
}
