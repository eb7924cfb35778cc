import Foundation
import GroupWireNetwork
import GroupWireRelay
import GroupWireSession
import GroupWireTestSupport
import GroupWireTools
import Synchronization
import Testing

/// `groupwire relay` as an operator runs it: a real process on a free loopback port, clients
/// with `groupwire token` tokens, and SIGTERM.
@Suite struct RelayCommandEndToEndTests {
    /// What the relay process printed so far.
    final class Output: Sendable {
        private let text = Mutex("")
        func append(_ data: Data) { text.withLock { $0 += String(decoding: data, as: UTF8.self) } }
        var value: String { text.withLock { $0 } }
    }

    @Test func theRelayProcessServesARoomAndStopsOnSIGTERM() async throws {
        let binary = try #require(CLIRunner.binary)
        let process = Process()
        process.executableURL = binary
        process.arguments = ["relay", "--port", "0", "--max-frame", "4096"]
        process.environment = ["GROUPWIRE_RELAY_SECRET": "s3cret"]
        let pipe = Pipe()
        let errorPipe = Pipe()
        process.standardOutput = pipe
        process.standardError = errorPipe
        let output = Output()
        let log = Output()
        pipe.fileHandleForReading.readabilityHandler = { handle in output.append(handle.availableData) }
        errorPipe.fileHandleForReading.readabilityHandler = { handle in log.append(handle.availableData) }
        try process.run()
        // Stopped by its process id whatever happens below.
        defer {
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            pipe.fileHandleForReading.readabilityHandler = nil
            errorPipe.fileHandleForReading.readabilityHandler = nil
        }
        let deadline = ContinuousClock.now + .seconds(60)
        while !output.value.contains("listening on"), ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
        let line = try #require(output.value.split(separator: "\n").first { $0.contains("listening on 127.0.0.1:") })
        let port = try #require(Int(line.split(separator: ":").last ?? ""))

        func token(_ identity: String) throws -> String {
            let result = TokenTool(room: "canvas-7", identity: identity, secret: "s3cret", environment: [:]).run()
            return result.outputText.trimmingCharacters(in: .newlines)
        }
        let ada = try await RelayTransport.connect(host: "127.0.0.1", port: port, token: try token("ada"))
        let bo = try await RelayTransport.connect(host: "127.0.0.1", port: port, token: try token("bo"))
        #expect(bo.welcome.members.map(\.identity) == ["ada"] && bo.welcome.maxFrameSize == 4_096)
        var events = bo.events.makeAsyncIterator()
        #expect(await events.next() == .joined(ada.localParticipant))
        try await ada.send([7, 7, 7], to: .all)
        let delivered = await events.next()
        #expect(delivered == .message(TransportMessage(source: ada.localParticipant, bytes: [7, 7, 7], arrival: .zero)))

        // A refused token is answered and logged with its reason.
        let forged = try AccessToken(room: "canvas-7", identity: "eve", expiresAt: .max).signed(secret: Array("guess".utf8))
        await #expect(throws: RelayConnectError.self) { _ = try await RelayTransport.connect(host: "127.0.0.1", port: port, token: forged) }
        while !log.value.contains("refused a connection"), ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
        #expect(log.value.contains("refused a connection") && log.value.contains("invalidToken: the signature does not match"))
        #expect(log.value.contains("joined") && log.value.contains("participant=ada") && log.value.contains("room=canvas-7"))

        kill(process.processIdentifier, SIGTERM)
        let stopDeadline = ContinuousClock.now + .seconds(30)
        while process.isRunning, ContinuousClock.now < stopDeadline { try await Task.sleep(for: .milliseconds(20)) }
        try #require(!process.isRunning, "the relay did not stop within 30 s of SIGTERM")
        #expect(process.terminationStatus == 0)
        #expect(output.value.hasSuffix("groupwire relay: stopped\n"))
        #expect(bo.relayError?.code == .shuttingDown)
    }
}
