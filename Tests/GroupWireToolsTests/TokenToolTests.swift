import Foundation
import GroupWire
import GroupWireRelay
import GroupWireTestSupport
import GroupWireTools
import Testing

/// `groupwire token`: a token the relay accepts, from a secret given three ways.
@Suite struct TokenToolTests {
    @Test func theTokenVerifiesWithTheSameSecretAndNamesRoomIdentityAndExpiry() throws {
        let result = TokenTool(room: "canvas-7", identity: "ada", validFor: 600, secret: "s3cret", environment: [:], now: 1_000)
            .run()
        #expect(result.status == .ok)
        let token = result.outputText.trimmingCharacters(in: .newlines)
        let claims = try AccessToken(verifying: token, secret: Array("s3cret".utf8), now: 1_599)
        #expect(claims == AccessToken(room: "canvas-7", identity: "ada", expiresAt: 1_600, issuedAt: 1_000))
        #expect(throws: WireError.self) { try AccessToken(verifying: token, secret: Array("s3cret".utf8), now: 1_600) }
    }

    @Test func theSecretComesFromAFileOrTheEnvironment() throws {
        let folder = try RepositoryPaths.temporaryDirectory()
        let file = folder.appendingPathComponent("secret")
        try Data("from-file\n".utf8).write(to: file)
        let fromFile = TokenTool(room: "r", identity: "i", secretFile: file.path, environment: [:], now: 0).run()
        #expect(
            try AccessToken(
                verifying: fromFile.outputText.trimmingCharacters(in: .newlines), secret: Array("from-file".utf8), now: 1
            ).room == "r")
        let fromEnvironment = TokenTool(room: "r", identity: "i", environment: ["GROUPWIRE_RELAY_SECRET": "env"], now: 0).run()
        #expect(
            try AccessToken(
                verifying: fromEnvironment.outputText.trimmingCharacters(in: .newlines), secret: Array("env".utf8), now: 1
            ).identity == "i")
    }

    @Test func withoutASecretOrWithBadClaimsItFailsWithUsageStatus() {
        let none = TokenTool(room: "r", identity: "i", environment: [:], now: 0).run()
        #expect(none.status == .failure)
        #expect(none.messages == "groupwire: error: no secret: give --secret, --secret-file, or set GROUPWIRE_RELAY_SECRET\n")
        let long = TokenTool(room: String(repeating: "r", count: 129), identity: "i", secret: "s", environment: [:], now: 0).run()
        #expect(long.status == .failure && long.messages.contains("'room' has 129 bytes; 1...128 are allowed"))
        let both = TokenTool(room: "r", identity: "i", secret: "s", secretFile: "/nonexistent", environment: [:], now: 0).run()
        #expect(both.messages.contains("not both"))
    }

    @Test func theBinaryPrintsATokenFromTheEnvironmentSecret() throws {
        let binary = try #require(CLIRunner.binary)
        let run = try ChildProcess.run(
            binary, ["token", "--room", "canvas-7", "--identity", "bo", "--valid-for", "60"],
            directory: CLIRunner.root, environment: ["GROUPWIRE_RELAY_SECRET": "s3cret"])
        #expect(run.status == 0)
        let claims = try AccessToken(
            verifying: run.outputText.trimmingCharacters(in: .newlines), secret: Array("s3cret".utf8),
            now: Int64(Date().timeIntervalSince1970))
        #expect(claims.identity == "bo" && claims.room == "canvas-7")
    }
}
