/// What a frame carries: the low four bits of a frame's kind byte.
///
/// Values 3 through 15 are reserved; a version 1 decoder rejects them with
/// ``WireError/Kind/unknownKind``.
public struct FrameKind: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// The kind's value, 0 through 15.
    public let rawValue: UInt8

    /// Creates a kind from its value; any value is representable, only three are defined.
    public init(rawValue: UInt8) {
        self.rawValue = rawValue
    }

    /// A whole application message.
    public static let data = FrameKind(rawValue: 0)
    /// A session control message (negotiation, goodbye).
    public static let control = FrameKind(rawValue: 1)
    /// One piece of a message too large for one frame.
    public static let fragment = FrameKind(rawValue: 2)

    /// Whether version 1 of the format defines this kind.
    public var isDefined: Bool { rawValue <= 2 }

    /// `data`, `control`, `fragment`, or `reserved(N)`.
    public var description: String {
        switch rawValue {
        case 0: "data"
        case 1: "control"
        case 2: "fragment"
        default: "reserved(\(rawValue))"
        }
    }
}

/// The flag bits: the high four bits of a frame's kind byte.
public struct FrameFlags: OptionSet, Sendable, Hashable {
    /// The flags' bits, already shifted into the high nibble (0x10, 0x20, 0x40, 0x80).
    public let rawValue: UInt8

    /// Creates flags from their bits.
    public init(rawValue: UInt8) {
        self.rawValue = rawValue
    }

    /// The body is compressed; a compression header follows the kind header.
    public static let compressed = FrameFlags(rawValue: 0x10)

    /// The frame belongs to a session; a session header (the session id) follows the kind
    /// header (Spec/FORMAT.md, "Sessions").
    public static let session = FrameFlags(rawValue: 0x20)

    /// A delivery header (stream and sequence) follows the kind byte (Spec/FORMAT.md,
    /// "Delivery").
    public static let delivery = FrameFlags(rawValue: 0x40)

    /// Every flag that version 1 defines. Any other bit set is ``WireError/Kind/unknownFlags``.
    public static let known: FrameFlags = [.compressed, .session, .delivery]
}
