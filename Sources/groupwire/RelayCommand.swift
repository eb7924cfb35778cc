import ArgumentParser
import Foundation
import GroupWireNATS
import GroupWireNetwork
import GroupWireTools
import Logging

/// `groupwire relay --host H --port N`.
struct RelayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "relay",
        abstract: "Run the GroupWire relay: rooms of participants over WebSocket (Spec/RELAY.md).",
        discussion: """
            Clients connect to ws://HOST:PORT/v1/connect (wss:// with --tls-certificate and \
            --tls-key, which serve TLS only) with a token (groupwire token) in the \
            token query parameter or the groupwire.token.TOKEN subprotocol; the relay forwards \
            each frame within the sender's room, stamped with the sender, and tells every client \
            who is in its room. The first line of output names the port (useful with --port 0). \
            A client over a limit is told why and closed; one that does not read is dropped; the \
            others go on. A connection that has not finished its upgrade within --handshake-timeout \
            seconds is closed, and connections over --max-connections (or \
            --max-connections-per-address from one IP address) are closed as they are accepted. A participant whose connection is lost (not closed) keeps its place for \
            --reconnect-grace seconds: the others are not told it left, and a RelayTransport with \
            reconnecting on comes back into it. Connections, refusals and drops are logged to standard error, with the \
            room and participant. GET http://HOST:PORT/metrics answers with the relay's counters \
            and gauges in Prometheus's text format (--metrics-path). Runs until SIGINT or \
            SIGTERM, then stops accepting, tells every client it is shutting down, gives them \
            --drain-timeout seconds to take what is queued and close, closes what is left and \
            exits: within the drain timeout and a second. With --cluster and --node, the relay is \
            one node of a cluster of relays talking through NATS: a room's participants may \
            connect through any node (Spec/RELAY.md, "Clustering"). The secret comes from --secret, --secret-file or \
            \(TokenTool.secretVariable). Exit 0 after a stop, 2 for usage errors or when it \
            cannot listen.
            """
    )

    @Option(help: "The address to listen on.")
    var host = "127.0.0.1"

    @Option(help: "The port to listen on; 0 picks a free one and prints it.")
    var port = 8_787

    @Option(help: "The shared token secret, as text.")
    var secret: String?

    @Option(help: "A file holding the shared token secret (a final newline is dropped).")
    var secretFile: String?

    @Option(help: "The largest frame a client may send, in bytes.")
    var maxFrame = 65_536

    @Option(help: "Bytes waiting to be written to one client before it is dropped as too slow.")
    var maxQueuedBytes = 4 << 20

    @Option(help: "Messages per second one client may send, on average.")
    var maxRate = 2_000

    @Option(help: "Messages one client may send in a burst above the rate.")
    var burst = 4_000

    @Option(help: "Seconds of clock difference tolerated on token times.")
    var tokenLeeway: Int64 = 0

    @Option(help: "The path on the relay's port serving metrics in Prometheus's text format; an empty path serves none.")
    var metricsPath = "/metrics"

    @Option(help: "Seconds a shutdown waits for clients to take their queued messages before closing them.")
    var drainTimeout = 5.0

    @Option(
        help:
            "Seconds a participant whose connection was lost keeps its place (others are not told it left) for it to reconnect; 0 for none. Keep it under the delivery layer's peer timeout (5 s)."
    )
    var reconnectGrace = 3.0

    @Option(
        help:
            "Seconds a connection may take from its accept to a finished WebSocket upgrade (TLS included) before it is closed."
    )
    var handshakeTimeout = 5.0

    @Option(
        help:
            "Seconds a client may stay silent: pinged after half of it, closed as lost (after the reconnect grace) after all of it."
    )
    var idleTimeout = 30.0

    @Option(help: "Connections open at once, from anywhere; one more is closed as soon as it is accepted.")
    var maxConnections = 10_000

    @Option(help: "Connections open at once from one IP address; one more from it is closed as soon as it is accepted.")
    var maxConnectionsPerAddress = 256

    @Option(help: "A PEM file with the relay's certificate chain: serve TLS (wss) only. Needs --tls-key.")
    var tlsCertificate: String?

    @Option(help: "A PEM file with the certificate's private key.")
    var tlsKey: String?

    @Option(
        help:
            "NATS servers (nats://HOST:PORT, comma-separated) through which this relay joins a cluster of relays; needs --node.")
    var cluster: String?

    @Option(help: "This node's name in the cluster: 1 to 64 ASCII letters, digits, - and _; unique among the nodes.")
    var node: String?

    @Option(help: "Seconds between a cluster node's heartbeats.")
    var clusterHeartbeat = 1.0

    @Option(help: "Seconds a cluster node may stay silent before the others take it for dead.")
    var clusterNodeTimeout = 3.0

    @Flag(
        help:
            "Also stop when standard input ends: a script that starts the relay with a pipe stops it by ending, however it ends.")
    var untilStdinCloses = false

    func validate() throws {
        guard (0...65_535).contains(port) else { throw ValidationError("--port \(port) is outside 0...65535") }
        guard (64...(16 << 20)).contains(maxFrame) else {
            throw ValidationError("--max-frame \(maxFrame) is outside 64...16777216")
        }
        guard maxQueuedBytes >= maxFrame else {
            throw ValidationError("--max-queued-bytes must hold at least one frame (\(maxFrame))")
        }
        guard maxRate > 0, burst > 0 else { throw ValidationError("--max-rate and --burst must be positive") }
        guard tokenLeeway >= 0 else { throw ValidationError("--token-leeway must not be negative") }
        guard (tlsCertificate == nil) == (tlsKey == nil) else {
            throw ValidationError("--tls-certificate and --tls-key go together")
        }
        guard metricsPath.isEmpty || metricsPath.hasPrefix("/") else { throw ValidationError("--metrics-path must start with /") }
        guard metricsPath != "/v1/connect" else {
            throw ValidationError("--metrics-path must not be the connect path /v1/connect")
        }
        guard reconnectGrace.isFinite, (0...3_600).contains(reconnectGrace) else {
            throw ValidationError("--reconnect-grace \(reconnectGrace) is outside 0...3600")
        }
        guard drainTimeout.isFinite, (0...3_600).contains(drainTimeout) else {
            throw ValidationError("--drain-timeout \(drainTimeout) is outside 0...3600")
        }
        guard handshakeTimeout.isFinite, (0.1...3_600).contains(handshakeTimeout) else {
            throw ValidationError("--handshake-timeout \(handshakeTimeout) is outside 0.1...3600")
        }
        guard idleTimeout.isFinite, (1...86_400).contains(idleTimeout) else {
            throw ValidationError("--idle-timeout \(idleTimeout) is outside 1...86400")
        }
        guard maxConnections > 0, maxConnectionsPerAddress > 0 else {
            throw ValidationError("--max-connections and --max-connections-per-address must be positive")
        }
        guard (cluster == nil) == (node == nil) else { throw ValidationError("--cluster and --node go together") }
        _ = try clusterConfiguration()
    }

    /// The cluster `--cluster` and `--node` describe, if any.
    func clusterConfiguration() throws -> RelayClusterConfiguration? {
        guard let cluster, let node else { return nil }
        guard clusterHeartbeat.isFinite, (0.01...60).contains(clusterHeartbeat) else {
            throw ValidationError("--cluster-heartbeat \(clusterHeartbeat) is outside 0.01...60")
        }
        guard clusterNodeTimeout.isFinite, clusterNodeTimeout >= 2 * clusterHeartbeat, clusterNodeTimeout <= 600 else {
            throw ValidationError("--cluster-node-timeout must be at least twice --cluster-heartbeat and at most 600")
        }
        do throws(NATSError) {
            let servers = try cluster.split(separator: ",").map { text throws(NATSError) in
                try NATSServerAddress(parsing: String(text.trimmingCharacters(in: .whitespaces)))
            }
            guard !servers.isEmpty else { throw NATSError(.invalidArgument, "no server") }
            var configuration = try RelayClusterConfiguration(servers: servers, node: node)
            configuration.heartbeatInterval = .milliseconds(Int64((clusterHeartbeat * 1_000).rounded()))
            configuration.nodeTimeout = .milliseconds(Int64((clusterNodeTimeout * 1_000).rounded()))
            return configuration
        } catch {
            throw ValidationError("--cluster/--node: \(error.message)")
        }
    }

    func run() throws {
        let key: [UInt8]
        do throws(ToolFailure) {
            key = try RelayTool.secret(secret, file: secretFile, environment: ProcessInfo.processInfo.environment)
        } catch {
            try StandardStreams.finish(error.result)
            return
        }
        // Logs (connections, refusals with their reasons, drops) go to standard error, with
        // the room and participant as metadata; standard output keeps the two status lines.
        LoggingSystem.bootstrap(StreamLogHandler.standardError)
        var configuration = RelayServerConfiguration(
            secret: key, tokenLeeway: tokenLeeway, maxFrameSize: maxFrame, maxQueuedBytes: maxQueuedBytes,
            maxMessagesPerSecond: maxRate, burst: burst, metricsPath: metricsPath.isEmpty ? nil : metricsPath,
            drainTimeout: .milliseconds(Int64((drainTimeout * 1_000).rounded())),
            reconnectGrace: .milliseconds(Int64((reconnectGrace * 1_000).rounded())),
            handshakeTimeout: .milliseconds(Int64((handshakeTimeout * 1_000).rounded())), maxConnections: maxConnections,
            maxConnectionsPerAddress: maxConnectionsPerAddress,
            idleTimeout: .milliseconds(Int64((idleTimeout * 1_000).rounded())),
            tls: tlsCertificate.flatMap { certificate in
                tlsKey.map { RelayServerTLS(certificateChainFile: certificate, privateKeyFile: $0) }
            })
        configuration.cluster = try clusterConfiguration()
        var tool = RelayTool(host: host, port: port, configuration: configuration)
        tool.untilStandardInputCloses = untilStdinCloses
        try StandardStreams.finish(tool.runBlocking())
    }
}
