/// The fragment header of a ``FrameKind/fragment`` frame: where this piece sits in the
/// whole message.
///
/// Wire form, after the type id: `messageID uvarint, index uvarint, count uvarint,
/// totalLength uvarint, offset uvarint`.
public struct FragmentInfo: Sendable, Hashable {
    /// The message this fragment belongs to, unique per sender among its messages in flight.
    public var messageID: UInt64
    /// This fragment's position, 0 ..< ``count``.
    public var index: UInt32
    /// How many fragments make up the message (at least 2).
    public var count: UInt32
    /// The length of the whole reassembled body.
    public var totalLength: UInt64
    /// Where this fragment's body starts within the whole body.
    public var offset: UInt64

    /// Creates a fragment header.
    public init(messageID: UInt64, index: UInt32, count: UInt32, totalLength: UInt64, offset: UInt64) {
        self.messageID = messageID
        self.index = index
        self.count = count
        self.totalLength = totalLength
        self.offset = offset
    }
}
