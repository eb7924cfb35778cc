import GroupWire
import GroupWireJSON
import Testing

@testable import GroupWireRelay

/// Tokens as `groupwire token` makes them and the relay checks them.
@Suite struct AccessTokenTests {
    static let secret = Array("a shared secret".utf8)

    @Test func aSignedTokenVerifiesToTheSameClaims() throws {
        let claims = AccessToken(room: "canvas-7", identity: "ada", expiresAt: 2_000, notBefore: 100, issuedAt: 100)
        let token = try claims.signed(secret: Self.secret)
        #expect(token.split(separator: ".").count == 3 && !token.contains("="))
        #expect(try AccessToken(verifying: token, secret: Self.secret, now: 1_000) == claims)
        // The header and claims are fixed texts, so one set of claims has one token.
        #expect(try claims.signed(secret: Self.secret) == token)
        #expect(token.hasPrefix("eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9."))
    }

    @Test func timeLimitsAreExactAndTheLeewayWidensThem() throws {
        let token = try AccessToken(room: "r", identity: "i", expiresAt: 1_000, notBefore: 500).signed(secret: Self.secret)
        #expect(throws: WireError.self) { try AccessToken(verifying: token, secret: Self.secret, now: 1_000) }
        #expect(try AccessToken(verifying: token, secret: Self.secret, now: 999).expiresAt == 1_000)
        #expect(try AccessToken(verifying: token, secret: Self.secret, now: 1_004, leeway: 5).identity == "i")
        #expect(try AccessToken(verifying: token, secret: Self.secret, now: 500).room == "r")
        do {
            _ = try AccessToken(verifying: token, secret: Self.secret, now: 499)
            Issue.record("accepted before nbf")
        } catch {
            #expect(error.kind == .tokenNotYetValid && error.context == "the token's nbf is 500, it is 499")
        }
        do {
            _ = try AccessToken(verifying: token, secret: Self.secret, now: 2_000)
            Issue.record("accepted after exp")
        } catch {
            #expect(error.kind == .tokenExpired && error.context == "the token expired at 1000, it is 2000")
        }
        // Dates at the ends of Int64 do not overflow.
        let forever = try AccessToken(room: "r", identity: "i", expiresAt: .max, notBefore: .min).signed(secret: Self.secret)
        #expect(try AccessToken(verifying: forever, secret: Self.secret, now: 0, leeway: .max).expiresAt == .max)
    }

    @Test func aWrongSecretOrAnEmptyOneIsRefusedWithoutSayingMore() throws {
        let token = try AccessToken(room: "r", identity: "i", expiresAt: 10).signed(secret: Self.secret)
        for secret in [Array("another".utf8), []] {
            do {
                _ = try AccessToken(verifying: token, secret: secret, now: 0)
                Issue.record("accepted with another secret")
            } catch {
                #expect(error.kind == .invalidToken && error.context == "the signature does not match")
            }
        }
        #expect(throws: WireError.self) { try AccessToken(room: "r", identity: "i", expiresAt: 10).signed(secret: []) }
    }

    @Test(arguments: [
        ("", "a token has 3 dot-separated parts, this one 1"),
        ("a.b", "a token has 3 dot-separated parts, this one 2"),
        ("a.b.c.d", "a token has 3 dot-separated parts, this one 4"),
        ("a+.b.c", "a part is not unpadded base64url"),
        ("e30.e30.", "the header's alg is missing, not \"HS256\""),
        ("bnVsbA.e30.", "the header is not a JSON object"),
        ("eyJ.e30.", "a part is not unpadded base64url"),
    ])
    func malformedTokensSayWhatIsWrong(_ token: String, _ reason: String) {
        do {
            _ = try AccessToken(verifying: token, secret: Self.secret, now: 0)
            Issue.record("accepted \(token)")
        } catch {
            #expect(error.kind == .invalidToken && error.context == reason)
        }
    }

    @Test func namesAreBoundedAndControlCharactersRefused() throws {
        #expect(throws: WireError.self) {
            try AccessToken(room: String(repeating: "r", count: 129), identity: "i", expiresAt: 1).signed(secret: Self.secret)
        }
        #expect(throws: WireError.self) { try AccessToken(room: "r", identity: "", expiresAt: 1).signed(secret: Self.secret) }
        #expect(throws: WireError.self) { try AccessToken(room: "r\n", identity: "i", expiresAt: 1).signed(secret: Self.secret) }
        let long = String(repeating: "a", count: 5_000)
        do {
            _ = try AccessToken(verifying: long, secret: Self.secret, now: 0)
        } catch {
            #expect(error.kind == .invalidToken && error.context == "a token of 5000 bytes, over the limit of 4096")
        }
    }

    @Test func participantIDsAreStablePerRoomAndMarkedVersion8() {
        let ada = RelayIdentity.participantID(room: "canvas-7", identity: "ada")
        #expect(ada == RelayIdentity.participantID(room: "canvas-7", identity: "ada"))
        #expect(ada != RelayIdentity.participantID(room: "canvas-8", identity: "ada"))
        #expect(ada.uuid.6 >> 4 == 8 && ada.uuid.8 >> 6 == 2)
    }

    /// A token with exactly this header and these claims (JSON texts), signed with the secret.
    static func token(header: String = #"{"alg":"HS256"}"#, claims: String) -> String {
        let input = Base64.encode(Array(header.utf8), .url) + "." + Base64.encode(Array(claims.utf8), .url)
        return input + "." + Base64.encode(HMACSHA256.code(key: secret, message: Array(input.utf8)), .url)
    }

    @Test(arguments: [
        // C1 control (Cc) and the bidi override (Cf): read one way, shown another.
        (#"{"exp":10,"room":"r","sub":"a\u0085b"}"#, "'sub' contains U+0085, a control or bidi control character"),
        (#"{"exp":10,"room":"r\u202Eevil","sub":"a"}"#, "'room' contains U+202E, a control or bidi control character"),
        (#"{"exp":1e20,"room":"r","sub":"a"}"#, "'exp' is 1e20, outside -9223372036854775808...9223372036854775807 seconds"),
        (#"{"exp":1.5,"room":"r","sub":"a"}"#, "'exp' is 1.5, not a whole number of seconds"),
    ])
    func claimsAreScreenedByCategoryAndRange(_ claims: String, _ reason: String) {
        do {
            _ = try AccessToken(verifying: Self.token(claims: claims), secret: Self.secret, now: 0)
            Issue.record("accepted \(claims)")
        } catch {
            #expect(error.kind == .invalidToken && error.context == reason)
        }
    }

    @Test func aCritHeaderAndAnIssueTimeAheadAreRefused() throws {
        let crit = Self.token(header: #"{"alg":"HS256","crit":["b64"],"b64":false}"#, claims: #"{"exp":10,"room":"r","sub":"a"}"#)
        let critError = #expect(throws: WireError.self) { try AccessToken(verifying: crit, secret: Self.secret, now: 0) }
        #expect(critError?.kind == .invalidToken && critError?.context.contains("crit") == true)
        // Issued an hour after the relay's now: refused, unless the leeway covers it.
        let ahead = Self.token(claims: #"{"exp":100000,"iat":3600,"room":"r","sub":"a"}"#)
        let aheadError = #expect(throws: WireError.self) { try AccessToken(verifying: ahead, secret: Self.secret, now: 0) }
        #expect(aheadError?.kind == .tokenNotYetValid && aheadError?.context == "the token's iat is 3600, it is 0")
        #expect(try AccessToken(verifying: ahead, secret: Self.secret, now: 0, leeway: 3_600).issuedAt == 3_600)
    }
}
