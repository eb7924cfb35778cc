import GroupWire
import GroupWireJSON

/// A relay access token (Spec/RELAY.md, "Tokens"): a JWT (RFC 7519) signed with HMAC-SHA256
/// (`HS256`) under a secret the relay and the token issuer share, naming the room, the
/// participant's identity and an expiry, as LiveKit's access tokens do.
///
/// ```swift
/// let token = try AccessToken(room: "canvas-7", identity: "ada", expiresAt: now + 3_600).signed(secret: secret)
/// let claims = try AccessToken(verifying: token, secret: secret, now: now)   // what the relay does
/// ```
public struct AccessToken: Sendable, Hashable {
    /// The room (`room` claim): 1...128 UTF-8 bytes.
    public var room: String
    /// The participant's identity (`sub` claim): 1...128 UTF-8 bytes.
    public var identity: String
    /// When the token stops being valid (`exp`), in seconds since 1970.
    public var expiresAt: Int64
    /// When it starts being valid (`nbf`), if it says.
    public var notBefore: Int64?
    /// When it was issued (`iat`), if it says.
    public var issuedAt: Int64?

    /// Creates claims.
    public init(room: String, identity: String, expiresAt: Int64, notBefore: Int64? = nil, issuedAt: Int64? = nil) {
        self.room = room
        self.identity = identity
        self.expiresAt = expiresAt
        self.notBefore = notBefore
        self.issuedAt = issuedAt
    }

    /// The compact JWT: `base64url(header).base64url(claims).base64url(HMAC-SHA256)`, with
    /// the header `{"alg":"HS256","typ":"JWT"}` and the claims as compact JSON, keys sorted.
    /// - Throws: `invalidToken` for a room or identity outside 1...128 bytes, or an empty secret.
    public func signed(secret: [UInt8]) throws(WireError) -> String {
        try Self.checkName(room, "room")
        try Self.checkName(identity, "sub")
        guard !secret.isEmpty else { throw WireError(.invalidToken, "the secret is empty") }
        var claims: [String: JSONValue] = ["exp": .int(expiresAt), "room": .string(room), "sub": .string(identity)]
        if let notBefore { claims["nbf"] = .int(notBefore) }
        if let issuedAt { claims["iat"] = .int(issuedAt) }
        let signingInput =
            Base64.encode(Array(Self.header.utf8), .url) + "."
            + Base64.encode(Array(JSONValue.object(claims).rendered(pretty: false).utf8), .url)
        return signingInput + "." + Base64.encode(HMACSHA256.code(key: secret, message: Array(signingInput.utf8)), .url)
    }

    static let header = #"{"alg":"HS256","typ":"JWT"}"#

