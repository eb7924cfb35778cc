import GroupWire
import GroupWireRelay
import Testing

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
            #expect(error.kind == .tokenNotYetValid && error.context == "the token is valid from 500, it is 499")
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
}
