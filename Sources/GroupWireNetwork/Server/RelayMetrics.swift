import CoreMetrics
import GroupWireRelay
import Prometheus
import Synchronization

/// What the relay counts, as swift-metrics counters and gauges, kept in a Prometheus
/// registry that ``RelayServer`` serves in the text exposition format at
/// ``RelayServerConfiguration/metricsPath`` on its own port.
///
/// | name | kind | labels |
/// |---|---|---|
/// | `groupwire_relay_rooms` | gauge | |
/// | `groupwire_relay_participants` | gauge | |
/// | `groupwire_relay_connections_total` | counter | |
/// | `groupwire_relay_refusals_total` | counter | `status` (401, 404, 400) |
/// | `groupwire_relay_frames_received_total` | counter | |
/// | `groupwire_relay_bytes_received_total` | counter | |
/// | `groupwire_relay_frames_delivered_total` | counter | |
/// | `groupwire_relay_bytes_delivered_total` | counter | |
/// | `groupwire_relay_drops_total` | counter | `reason` (the relay error code: rateLimited, frameTooLarge, malformed, tooSlow) |
/// | `groupwire_relay_reconnects_total` | counter | |
/// | `groupwire_relay_cluster_messages_in_total` | counter | |
/// | `groupwire_relay_cluster_messages_out_total` | counter | |
/// | `groupwire_relay_cluster_drops_total` | counter | |
/// | `groupwire_relay_cluster_gaps_total` | counter | |
/// | `groupwire_relay_cluster_nats_reconnects_total` | counter | |
/// | `groupwire_relay_cluster_remote_members` | gauge | |
///
/// The cluster's metrics stay at zero on a relay without `--cluster`: messages between
/// nodes through NATS in and out, those dropped (undecodable, unpublishable, or a frame
/// from a member without a place), events of a room's stream found missing, connections
/// to NATS made again after a loss, and the members other nodes hold in the rooms this
/// node has connections in (updated every heartbeat).
///
/// Bytes are WebSocket message bytes: routing header and frame. A frame sent to four
/// others is received once and delivered four times.
public final class RelayMetrics: Sendable {
    /// The registry the metrics live in; ``exposition()`` renders it.
    public let registry: PrometheusCollectorRegistry
    private let factory: PrometheusMetricsFactory
    private let rooms: CoreMetrics.Gauge
    private let participants: CoreMetrics.Gauge
    let connections: CoreMetrics.Counter
    let framesReceived: CoreMetrics.Counter
    let bytesReceived: CoreMetrics.Counter
    let framesDelivered: CoreMetrics.Counter
    let bytesDelivered: CoreMetrics.Counter
    let reconnects: CoreMetrics.Counter
    let clusterMessagesIn: CoreMetrics.Counter
    let clusterMessagesOut: CoreMetrics.Counter
    let clusterDrops: CoreMetrics.Counter
    let clusterGaps: CoreMetrics.Counter
    let clusterNATSReconnects: CoreMetrics.Counter
    let clusterRemoteMembers: CoreMetrics.Gauge
    private let drops = Mutex<[String: CoreMetrics.Counter]>([:])
    private let refusals = Mutex<[Int: CoreMetrics.Counter]>([:])

    /// Creates the relay's metrics in `registry` (a new one by default, so several relays in
    /// one process count apart).
    public init(registry: PrometheusCollectorRegistry = PrometheusCollectorRegistry()) {
        self.registry = registry
        factory = PrometheusMetricsFactory(registry: registry)
        rooms = CoreMetrics.Gauge(label: "groupwire_relay_rooms", factory: factory)
        participants = CoreMetrics.Gauge(label: "groupwire_relay_participants", factory: factory)
        connections = CoreMetrics.Counter(label: "groupwire_relay_connections_total", factory: factory)
        framesReceived = CoreMetrics.Counter(label: "groupwire_relay_frames_received_total", factory: factory)
        bytesReceived = CoreMetrics.Counter(label: "groupwire_relay_bytes_received_total", factory: factory)
        framesDelivered = CoreMetrics.Counter(label: "groupwire_relay_frames_delivered_total", factory: factory)
        bytesDelivered = CoreMetrics.Counter(label: "groupwire_relay_bytes_delivered_total", factory: factory)
        reconnects = CoreMetrics.Counter(label: "groupwire_relay_reconnects_total", factory: factory)
        clusterMessagesIn = CoreMetrics.Counter(label: "groupwire_relay_cluster_messages_in_total", factory: factory)
        clusterMessagesOut = CoreMetrics.Counter(label: "groupwire_relay_cluster_messages_out_total", factory: factory)
        clusterDrops = CoreMetrics.Counter(label: "groupwire_relay_cluster_drops_total", factory: factory)
        clusterGaps = CoreMetrics.Counter(label: "groupwire_relay_cluster_gaps_total", factory: factory)
        clusterNATSReconnects = CoreMetrics.Counter(label: "groupwire_relay_cluster_nats_reconnects_total", factory: factory)
        clusterRemoteMembers = CoreMetrics.Gauge(label: "groupwire_relay_cluster_remote_members", factory: factory)
        for counter in [clusterMessagesIn, clusterMessagesOut, clusterDrops, clusterGaps, clusterNATSReconnects] {
            counter.increment(by: 0)
        }
        clusterRemoteMembers.record(0)
        rooms.record(0)
        participants.record(0)
        // Every reason a client is dropped for is exported from zero, so a rate over it is
        // defined before the first drop.
        for code in [RelayErrorCode.malformed, .frameTooLarge, .rateLimited, .tooSlow] { _ = dropCounter(code) }
    }

    /// The Prometheus text exposition of every metric (content type
    /// ``expositionContentType``).
    public func exposition() -> [UInt8] {
        registry.emitToBuffer()
    }

    /// The content type of ``exposition()``.
    public static let expositionContentType = "text/plain; version=0.0.4; charset=utf-8"

    /// Records the rooms and participants there are now.
    func census(_ census: [String: Int]) {
        rooms.record(census.count)
        participants.record(census.values.reduce(0, +))
    }

    /// Counts a connection the relay closed for `code`.
    func dropped(_ code: RelayErrorCode) {
        dropCounter(code).increment()
    }

    private func dropCounter(_ code: RelayErrorCode) -> CoreMetrics.Counter {
        drops.withLock { drops in
            if let counter = drops[code.description] { return counter }
            let counter = CoreMetrics.Counter(
                label: "groupwire_relay_drops_total", dimensions: [("reason", code.description)], factory: factory)
            drops[code.description] = counter
            return counter
        }
    }

    /// Counts a request refused with HTTP `status`.
    func refused(status: Int) {
        let counter = refusals.withLock { refusals in
            if let counter = refusals[status] { return counter }
            let counter = CoreMetrics.Counter(
                label: "groupwire_relay_refusals_total", dimensions: [("status", String(status))], factory: factory)
            refusals[status] = counter
            return counter
        }
        counter.increment()
    }
}
