/// One GroupWire frame: a header and a body, as sent over a messenger or stored in a file.
///
/// See Spec/FORMAT.md for the byte layout. A frame knows nothing of what its body means:
/// for a ``FrameKind/data`` frame the body is the encoded message of type ``typeID``
/// (compressed if ``compression`` is set); for a ``FrameKind/fragment`` frame it is one
/// piece of such a body.
public struct Frame: Sendable, Hashable {
    /// The magic byte every frame starts with.
    public static let magic: UInt8 = 0xC7
    /// The version of the format this library writes and reads.
    public static let version: UInt8 = 1
    /// The largest type id: type ids are 32-bit values carried as varints.
    public static let maxTypeID: UInt64 = UInt64(UInt32.max)
    /// The bytes a frame takes besides its header fields and body: magic, version, kind, CRC.
    public static let fixedOverhead = 1 + 1 + 1 + 4

    /// What the frame carries.
    public var kind: FrameKind
    /// The message type id (data and fragment frames) or control message id (control frames).
    public var typeID: UInt64
    /// The compression header, present exactly when the body is compressed.
    public var compression: CompressionInfo?
    /// The fragment header, present exactly when ``kind`` is ``FrameKind/fragment``.
    public var fragment: FragmentInfo?
    /// The session the frame belongs to (its session header, flag ``FrameFlags/session``),
    /// nil for a frame outside any session. Session ids are 1 ... 2^32-1.
    public var session: UInt32?
    /// The delivery header (flag ``FrameFlags/delivery``), present when a delivery layer
    /// numbers the frame for one recipient (Spec/FORMAT.md, "Delivery").
    public var delivery: DeliveryHeader?
    /// The frame's body.
    public var body: [UInt8]

    /// Creates a frame.
    public init(
        kind: FrameKind = .data,
        typeID: UInt64,
        compression: CompressionInfo? = nil,
        fragment: FragmentInfo? = nil,
        session: UInt32? = nil,
        delivery: DeliveryHeader? = nil,
        body: [UInt8]
    ) {
        self.kind = kind
        self.typeID = typeID
        self.compression = compression
        self.fragment = fragment
        self.session = session
        self.delivery = delivery
        self.body = body
    }

    /// The flags this frame's fields call for.
    public var flags: FrameFlags {
        var flags: FrameFlags = compression == nil ? [] : .compressed
        if session != nil { flags.insert(.session) }
        if delivery != nil { flags.insert(.delivery) }
        return flags
    }
}
