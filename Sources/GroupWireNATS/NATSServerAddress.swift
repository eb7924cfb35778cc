/// Where a NATS server listens for clients.
public struct NATSServerAddress: Sendable, Hashable, CustomStringConvertible {
    /// A host name or IP address (IPv6 without brackets).
    public var host: String
    /// The port: 4222 unless told otherwise.
    public var port: Int

    /// An address.
    public init(host: String, port: Int = 4222) {
        self.host = host
        self.port = port
    }

    /// Reads `nats://host:port`, `host:port`, `host` (port 4222) or `[ipv6]:port`, as
    /// `--cluster` lists and INFO's `connect_urls` carry them.
    /// - Throws: `invalidArgument` for another scheme, an empty host, or a port outside 1...65535.
    public init(parsing text: String) throws(NATSError) {
        var rest = Substring(text)
        if let scheme = rest.range(of: "://") {
            guard rest[..<scheme.lowerBound].lowercased() == "nats" else {
                throw NATSError(.invalidArgument, "\(String(reflecting: text)): only nats:// addresses are supported")
            }
            rest = rest[scheme.upperBound...]
        }
        if let slash = rest.firstIndex(of: "/") { rest = rest[..<slash] }
        var host = rest
        var port = 4222
        if rest.hasPrefix("[") {
            guard let close = rest.firstIndex(of: "]") else {
                throw NATSError(.invalidArgument, "\(String(reflecting: text)): an IPv6 address without ]")
            }
            host = rest[rest.index(after: rest.startIndex)..<close]
            let after = rest[rest.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":"), let number = Int(after.dropFirst()) else {
                    throw NATSError(.invalidArgument, "\(String(reflecting: text)): a port that is not a number")
                }
                port = number
            }
        } else if let colon = rest.lastIndex(of: ":") {
            host = rest[..<colon]
            guard let number = Int(rest[rest.index(after: colon)...]) else {
                throw NATSError(.invalidArgument, "\(String(reflecting: text)): a port that is not a number")
            }
            port = number
        }
        guard !host.isEmpty else { throw NATSError(.invalidArgument, "\(String(reflecting: text)): no host") }
        guard (1...65_535).contains(port) else {
            throw NATSError(.invalidArgument, "\(String(reflecting: text)): port \(port) is outside 1...65535")
        }
        self.init(host: String(host), port: port)
    }

    /// `nats://host:port`.
    public var description: String {
        host.contains(":") ? "nats://[\(host)]:\(port)" : "nats://\(host):\(port)"
    }
}
