/// Why a ``Reassembler`` dropped a message.
///
/// A struct rather than an enum so that reasons can be added later; compare with `==`
/// (for example `event.reason == .conflict`).
public struct DropReason: Sendable, Hashable, CustomStringConvertible {
    /// The stable name of the reason, as used in logs and metrics.
    public let name: String

    /// Creates a reason. Other GroupWire modules may declare their own.
    package init(name: String) {
        self.name = name
    }

    /// The stable name of the reason.
    public var description: String { name }

    /// A fragment's fields contradict each other or the uniform layout: an index at or
    /// past the count, an offset that overlaps another fragment, a total length that lies,
    /// a kind and header that do not match.
    public static let invalidFragment = DropReason(name: "invalidFragment")
    /// The fragment count, total length or accounted size is over a configured limit.
    public static let limitExceeded = DropReason(name: "limitExceeded")
    /// A fragment contradicts what was already received for its message: different bytes
    /// at the same index, a different count, total length, type id or compression header.
    public static let conflict = DropReason(name: "conflict")
    /// The sender opened more than ``ReassemblyLimits/maxPartialMessagesPerSender``
    /// partial messages; its oldest was dropped.
    public static let senderLimit = DropReason(name: "senderLimit")
    /// The byte budget was full; the oldest partial message was evicted to make room.
    public static let budgetEviction = DropReason(name: "budgetEviction")
    /// The message did not complete within ``ReassemblyLimits/timeout``.
    public static let timeout = DropReason(name: "timeout")
    /// The sender left the session before the message completed
    /// (``Reassembler/removeSender(_:)``).
    public static let senderGone = DropReason(name: "senderGone")
}
