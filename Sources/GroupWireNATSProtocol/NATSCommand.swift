import GroupWireJSON

/// What a client sends a NATS server, encoded (docs.nats.io, "Client Protocol"). Every
/// subject, queue group and header is checked before a byte is written: what the protocol
/// cannot carry is an `invalidArgument` error, never a line the server would misread.
public enum NATSCommand: Sendable, Hashable {
    /// `CONNECT {json}`.
    case connect(NATSConnectOptions)
    /// `PUB` (or `HPUB` with headers): `payload` to `subject`.
    case publish(subject: String, replyTo: String?, headers: NATSHeaders?, payload: [UInt8])
    /// `SUB subject [queue] sid`.
    case subscribe(subject: String, queue: String?, subscription: UInt64)
    /// `UNSUB sid [max]`: now, or after `after` more messages.
    case unsubscribe(subscription: UInt64, after: Int?)
    /// `PING`.
    case ping
    /// `PONG`.
    case pong

    /// The command's bytes, CRLF included.
    /// - Throws: `invalidArgument` for a subject, reply subject, queue group or header the
    ///   protocol cannot carry.
    public func encoded() throws(NATSProtocolError) -> [UInt8] {
        switch self {
        case .connect(let options):
            return Array("CONNECT ".utf8) + Array(options.json.rendered(pretty: false).utf8) + [13, 10]
        case .publish(let subject, let replyTo, let headers, let payload):
            let block = try headers?.encoded()
            var bytes = try Self.publishLine(
                subject: subject, replyTo: replyTo, headerLength: block?.count, totalLength: (block?.count ?? 0) + payload.count)
            if let block { bytes += block }
            return bytes + payload + [13, 10]
        case .subscribe(let subject, let queue, let subscription):
            try NATSSubject.check(subject, wildcards: true)
            if let queue { try NATSSubject.checkQueue(queue) }
            return Array("SUB \(subject)\(queue.map { " " + $0 } ?? "") \(subscription)\r\n".utf8)
        case .unsubscribe(let subscription, let after):
            return Array("UNSUB \(subscription)\(after.map { " \(max(0, $0))" } ?? "")\r\n".utf8)
        case .ping:
            return Array("PING\r\n".utf8)
        case .pong:
            return Array("PONG\r\n".utf8)
        }
    }

    /// The line of a PUB (`headerLength` nil) or HPUB, CRLF included: what precedes the
    /// header block and payload, which the caller writes after it, then CRLF.
    /// - Throws: `invalidArgument` for a subject or reply subject the protocol cannot carry.
    public static func publishLine(subject: String, replyTo: String?, headerLength: Int?, totalLength: Int)
        throws(NATSProtocolError)
        -> [UInt8]
    {
        try NATSSubject.check(subject, wildcards: false)
        if let replyTo { try NATSSubject.check(replyTo, wildcards: false) }
        var line = Array((headerLength == nil ? "PUB " : "HPUB ").utf8)
        line += Array(subject.utf8)
        if let replyTo { line += [0x20] + Array(replyTo.utf8) }
        if let headerLength { line += Array(" \(headerLength)".utf8) }
        line += Array(" \(totalLength)\r\n".utf8)
        return line
    }
}

/// CONNECT's options: who the client is and what it wants of the connection.
public struct NATSConnectOptions: Sendable, Hashable {
    /// `name`: shown in the server's monitoring.
    public var name: String?
    /// `echo`: whether the server sends this connection its own publications when it is
    /// subscribed to them (a relay node says no).
    public var echo: Bool
    /// `verbose`: +OK after every command (off).
    public var verbose: Bool
    /// `pedantic`: strict checks by the server (off).
    public var pedantic: Bool
    /// `headers`: the client sends HPUB and takes HMSG.
    public var headers: Bool
    /// `no_responders`: a request with no subscriber gets a 503 status message.
    public var noResponders: Bool
    /// `user` and `pass`.
    public var user: String?
    /// `pass`.
    public var password: String?
    /// `auth_token`.
    public var token: String?

    /// Options; `protocol` is always 1 (the client takes INFO updates).
    public init(
        name: String? = nil, echo: Bool = true, verbose: Bool = false, pedantic: Bool = false, headers: Bool = true,
        noResponders: Bool = false, user: String? = nil, password: String? = nil, token: String? = nil
    ) {
        self.name = name
        self.echo = echo
        self.verbose = verbose
        self.pedantic = pedantic
        self.headers = headers
        self.noResponders = noResponders
        self.user = user
        self.password = password
        self.token = token
    }

    /// CONNECT's JSON.
    public var json: JSONValue {
        var object: [String: JSONValue] = [
            "verbose": .bool(verbose), "pedantic": .bool(pedantic), "tls_required": .bool(false), "lang": .string("swift"),
            "version": .string("groupwire"), "protocol": .int(1), "echo": .bool(echo), "headers": .bool(headers),
            "no_responders": .bool(noResponders && headers),
        ]
        if let name { object["name"] = .string(name) }
        if let user { object["user"] = .string(user) }
        if let password { object["pass"] = .string(password) }
        if let token { object["auth_token"] = .string(token) }
        return .object(object)
    }
}

/// Subject rules: tokens separated by `.`, none empty, no whitespace or control bytes;
/// wildcards (`*` for one token, `>` for the rest) only in subscriptions, `>` only last.
public enum NATSSubject {
    /// Checks `subject`; `wildcards` allows `*` and `>` tokens (a subscription's).
    /// - Throws: `invalidArgument` naming the rule broken.
    public static func check(_ subject: String, wildcards: Bool) throws(NATSProtocolError) {
        let bytes = Array(subject.utf8)
        guard !bytes.isEmpty else { throw NATSProtocolError(.invalidArgument, offset: nil, "an empty subject") }
        guard bytes.allSatisfy({ $0 > 0x20 && $0 != 0x7F }) else {
            throw NATSProtocolError(
                .invalidArgument, offset: nil, "the subject \(String(reflecting: subject)) holds whitespace or a control byte")
        }
        let tokens = bytes.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        for (index, token) in tokens.enumerated() {
            guard !token.isEmpty else {
                throw NATSProtocolError(
                    .invalidArgument, offset: nil, "the subject \(String(reflecting: subject)) has an empty token")
            }
            let wildcard = token.elementsEqual([UInt8(ascii: "*")]) || token.elementsEqual([UInt8(ascii: ">")])
            guard !wildcard || wildcards else {
                throw NATSProtocolError(
                    .invalidArgument, offset: nil,
                    "the subject \(String(reflecting: subject)) has a wildcard, which only SUB takes")
            }
            guard !token.elementsEqual([UInt8(ascii: ">")]) || index == tokens.count - 1 else {
                throw NATSProtocolError(
                    .invalidArgument, offset: nil, "the subject \(String(reflecting: subject)) has > before its end")
            }
        }
    }

    /// Checks a queue group's name: not empty, no whitespace or control bytes.
    /// - Throws: `invalidArgument`.
    public static func checkQueue(_ queue: String) throws(NATSProtocolError) {
        guard !queue.isEmpty, queue.utf8.allSatisfy({ $0 > 0x20 && $0 != 0x7F }) else {
            throw NATSProtocolError(.invalidArgument, offset: nil, "the queue group \(String(reflecting: queue))")
        }
    }
}
