/// The bounds a ``Reassembler`` keeps on partial messages, beyond the frame ``Limits``.
///
/// Together they cap what a hostile or broken sender can make a receiver hold: at most
/// ``maxPartialMessagesPerSender`` messages per sender, at most ``byteBudget`` accounted
/// bytes in all, each for at most ``timeout``.
public struct ReassemblyLimits: Sendable, Hashable {
    /// Most partial messages one sender may have open. Opening one more drops that sender's
    /// oldest partial message (reason ``DropReason/senderLimit``). Default 16.
    public var maxPartialMessagesPerSender: Int
    /// Most bytes all partial messages together may account for (see
    /// ``Reassembler/accountedBytes(totalLength:count:)``). A new message that does not fit
    /// evicts the oldest partial messages first (reason ``DropReason/budgetEviction``); a
    /// message that could never fit is refused (``DropReason/limitExceeded``).
    /// Default 64 MiB, room for four messages of the default 16 MiB ``Limits/maxMessageSize``.
    public var byteBudget: Int
    /// How long a partial message may wait for its missing fragments, counted from the
    /// arrival of its first fragment; then it is dropped (``DropReason/timeout``). Default 30 s.
    public var timeout: Duration
    /// How many finished (completed or dropped) messages are remembered, so that late or
    /// duplicated fragments of them are ignored instead of opening a new partial message.
    /// Default 4,096.
    public var rememberedFinishedMessages: Int

    /// Creates reassembly limits; every argument defaults to the documented default.
    public init(
        maxPartialMessagesPerSender: Int = 16,
        byteBudget: Int = 64 << 20,
        timeout: Duration = .seconds(30),
        rememberedFinishedMessages: Int = 4_096
    ) {
        self.maxPartialMessagesPerSender = maxPartialMessagesPerSender
        self.byteBudget = byteBudget
        self.timeout = timeout
        self.rememberedFinishedMessages = rememberedFinishedMessages
    }

    /// The documented defaults.
    public static let `default` = ReassemblyLimits()
}
