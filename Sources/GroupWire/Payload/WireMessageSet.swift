/// Every message of one spec as one type, so a receiver can switch over all of them in one
/// place. The generator emits one per spec (an enum with a case per message).
public protocol WireMessageSet: Sendable {
    /// The message types of the set, in spec order.
    static var messageTypes: [any MessageCodable.Type] { get }

    /// Wraps `message`, or returns nil when its type is not in the set.
    init?(_ message: any MessageCodable)

    /// The wrapped message.
    var message: any MessageCodable { get }

    /// The spec the set was generated from, as written, or nil (a set made by hand, or
    /// generated without the spec's text). A negotiating messenger announces it, so what it
    /// says it reads is what was compiled (`NegotiationSettings(messages:)`).
    static var specSource: WireSpecSource? { get }
}

/// The text of a spec as the generator read it: the entry file and every file it imports,
/// keyed by their paths relative to the entry's folder.
public struct WireSpecSource: Sendable, Hashable {
    /// The entry file's name.
    public let entry: String
    /// Path (relative to the entry's folder) to the file's text, the entry's included.
    public let files: [String: String]

    /// Creates a spec source.
    public init(entry: String, files: [String: String]) {
        self.entry = entry
        self.files = files
    }
}

extension WireMessageSet {
    /// No spec text.
    public static var specSource: WireSpecSource? { nil }

    /// A registry holding every message type of the set.
    /// - Throws: ``WireError/Kind/duplicateTypeID`` when two of its types share an id.
    public static func registry() throws(WireError) -> MessageRegistry {
        try MessageRegistry(messageTypes)
    }
}
