/// A report that a ``Reassembler`` dropped a message (or the first fragment of one), and why.
public struct DropEvent<Sender: Hashable & Sendable>: Sendable, Hashable, CustomStringConvertible {
    /// Why the message was dropped.
    public let reason: DropReason
    /// The participant that sent it.
    public let sender: Sender
    /// The sender's id for the message.
    public let messageID: UInt64
    /// How many distinct fragments of it had been received when it was dropped.
    public let fragmentsReceived: Int
    /// What exactly was wrong: the field, the value, the limit.
    public let detail: String

    /// Creates an event.
    public init(reason: DropReason, sender: Sender, messageID: UInt64, fragmentsReceived: Int, detail: String) {
        self.reason = reason
        self.sender = sender
        self.messageID = messageID
        self.fragmentsReceived = fragmentsReceived
        self.detail = detail
    }

    /// `reason: message M from S after N fragments: detail`.
    public var description: String {
        "\(reason.name): message \(messageID) from \(sender) after \(fragmentsReceived) fragment\(fragmentsReceived == 1 ? "" : "s"): \(detail)"
    }
}
