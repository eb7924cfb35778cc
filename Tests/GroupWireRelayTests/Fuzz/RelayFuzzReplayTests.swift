import Foundation
import GroupWireFuzzChecks
import Testing

/// Replays every seed and saved crash input of the FuzzRelayMessage and FuzzAccessToken
/// targets (Fuzz/corpus, Fuzz/regressions) through the very checks the targets run
/// (Fuzz/Harnesses/RelayFuzzHarness.swift, in the _GroupWireFuzzChecks product).
@Suite struct RelayFuzzReplayTests {
    static let messages = fuzzReplayInputs(target: "FuzzRelayMessage")
    static let tokens = fuzzReplayInputs(target: "FuzzAccessToken")

    @Test func theSeedCorporaAreCommitted() {
        #expect(Self.messages.count >= 20, "seeds in Fuzz/corpus/FuzzRelayMessage; run python3 Fuzz/make-corpus.py")
        #expect(Self.tokens.count >= 10, "seeds in Fuzz/corpus/FuzzAccessToken; run python3 Fuzz/make-corpus.py")
    }

    @Test(arguments: messages)
    func everyMessageDecodesAndEncodesToItselfOrFailsInside(_ url: URL) throws {
        #expect(relayMessageFuzzViolations([UInt8](try Data(contentsOf: url))) == [], "\(url.lastPathComponent)")
    }

    @Test(arguments: tokens)
    func everyAcceptedTokensClaimsSignAndVerifyAgain(_ url: URL) throws {
        #expect(accessTokenFuzzViolations([UInt8](try Data(contentsOf: url))) == [], "\(url.lastPathComponent)")
    }
}
