// A stand-in for Apple's GroupActivities framework: its public type names and the
// signatures an app uses, as Apple documents them (developer.apple.com/documentation/
// groupactivities), so that ReadmePackageTests can compile on Linux an app that imports
// both this module and GroupWire, with unqualified names, and GroupWire's adapter for it.
// Nothing here talks to anyone: sessions never arrive and sends go nowhere.
import Combine
import Foundation

/// A shared experience the app offers to the people in a group.
public protocol GroupActivity: Codable {
    /// The activity's identifier; Apple's default is derived from the type.
    static var activityIdentifier: String { get }
    /// What the system shows about the activity.
    var metadata: GroupActivityMetadata { get async }
}

extension GroupActivity {
    /// The identifier derived from the type's name.
    public static var activityIdentifier: String { String(reflecting: Self.self) }

    /// Asks the system to start the activity for the group.
    public func activate() async throws -> Bool { false }

    /// Asks the person whether to start the activity for the group or alone.
    public func prepareForActivation() async -> GroupActivityActivationResult { .activationDisabled }

    /// The sessions of this activity, as they start.
    public static func sessions() -> GroupSession<Self>.Sessions { GroupSession<Self>.Sessions() }
}

/// What the system shows about an activity.
public struct GroupActivityMetadata: Sendable {
    /// The activity's title.
    public var title: String?
    /// A second line.
    public var subtitle: String?
    /// Where people without the app can take part.
    public var fallbackURL: URL?
    /// What kind of activity it is.
    public var type: ActivityType = .generic
    /// Whether the activity can move to Apple TV.
    public var supportsContinuationOnTV = false

    /// Empty metadata.
    public init() {}

    /// The kind of an activity.
    public struct ActivityType: Hashable, Sendable {
        let name: String
        /// An activity of no particular kind.
        public static let generic = ActivityType(name: "generic")
        /// Making something together.
        public static let createTogether = ActivityType(name: "createTogether")
        /// Exploring together.
        public static let exploreTogether = ActivityType(name: "exploreTogether")
        /// Learning together.
        public static let learnTogether = ActivityType(name: "learnTogether")
        /// Listening together.
        public static let listenTogether = ActivityType(name: "listenTogether")
        /// Playing together.
        public static let playTogether = ActivityType(name: "playTogether")
        /// Reading together.
        public static let readTogether = ActivityType(name: "readTogether")
        /// Shopping together.
        public static let shopTogether = ActivityType(name: "shopTogether")
        /// Watching together.
        public static let watchTogether = ActivityType(name: "watchTogether")
        /// Working out together.
        public static let workoutTogether = ActivityType(name: "workoutTogether")
    }
}

/// The person's choice when asked how to start an activity.
public enum GroupActivityActivationResult: Sendable {
    case activationDisabled
    case activationPreferred
    case cancelled
}

/// A person's device in a session.
public struct Participant: Hashable, Identifiable, Sendable {
    /// The participant's identifier.
    public let id: UUID
}

/// One session of an activity, as the system hands it to the app.
public final class GroupSession<ActivityType: GroupActivity>: ObservableObject, Identifiable {
    /// Where the session is in its life.
    public enum State {
        case waiting
        case joined
        case invalidated(reason: any Error)
    }

    /// The session's identifier.
    public let id = UUID()
    /// The activity.
    @Published public private(set) var activity: ActivityType
    /// This participant's state in the session.
    @Published public private(set) var state: State = .waiting
    /// The participants who joined.
    @Published public private(set) var activeParticipants: Set<Participant> = []
    /// This device.
    public let localParticipant = Participant(id: UUID())

    init(activity: ActivityType) {
        self.activity = activity
    }

    /// Joins the session.
    public func join() {}
    /// Leaves the session.
    public func leave() {}
    /// Ends the session for everyone.
    public func end() {}

    /// The sessions of an activity, as they start.
    public struct Sessions: AsyncSequence {
        /// A session that started.
        public typealias Element = GroupSession<ActivityType>

        /// An iterator over the sessions.
        public func makeAsyncIterator() -> Iterator { Iterator() }

        /// Iterates over the sessions; the stand-in has none.
        public struct Iterator: AsyncIteratorProtocol {
            /// The next session; the stand-in ends at once.
            public mutating func next() async -> GroupSession<ActivityType>? { nil }
        }
    }
}

/// Sends and receives a session's messages.
public final class GroupSessionMessenger: Sendable {
    /// How messages travel.
    public enum DeliveryMode: Sendable {
        case reliable
        case unreliable
    }

    /// Where a message came from.
    public struct MessageContext: Sendable {
        /// The sender.
        public var source: Participant
    }

    /// The receivers of a message.
    public enum Participants: Sendable {
        case all
        case only(Set<Participant>)
    }

    /// The messages of one type, as they arrive.
    public struct Messages<Message>: AsyncSequence {
        /// A message with where it came from.
        public typealias Element = (Message, MessageContext)

        /// An iterator over the messages.
        public func makeAsyncIterator() -> Iterator { Iterator() }

        /// Iterates over the messages; the stand-in has none.
        public struct Iterator: AsyncIteratorProtocol {
            /// The next message; the stand-in ends at once.
            public mutating func next() async -> (Message, MessageContext)? { nil }
        }
    }

    /// A reliable messenger for `session`.
    public convenience init<Activity: GroupActivity>(session: GroupSession<Activity>) {
        self.init(session: session, deliveryMode: .reliable)
    }

    /// A messenger for `session` in `deliveryMode`.
    public init<Activity: GroupActivity>(session: GroupSession<Activity>, deliveryMode: DeliveryMode) {}

    /// Sends an encodable value.
    public func send<Message: Encodable>(_ value: Message, to participants: Participants = .all) async throws {}

    /// Sends bytes.
    public func send(_ value: Data, to participants: Participants = .all) async throws {}

    /// The decodable values of `type` others send.
    public func messages<Message: Decodable>(of type: Message.Type) -> Messages<Message> { Messages() }

    /// The bytes others send.
    public func messages(of type: Data.Type) -> Messages<Data> { Messages() }
}

/// Whether the device can start a group session now (someone to share with).
public final class GroupStateObserver: ObservableObject {
    /// Whether a group activity can be started now.
    @Published public private(set) var isEligibleForGroupSession = false

    /// Starts observing.
    public init() {}
}

/// Files shared with a session's participants.
public final class GroupSessionJournal {
    /// The journal of `session`.
    public init<Activity: GroupActivity>(session: GroupSession<Activity>) {}
}
