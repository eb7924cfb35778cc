import Foundation
import GroupWire
import Synchronization

/// A ``Transport`` over a platform's group-session messenger (``PlatformMessenger``):
/// one GroupWire frame per platform message, raw bytes.
///
/// - Membership: the platform's active-participant sets become ``TransportEvent/joined(_:)``
///   and ``TransportEvent/left(_:)`` events by diffing each set against the one before
///   (this device left out); the first set names everyone already there.
/// - Size: a frame over the platform's limit (64 KB) fails with
///   `WireError.Kind.messageTooLarge` before anything of its message is sent; the
///   ``Messenger`` fragments larger messages to fit.
/// - Modes: ``send(_:to:mode:)`` sends in the platform's own reliable or unreliable mode.
///   The platform retransmits reliable messages but does not document that one sender's
///   messages arrive in order, so ``guarantees`` says reliable but not ordered: put a
///   ``DeliveryTransport`` on top and it numbers frames to deliver them in order, sending
///   its unreliable frames in the platform's unreliable mode.
///
/// On Apple platforms: `PlatformMessengerTransport(platform: GroupActivitiesMessenger(session: groupSession))` (the
/// `GroupActivitiesMessenger` adapter); in tests: `FakePlatformGroup` of GroupWireTesting.
public final class PlatformMessengerTransport: Transport {
    /// The platform messenger underneath.
    public let platform: any PlatformMessenger
    /// This device.
    public let localParticipant: ParticipantID
    /// Messages and membership changes.
    public let events: AsyncStream<TransportEvent>
    private let tasks: [Task<Void, Never>]

    /// Creates the transport and starts reading the platform's messages and participants.
    public init(platform: any PlatformMessenger) {
        self.platform = platform
        let local = platform.localParticipant
        localParticipant = ParticipantID(uuid: local)
        let (events, continuation) = AsyncStream<TransportEvent>.makeStream()
        self.events = events
        let messages = platform.messages
        let participants = platform.participants
        let finished = Finished(count: 2, continuation: continuation)
        tasks = [
            Task {
                for await message in messages {
                    continuation.yield(
                        .message(
                            TransportMessage(
                                source: ParticipantID(uuid: message.source), bytes: [UInt8](message.data),
                                arrival: ContinuousClock.now - ContinuousClock.Instant.origin)))
                }
                finished.one()
            },
            Task {
                var known: Set<UUID> = []
                for await all in participants {
                    let others = all.subtracting([local])
                    for gone in known.subtracting(others).sorted(by: { $0.uuidString < $1.uuidString }) {
                        continuation.yield(.left(ParticipantID(uuid: gone)))
                    }
                    for new in others.subtracting(known).sorted(by: { $0.uuidString < $1.uuidString }) {
                        continuation.yield(.joined(ParticipantID(uuid: new)))
                    }
                    known = others
                }
                finished.one()
            },
        ]
    }

    deinit {
        for task in tasks { task.cancel() }
    }

    /// Reliable (the platform retransmits), not documented as ordered, and the platform's
    /// message size.
    public var guarantees: TransportGuarantees {
        TransportGuarantees(isReliable: true, isOrdered: false, maxMessageSize: platform.maxMessageSize)
    }

    /// Sends `bytes` in the platform's reliable mode.
    /// - Throws: as ``send(_:to:mode:)``.
    public func send(_ bytes: [UInt8], to recipients: Recipients) async throws(WireError) {
        try await send([bytes], to: recipients, mode: .reliable)
    }

    /// Sends each frame as one platform message in `mode`.
    /// - Throws: `WireError.Kind.messageTooLarge` when any frame is over the platform's
    ///   limit (nothing is sent then); `WireError.Kind.transportClosed` with the
    ///   platform's error when a send fails.
    public func send(_ frames: [[UInt8]], to recipients: Recipients, mode: DeliveryMode) async throws(WireError) {
        let limit = platform.maxMessageSize
        for frame in frames where frame.count > limit {
            throw WireError(
                .messageTooLarge, "message of \(frame.count) bytes is over the platform messenger's \(limit)-byte limit")
        }
        let targets = recipients.participants.map { Set($0.map(\.uuid)) }
        for frame in frames {
            do {
                try await platform.send(Data(frame), to: targets, mode: mode)
            } catch {
                throw WireError(
                    .transportClosed, "the platform messenger failed to send \(frame.count) bytes (\(mode)): \(error)")
            }
        }
    }

    /// Finishes the event stream once both platform streams have.
    private final class Finished: Sendable {
        private let remaining: Mutex<Int>
        private let continuation: AsyncStream<TransportEvent>.Continuation

        init(count: Int, continuation: AsyncStream<TransportEvent>.Continuation) {
            remaining = Mutex(count)
            self.continuation = continuation
        }

        func one() {
            if remaining.withLock({
                $0 -= 1; return $0
            }) == 0 {
                continuation.finish()
            }
        }
    }
}

extension ContinuousClock.Instant {
    /// A fixed origin for arrival times: the first instant this process asked for.
    fileprivate static let origin = ContinuousClock.now
}
