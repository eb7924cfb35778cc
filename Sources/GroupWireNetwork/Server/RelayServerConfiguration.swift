import Foundation
import GroupWireCapture
import GroupWireRelay
import GroupWireSession

/// How a ``RelayServer`` admits and bounds its clients; every limit is a `groupwire relay`
/// flag with the same default.
public struct RelayServerConfiguration: Sendable {
    /// The secret tokens are signed with.
    public var secret: [UInt8]
    /// Seconds of clock difference tolerated on token times. Default 0.
    public var tokenLeeway: Int64
    /// The largest frame a client may send, in bytes (`--max-frame`). Default 65,536.
    public var maxFrameSize: Int
    /// The most bytes waiting to be written to one client before it is dropped as too slow
    /// (`--max-queued-bytes`). Default 4 MiB.
    public var maxQueuedBytes: Int
    /// The most messages per second one client may send, on average (`--max-rate`). Default 2,000.
    public var maxMessagesPerSecond: Int
    /// The most messages one client may send in a burst above the rate (`--burst`). Default 4,000.
    public var burst: Int
    /// The path on the relay's port where a GET returns ``RelayMetrics`` in Prometheus's
    /// text format (`--metrics-path`); nil serves none. Default `/metrics`.
    public var metricsPath: String?
    /// How long a shutdown waits for clients to take their queued messages and the close
    /// before it closes their connections (`--drain-timeout`). Default 5 seconds.
    public var drainTimeout: Duration
    /// How long a participant whose connection was lost (not closed) keeps its place
    /// (`--reconnect-grace`): the others are not told it left, and when it connects again
    /// within this time it resumes. Frames sent to it meanwhile are not kept: the delivery
    /// layer (`DeliveryTransport`) sends them again, so this must stay
    /// shorter than its peer timeout (`DeliveryConfiguration.peerTimeout`,
    /// 5 seconds). Zero: a lost connection leaves at once. Default 3 seconds.
    public var reconnectGrace: Duration
    /// How long a connection may take from its accept to a finished WebSocket upgrade (or
    /// an answered HTTP request), the TLS handshake included (`--handshake-timeout`); a
    /// connection still short of it then is closed. Default 5 seconds.
    public var handshakeTimeout: Duration
    /// The most connections open at once, from anywhere (`--max-connections`); one more is
    /// closed as soon as it is accepted. Default 10,000.
    public var maxConnections: Int
    /// The most connections open at once from one remote IP address
    /// (`--max-connections-per-address`); one more from it is closed as soon as it is
    /// accepted. Default 256.
    public var maxConnectionsPerAddress: Int
    /// How long a client may stay silent (no message, ping, pong or close) before it is
    /// taken for gone (`--idle-timeout`): silent for half of it, it is sent a ping (which
    /// every WebSocket client answers); silent for all of it, its connection is closed and
    /// it leaves as `lost`, after the reconnect grace as for a cut. Default 30 seconds.
    public var idleTimeout: Duration
    /// TLS for every connection (`--tls-certificate`, `--tls-key`); nil serves plain
    /// WebSocket. Default nil.
    public var tls: RelayServerTLS?
    /// Where the relay records every frame it receives (with its sender and room); by
    /// default the writer `GROUPWIRE_CAPTURE` asks for (`CaptureEnvironment.writer`), nil
    /// when unset.
    public var capture: CaptureWriter?
    /// The cluster this relay is a node of (`--cluster`, `--node`); nil: it serves alone.
    /// Default nil.
    public var cluster: RelayClusterConfiguration?
    /// The time in seconds since 1970, for token checks.
    public var now: @Sendable () -> Int64
    /// The time the relay's timers read: the handshake and idle timeouts, the reconnect grace, the
    /// drain timeout, the wait for a client's close and the rate limit's refill. Default the system's continuous
    /// clock; tests pass a virtual one and move it themselves.
    public var clock: TimerClock

    /// Creates a configuration; every argument but the secret defaults to the documented default.
    public init(
        secret: [UInt8], tokenLeeway: Int64 = 0, maxFrameSize: Int = 65_536, maxQueuedBytes: Int = 4 << 20,
        maxMessagesPerSecond: Int = 2_000, burst: Int = 4_000, metricsPath: String? = "/metrics",
        drainTimeout: Duration = .seconds(5), reconnectGrace: Duration = .seconds(3), handshakeTimeout: Duration = .seconds(5),
        maxConnections: Int = 10_000, maxConnectionsPerAddress: Int = 256, idleTimeout: Duration = .seconds(30),
        tls: RelayServerTLS? = nil,
        capture: CaptureWriter? = CaptureEnvironment.writer,
        now: @escaping @Sendable () -> Int64 = { Int64(Date().timeIntervalSince1970) }, clock: TimerClock = .continuous
    ) {
        self.secret = secret
        self.tokenLeeway = tokenLeeway
        self.maxFrameSize = maxFrameSize
        self.maxQueuedBytes = maxQueuedBytes
        self.maxMessagesPerSecond = maxMessagesPerSecond
        self.burst = burst
        self.metricsPath = metricsPath
        self.drainTimeout = drainTimeout
        self.reconnectGrace = reconnectGrace
        self.handshakeTimeout = handshakeTimeout
        self.maxConnections = maxConnections
        self.maxConnectionsPerAddress = maxConnectionsPerAddress
        self.idleTimeout = idleTimeout
        self.tls = tls
        self.capture = capture
        self.now = now
        self.clock = clock
    }

    /// The limits a client's messages are read with.
    var limits: RelayLimits { RelayLimits(maxFrameSize: maxFrameSize) }
}
