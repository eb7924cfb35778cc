/// The bounds a ``NATSParser`` holds a server to; each is checked before anything is
/// allocated for what it bounds.
public struct NATSLimits: Sendable, Hashable {
    /// The longest control line (operation and arguments, without CRLF) but INFO's: 4,096
    /// bytes, the servers' own default.
    public var maxControlLine: Int
    /// The longest INFO line: 65,536 bytes (a cluster's INFO lists every server's address).
    public var maxInfoLine: Int
    /// The largest message (headers and payload) accepted: 8 MiB. A server never sends more
    /// than its `max_payload` (1 MiB by default, 64 MiB at most).
    public var maxPayload: Int
    /// The most header fields in one message: 256.
    public var maxHeaderFields: Int

    /// Limits with the documented defaults.
    public init(maxControlLine: Int = 4_096, maxInfoLine: Int = 65_536, maxPayload: Int = 8 << 20, maxHeaderFields: Int = 256) {
        self.maxControlLine = maxControlLine
        self.maxInfoLine = maxInfoLine
        self.maxPayload = maxPayload
        self.maxHeaderFields = maxHeaderFields
    }

    /// The defaults.
    public static let `default` = NATSLimits()
}
