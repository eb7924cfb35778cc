import GroupWireNATSProtocol
import GroupWireSession

/// How a ``NATSClient`` connects and what it holds itself to; every default is documented.
public struct NATSClientConfiguration: Sendable {
    /// The servers to try, in order; the cluster's others, learned from INFO, join them.
    public var servers: [NATSServerAddress]
    /// What CONNECT says (name, echo, credentials).
    public var options: NATSConnectOptions
    /// How long a server may take to accept the connection and answer CONNECT's PING. 2 s.
    public var connectTimeout: Duration = .seconds(2)
    /// The pause after a pass over every server without success, before the next. 2 s.
    public var reconnectWait: Duration = .seconds(2)
    /// Connection attempts after a loss before the client gives up and closes; nil (the
    /// default): it never gives up.
    public var maxReconnectAttempts: Int?
    /// How often the client pings the server. 2 minutes.
    public var pingInterval: Duration = .seconds(120)
    /// PINGs unanswered at the next interval after which the connection counts as stale
    /// and is replaced. 2.
    public var maxPingsOutstanding = 2
    /// Bytes of commands accepted but not yet written to the socket, while connected or
    /// held for the next connection; a publish past it fails with `slowConnection`. 8 MiB.
    public var maxPendingBytes = 8 << 20
    /// Messages a subscription's stream holds for a consumer that does not keep up; what
    /// arrives past it is dropped and counted. 65,536.
    public var maxBufferedMessages = 65_536
    /// What the parser holds the server to.
    public var limits: NATSLimits = .default
    /// The clock of the reconnect pause, the connect timeout and the pings: tests pass a
    /// virtual one.
    public var clock: TimerClock = .continuous

    /// A configuration for `servers`.
    public init(servers: [NATSServerAddress], options: NATSConnectOptions = NATSConnectOptions()) {
        self.servers = servers
        self.options = options
    }
}
