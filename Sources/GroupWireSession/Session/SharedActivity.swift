/// A kind of shared experience (watch a film, draw on one canvas), as Apple's
/// `GroupActivity`: what stays constant for the experience, plus metadata shown to people
/// before they join.
///
/// The value travels to every participant when the activity is activated (in the
/// activation control message, encoded with `WireEncoder`), so it must be `Codable`.
///
/// One activity type can serve Apple's `GroupActivity` and this protocol at once: the
/// `activityIdentifier` requirement is the same in both, and ``activityMetadata`` sits
/// beside Apple's `metadata` (see the article "GroupWire on Apple platforms").
public protocol SharedActivity: Codable, Sendable {
    /// A reverse-DNS identifier of the activity type, the same in every version of the app;
    /// sessions are routed to `sessions(for:)` by it.
    static var activityIdentifier: String { get }
    /// What people see before they join.
    var activityMetadata: SharedActivityMetadata { get }
}

/// An activity's title, subtitle, type and fallback URL.
public struct SharedActivityMetadata: Sendable, Hashable {
    /// The activity's title.
    public var title: String
    /// A second line under the title, if any.
    public var subtitle: String?
    /// What kind of experience it is.
    public var type: ActivityType
    /// Where participants without the app can follow along, if anywhere.
    public var fallbackURL: String?

    /// Creates metadata.
    public init(title: String, subtitle: String? = nil, type: ActivityType = .generic, fallbackURL: String? = nil) {
        self.title = title
        self.subtitle = subtitle
        self.type = type
        self.fallbackURL = fallbackURL
    }
}

/// The kind of a shared experience, by name (the names Apple's activity types use).
public struct ActivityType: RawRepresentable, Sendable, Hashable {
    /// The type's name on the wire.
    public var rawValue: String

    /// Creates a type from its name.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// A custom experience.
    public static let generic = ActivityType(rawValue: "generic")
    /// Watching video together.
    public static let watchTogether = ActivityType(rawValue: "watchTogether")
    /// Listening to audio together.
    public static let listenTogether = ActivityType(rawValue: "listenTogether")
    /// Creating something together (a canvas, a document).
    public static let createTogether = ActivityType(rawValue: "createTogether")
    /// Playing a game together.
    public static let playTogether = ActivityType(rawValue: "playTogether")
}
