import GroupWire
import GroupWireRelay

/// What a WebSocket upgrade request asks of the relay (Spec/RELAY.md, "Connecting"): the
/// path, and the token from the `token` query parameter or from a `groupwire.token.`
/// subprotocol. Pure, so it is tested without a socket.
struct RelayHandshake: Sendable, Hashable {
    /// The path clients connect to.
    static let path = "/v1/connect"
    /// The subprotocol the relay answers with.
    static let subprotocol = "groupwire.v1"
    /// The prefix of the subprotocol that carries a token.
    static let tokenSubprotocolPrefix = "groupwire.token."

    /// The token the request carries.
    var token: String
    /// Whether the client offered `groupwire.v1` (the relay then answers with it).
    var offersSubprotocol: Bool

    /// Why a request cannot be upgraded: the HTTP status and the text body.
    struct Refusal: Error, Sendable, Hashable {
        var status: Int
        var reason: String
    }

    /// Reads the request target (`uri`) and the `Sec-WebSocket-Protocol` values.
    /// - Throws: ``Refusal`` 404 for another path, 400 when subprotocols are offered
    ///   without `groupwire.v1`, 401 without a token.
    init(uri: String, subprotocols: [String]) throws(Refusal) {
        let (path, query) = uri.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
            .pairOrSingle
        guard path == Self.path else { throw Refusal(status: 404, reason: "the relay listens on \(Self.path), not \(path)") }
        let offered = subprotocols.flatMap { $0.split(separator: ",") }.map { $0.trimmingCharacters(in: .whitespaces) }
        offersSubprotocol = offered.contains(Self.subprotocol)
        // A browser fails a connection whose server selects none of the subprotocols it
        // offered, so a client that offers any must offer the one the relay selects.
        guard offered.isEmpty || offersSubprotocol else {
            throw Refusal(
                status: 400,
                reason:
                    "the relay selects the subprotocol \(Self.subprotocol), which the request does not offer (it offers \(offered.map { $0.hasPrefix(Self.tokenSubprotocolPrefix) ? Self.tokenSubprotocolPrefix + "…" : $0 }.joined(separator: ", ")))"
            )
        }
        let fromQuery = query?.split(separator: "&").compactMap { item -> String? in
            let pair = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            return pair.count == 2 && pair[0] == "token" ? String(pair[1]) : nil
        }.first
        let fromSubprotocol = offered.first { $0.hasPrefix(Self.tokenSubprotocolPrefix) }.map {
            String($0.dropFirst(Self.tokenSubprotocolPrefix.count))
        }
        guard let token = fromQuery ?? fromSubprotocol, !token.isEmpty else {
            throw Refusal(
                status: 401, reason: "invalidToken: no token (give ?token=... or the subprotocol groupwire.token.TOKEN)")
        }
        self.token = token
    }

    /// The token's claims, checked with `secret` at `now`.
    /// - Throws: ``Refusal`` 401 with the token error's kind and context.
    func claims(secret: [UInt8], now: Int64, leeway: Int64) throws(Refusal) -> AccessToken {
        do {
            return try AccessToken(verifying: token, secret: secret, now: now, leeway: leeway)
        } catch {
            throw Refusal(status: 401, reason: "\(error.kind): \(error.context)")
        }
    }
}

extension Array where Element == String {
    /// The first two elements, the second nil when there is one.
    fileprivate var pairOrSingle: (String, String?) {
        (first ?? "", count > 1 ? self[1] : nil)
    }
}
