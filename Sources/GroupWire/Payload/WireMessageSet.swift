/// Every message of one spec as one type, so a receiver can switch over all of them in one
/// place. The generator emits one per spec (an enum with a case per message).
public protocol WireMessageSet: Sendable {
    /// The message types of the set, in spec order.
    static var messageTypes: [any MessageCodable.Type] { get }

    /// Wraps `message`, or returns nil when its type is not in the set.
    init?(_ message: any MessageCodable)

    /// The wrapped message.
    var message: any MessageCodable { get }
}

extension WireMessageSet {
    /// A registry holding every message type of the set.
    /// - Throws: ``WireError/Kind/duplicateTypeID`` when two of its types share an id.
    public static func registry() throws(WireError) -> MessageRegistry {
        try MessageRegistry(messageTypes)
    }
}
