#if canImport(GroupActivities) && !os(Linux)
    import Combine
    import Foundation
    import GroupActivities
    import Synchronization

    /// Apple's `GroupSessionMessenger` as a ``PlatformMessenger``: one messenger per delivery
    /// mode for one `GroupActivities.GroupSession`, raw `Data`, participants by their ids.
    /// Deliberately thin: all logic sits in ``PlatformMessengerTransport``, which is tested on
    /// every platform against `FakePlatformGroup`.
    ///
    /// ```swift
    /// for await session in DrawTogether.sessions() {
    ///     let transport = DeliveryTransport(over: PlatformMessengerTransport(platform: GroupActivitiesMessenger(session: session)))
    ///     let messenger = Messenger(transport: transport)
    ///     session.join()
    /// }
    /// ```
    @available(iOS 17, macOS 14, tvOS 17, visionOS 1, *)
    public final class GroupActivitiesMessenger: PlatformMessenger {
        /// This device's participant id.
        public let localParticipant: UUID
        /// 64 KB: `GroupSessionMessenger`'s documented limit in its first release.
        public let maxMessageSize = 65_536
        /// Messages of both modes.
        public let messages: AsyncStream<PlatformMessage>
        /// The session's active participants.
        public let participants: AsyncStream<Set<UUID>>

        private let reliable: GroupActivities.GroupSessionMessenger
        private let unreliable: GroupActivities.GroupSessionMessenger
        private let shared = Shared()

        private struct State {
            var byID: [UUID: GroupActivities.Participant] = [:]
            var tasks: [Task<Void, Never>] = []
            var subscription: AnyCancellable?
        }

        /// The state the participant subscription updates, by reference (a `Mutex` cannot be
        /// captured).
        private final class Shared: Sendable {
            let state = Mutex(State())
        }

        /// Creates the two messengers of `session` and starts reading them and its participants.
        public init<Activity: GroupActivities.GroupActivity>(session: GroupActivities.GroupSession<Activity>) {
            localParticipant = session.localParticipant.id
            reliable = GroupActivities.GroupSessionMessenger(session: session, deliveryMode: .reliable)
            unreliable = GroupActivities.GroupSessionMessenger(session: session, deliveryMode: .unreliable)
            let (messages, messageContinuation) = AsyncStream<PlatformMessage>.makeStream()
            let (participants, participantContinuation) = AsyncStream<Set<UUID>>.makeStream()
            self.messages = messages
            self.participants = participants
            let tasks = [reliable, unreliable].map { messenger in
                Task {
                    for await (data, context) in messenger.messages(of: Data.self) {
                        messageContinuation.yield(PlatformMessage(data: data, source: context.source.id))
                    }
                }
            }
            let subscription = session.$activeParticipants.sink { [shared] active in
                shared.state.withLock {
                    $0.byID = Dictionary(active.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
                }
                participantContinuation.yield(Set(active.map(\.id)))
            }
            shared.state.withLock { state in
                state.tasks = tasks
                state.subscription = subscription
            }
        }

        deinit {
            shared.state.withLock { state in
                for task in state.tasks { task.cancel() }
                state.subscription?.cancel()
            }
        }

        /// Sends `data` through the messenger of `mode`.
        public func send(_ data: Data, to participants: Set<UUID>?, mode: DeliveryMode) async throws {
            let messenger = mode == .reliable ? reliable : unreliable
            guard let participants else {
                try await messenger.send(data)
                return
            }
            let targets = shared.state.withLock { state in Set(participants.compactMap { state.byID[$0] }) }
            guard !targets.isEmpty else { return }
            try await messenger.send(data, to: .only(targets))
        }
    }

    extension PlatformMessengerTransport {
        /// A transport over Apple's `GroupSessionMessenger` for `session`.
        @available(iOS 17, macOS 14, tvOS 17, visionOS 1, *)
        public convenience init<Activity: GroupActivities.GroupActivity>(session: GroupActivities.GroupSession<Activity>) {
            self.init(platform: GroupActivitiesMessenger(session: session))
        }
    }
#endif
