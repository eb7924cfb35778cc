import GroupWire

/// The bounds a relay message decoder enforces (Spec/RELAY.md, "Limits"): each is checked
/// before anything is allocated for the value it bounds.
public struct RelayLimits: Sendable, Hashable {
    /// Largest GroupWire frame in a message, in bytes. Default 65,536.
    public var maxFrameSize: Int
    /// Most recipients of one send. Default 1,024.
    public var maxRecipients: Int
    /// Most members in a welcome. Default 4,096.
    public var maxMembers: Int
    /// Longest room or identity, in UTF-8 bytes. Default 128.
    public var maxNameLength: Int
    /// Longest error message, in UTF-8 bytes. Default 1,024.
    public var maxErrorMessageLength: Int

    /// Creates limits; every argument defaults to the documented default.
    public init(
        maxFrameSize: Int = 65_536, maxRecipients: Int = 1_024, maxMembers: Int = 4_096, maxNameLength: Int = 128,
        maxErrorMessageLength: Int = 1_024
    ) {
        self.maxFrameSize = maxFrameSize
        self.maxRecipients = maxRecipients
        self.maxMembers = maxMembers
        self.maxNameLength = maxNameLength
        self.maxErrorMessageLength = maxErrorMessageLength
    }

    /// The largest send a client may make, in bytes: the longest send header (type byte,
    /// count and ``maxRecipients`` ids) and a frame of ``maxFrameSize``. A relay refuses a
    /// WebSocket message over it as soon as its length is known (Spec/RELAY.md, "Limits").
    public var maxSendSize: Int {
        maxFrameSize + 1 + Varint.encodedLength(UInt64(maxRecipients)) + 16 * maxRecipients
    }

    /// The defaults.
    public static let `default` = RelayLimits()
}
