import GroupWireNATS
import GroupWireRelay

/// How a relay node joins a cluster of relays through NATS (`groupwire relay --cluster
/// nats://HOST:PORT[,…] --node NAME`; Spec/RELAY.md, "Clustering").
public struct RelayClusterConfiguration: Sendable {
    /// The NATS servers to connect to (the cluster's others are learned from them).
    public var servers: [NATSServerAddress]
    /// This node's name, unique in the cluster: ASCII letters, digits, `-` and `_`, at most
    /// 64 bytes.
    public var node: String
    /// The first token of every subject the nodes use. Default `groupwire`.
    public var subjectPrefix: String = "groupwire"
    /// How often a node says it is alive. Default 1 second.
    public var heartbeatInterval: Duration = .seconds(1)
    /// How long a node may stay silent before the others take it for dead: its rooms get
    /// new owners and its members are lost (they keep their place for the reconnect grace,
    /// as for a cut connection). Default 3 seconds.
    public var nodeTimeout: Duration = .seconds(3)

    /// A configuration for node `node` over `servers`.
    /// - Throws: `invalidArgument` for a node name with other characters, empty or too long.
    public init(servers: [NATSServerAddress], node: String) throws(NATSError) {
        guard RelayClusterMessage.isNodeName(node) else {
            throw NATSError(
                .invalidArgument, "node name \(String(reflecting: node)): 1 to 64 ASCII letters, digits, - and _")
        }
        self.servers = servers
        self.node = node
    }
}