    /// Checks `token` as the relay does and returns its claims.
    ///
    /// In order: the length; three base64url parts; the header, a JSON object whose `alg` is
    /// exactly `HS256` (never `none`, never another algorithm); the signature, compared in
    /// constant time; the claims: `sub` and `room` strings of 1...128 bytes without control
    /// or bidi control characters, `exp` a whole number in -2^63...2^63-1, `nbf` and `iat` too
    /// when present; then time: `now` before `exp` (plus `leeway`), and not before `nbf` nor
    /// before `iat` (minus `leeway`). A header with `crit` is refused.
    /// - Parameters:
    ///   - token: the compact JWT a client presented.
    ///   - secret: the secret the relay shares with the token's issuer.
    ///   - now: the time, in seconds since 1970.
    ///   - leeway: seconds of clock difference tolerated between issuer and relay.
    ///   - maxLength: the longest token read, in bytes.
    /// - Throws: `invalidToken` (what is wrong, never the secret or the expected signature),
    ///   `tokenExpired`, `tokenNotYetValid`.
    public init(verifying token: String, secret: [UInt8], now: Int64, leeway: Int64 = 0, maxLength: Int = 4_096) throws(WireError)
    {
        guard token.utf8.count <= maxLength else {
            throw WireError(.invalidToken, "a token of \(token.utf8.count) bytes, over the limit of \(maxLength)")
        }
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3 else {
            throw WireError(.invalidToken, "a token has 3 dot-separated parts, this one \(parts.count)")
        }
        guard let headerBytes = Base64.decode(parts[0], .url), let claimBytes = Base64.decode(parts[1], .url),
            let signature = Base64.decode(parts[2], .url)
        else { throw WireError(.invalidToken, "a part is not unpadded base64url") }
        let header = try Self.object(headerBytes, "header")
        guard header["alg"]?.stringValue == "HS256" else {
            throw WireError(
                .invalidToken,
                "the header's alg is \(header["alg"].map { $0.rendered(pretty: false) } ?? "missing"), not \"HS256\"")
        }
        // RFC 7515, 4.1.11: a crit names extensions the token needs understood; this relay
        // understands none, so a token with one is refused whatever it lists.
        guard header["crit"] == nil else {
            throw WireError(.invalidToken, "the header's crit names extensions this relay does not understand")
        }
        let signingInput = Array(token.utf8.prefix(parts[0].utf8.count + 1 + parts[1].utf8.count))
        guard !secret.isEmpty, HMACSHA256.equal(HMACSHA256.code(key: secret, message: signingInput), signature) else {
            throw WireError(.invalidToken, "the signature does not match")
        }
        let claims = try Self.object(claimBytes, "claims")
        guard let identity = claims["sub"]?.stringValue else { throw WireError(.invalidToken, "the claims have no string 'sub'") }
        guard let room = claims["room"]?.stringValue else { throw WireError(.invalidToken, "the claims have no string 'room'") }
        try Self.checkName(identity, "sub")
        try Self.checkName(room, "room")
        guard let expiresAt = try Self.time(claims, "exp") else { throw WireError(.invalidToken, "the claims have no 'exp'") }
        let notBefore = try Self.time(claims, "nbf")
        let issuedAt = try Self.time(claims, "iat")
        // Saturating: a leeway or a date near Int64's ends cannot overflow.
        let leeway = max(leeway, 0)
        let (lastValid, late) = expiresAt.addingReportingOverflow(leeway)
        guard late || now < lastValid else {
            throw WireError(.tokenExpired, "the token expired at \(expiresAt), it is \(now)")
        }
        // nbf and iat alike: a token is not read before it starts, nor before it was issued
        // (an iat ahead of the relay's clock and leeway is a token from the future).
        for (claim, start) in [("nbf", notBefore), ("iat", issuedAt)] {
            guard let start else { continue }
            let (firstValid, early) = start.subtractingReportingOverflow(leeway)
            guard early || now >= firstValid else {
                throw WireError(.tokenNotYetValid, "the token's \(claim) is \(start), it is \(now)")
            }
        }
        self.init(room: room, identity: identity, expiresAt: expiresAt, notBefore: notBefore, issuedAt: issuedAt)
    }

    private static func object(_ bytes: [UInt8], _ what: String) throws(WireError) -> JSONValue {
        let value: JSONValue
        do {
            value = try JSONParser(maxDepth: 4).parse(bytes)
        } catch {
            throw WireError(.invalidToken, "the \(what) is not JSON: \(error)")
        }
        guard case .object = value else { throw WireError(.invalidToken, "the \(what) is not a JSON object") }
        return value
    }

    /// A time claim: a whole number of seconds since 1970 in -2^63 ... 2^63-1.
    private static func time(_ claims: JSONValue, _ name: String) throws(WireError) -> Int64? {
        guard let value = claims[name] else { return nil }
        guard case .number(let number) = value, let whole = Double(number.text), whole.rounded() == whole else {
            throw WireError(.invalidToken, "'\(name)' is \(value.rendered(pretty: false)), not a whole number of seconds")
        }
        guard let seconds = number.int64 else {
            throw WireError(.invalidToken, "'\(name)' is \(number.text), outside \(Int64.min)...\(Int64.max) seconds")
        }
        return seconds
    }

    private static func checkName(_ text: String, _ claim: String) throws(WireError) {
        guard (1...128).contains(text.utf8.count) else {
            throw WireError(.invalidToken, "'\(claim)' has \(text.utf8.count) bytes; 1...128 are allowed")
        }
        guard let scalar = text.unicodeScalars.first(where: isRefused) else { return }
        throw WireError(
            .invalidToken,
            "'\(claim)' contains U+\(Hex.digits(UInt64(scalar.value), width: 4, uppercase: true)), a control or bidi control character"
        )
    }

    /// What a name may not contain: control characters (general category Cc: C0, DEL and
    /// C1) and the bidirectional controls of category Cf (U+061C, U+200E, U+200F,
    /// U+202A...U+202E, U+2066...U+2069), which make a name read differently from its bytes.
    static func isRefused(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.properties.generalCategory == .control { return true }
        switch scalar.value {
        case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: return true
        default: return false
        }
    }
}

extension WireError.Kind {
    /// An access token that is malformed, signed with another secret or algorithm, or
    /// whose claims are missing or out of range.
    public static let invalidToken = WireError.Kind(name: "invalidToken")
    /// An access token past its `exp`.
    public static let tokenExpired = WireError.Kind(name: "tokenExpired")
    /// An access token before its `nbf`.
    public static let tokenNotYetValid = WireError.Kind(name: "tokenNotYetValid")
}
