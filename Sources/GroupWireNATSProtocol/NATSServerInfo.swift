import GroupWireJSON

/// What a server says of itself in INFO: sent first on every connection, and again when
/// the cluster changes (new `connect_urls`) or the server enters lame duck mode. Fields the
/// client does not use are not kept; a field it uses with the wrong JSON type is an error.
public struct NATSServerInfo: Sendable, Hashable {
    /// `server_id`.
    public var serverID: String
    /// `server_name`.
    public var serverName: String?
    /// `version`.
    public var version: String?
    /// `proto`: 1 when the server sends INFO updates to clients that ask for them.
    public var proto: Int
    /// `headers`: whether the server takes HPUB and sends HMSG.
    public var headers: Bool
    /// `max_payload`: the largest message (headers and payload) it takes, in bytes.
    public var maxPayload: Int
    /// `connect_urls`: `host:port` of the cluster's servers clients may connect to.
    public var connectURLs: [String]
    /// `auth_required`.
    public var authRequired: Bool
    /// `tls_required`.
    public var tlsRequired: Bool
    /// `ldm`: the server is in lame duck mode and will close client connections soon.
    public var lameDuckMode: Bool
    /// `client_id`: this connection's number on the server.
    public var clientID: UInt64?

    /// Info with the fields given (what a test server says).
    public init(
        serverID: String, serverName: String? = nil, version: String? = nil, proto: Int = 1, headers: Bool = true,
        maxPayload: Int = 1 << 20, connectURLs: [String] = [], authRequired: Bool = false, tlsRequired: Bool = false,
        lameDuckMode: Bool = false, clientID: UInt64? = nil
    ) {
        self.serverID = serverID
        self.serverName = serverName
        self.version = version
        self.proto = proto
        self.headers = headers
        self.maxPayload = maxPayload
        self.connectURLs = connectURLs
        self.authRequired = authRequired
        self.tlsRequired = tlsRequired
        self.lameDuckMode = lameDuckMode
        self.clientID = clientID
    }

    /// Reads INFO's JSON argument.
    /// - Throws: `invalidInfo` at `offset` for text that is not a JSON object, a missing
    ///   `server_id`, a field of the wrong type, or a `max_payload` under 1.
    public init(json bytes: [UInt8], offset: Int) throws(NATSProtocolError) {
        let value: JSONValue
        do {
            value = try JSONParser(maxDepth: 8).parse(bytes)
        } catch {
            throw NATSProtocolError(.invalidInfo, offset: offset + error.offset, "INFO is not JSON: \(error.context)")
        }
        guard let object = value.objectValue else {
            throw NATSProtocolError(.invalidInfo, offset: offset, "INFO's argument is a JSON \(value.typeName), not an object")
        }
        func field<T>(_ key: String, _ read: (JSONValue) -> T?, _ type: String) throws(NATSProtocolError) -> T? {
            guard let member = object[key], member != .null else { return nil }
            guard let typed = read(member) else {
                throw NATSProtocolError(.invalidInfo, offset: offset, "INFO's \(key) is a JSON \(member.typeName), not \(type)")
            }
            return typed
        }
        let bool: (JSONValue) -> Bool? = { if case .bool(let flag) = $0 { flag } else { nil } }
        let int: (JSONValue) -> Int? = {
            if case .number(let number) = $0 { number.int64.flatMap { Int(exactly: $0) } } else { nil }
        }
        guard let serverID = try field("server_id", \.stringValue, "a string") else {
            throw NATSProtocolError(.invalidInfo, offset: offset, "INFO without server_id")
        }
        self.serverID = serverID
        serverName = try field("server_name", \.stringValue, "a string")
        version = try field("version", \.stringValue, "a string")
        proto = try field("proto", int, "an integer") ?? 0
        headers = try field("headers", bool, "a boolean") ?? false
        maxPayload = try field("max_payload", int, "an integer") ?? (1 << 20)
        guard maxPayload >= 1 else {
            throw NATSProtocolError(.invalidInfo, offset: offset, "INFO's max_payload is \(maxPayload), under 1")
        }
        let urls = try field("connect_urls", \.arrayValue, "an array") ?? []
        connectURLs = []
        for url in urls {
            guard let text = url.stringValue else {
                throw NATSProtocolError(.invalidInfo, offset: offset, "INFO's connect_urls holds a JSON \(url.typeName)")
            }
            connectURLs.append(text)
        }
        authRequired = try field("auth_required", bool, "a boolean") ?? false
        tlsRequired = try field("tls_required", bool, "a boolean") ?? false
        lameDuckMode = try field("ldm", bool, "a boolean") ?? false
        clientID = try field("client_id", { if case .number(let number) = $0 { number.uint64 } else { nil } }, "an integer")
    }

    /// The JSON a server sends for this info (the fields above only).
    public var json: JSONValue {
        var object: [String: JSONValue] = [
            "server_id": .string(serverID), "proto": .int(Int64(proto)), "headers": .bool(headers),
            "max_payload": .int(Int64(maxPayload)), "auth_required": .bool(authRequired), "tls_required": .bool(tlsRequired),
        ]
        if let serverName { object["server_name"] = .string(serverName) }
        if let version { object["version"] = .string(version) }
        if !connectURLs.isEmpty { object["connect_urls"] = .array(connectURLs.map { .string($0) }) }
        if lameDuckMode { object["ldm"] = .bool(true) }
        if let clientID { object["client_id"] = .uint(clientID) }
        return .object(object)
    }
}
