import Foundation
import GroupWireRelay
import GroupWireSession
import GroupWireTestSupport
import GroupWireTools
import Synchronization
import Testing

@testable import GroupWireNetwork

/// `groupwire relay` as an operator runs it: a real process on a free loopback port, clients
/// with `groupwire token` tokens, and SIGTERM.
@Suite(.heavy) struct RelayCommandEndToEndTests {
    /// A `groupwire relay` process on a free loopback port, with its output and log;
    /// stopped by its process id when the test ends, however it ends.
    final class RelayProcess: Sendable {
        let running: RunningProcess
        let port: Int
        var process: Process { running.process }
        /// What it printed to standard output.
        var output: RunningProcess.Text { running.output }
        /// Its log (standard error).
        var log: RunningProcess.Text { running.errors }

        init(_ arguments: [String]) async throws {
            let binary = try #require(CLIRunner.binary)
            running = try RunningProcess(
                binary, ["relay", "--port", "0"] + arguments, environment: ["GROUPWIRE_RELAY_SECRET": "s3cret"])
            try await running.waitForOutput(containing: "listening on")
            guard let line = running.output.value.split(separator: "\n").first(where: { $0.contains("listening on 127.0.0.1:") }),
                let port = Int(line.split(separator: ":").last ?? "")
            else {
                running.stop()
                throw RelayProcessError(description: "the relay printed no port: \(running.output.value) \(running.errors.value)")
            }
            self.port = port
        }

        /// Kills the process by its id if it still runs.
        func stop() { running.stop() }

        /// Waits until the log contains `text`.
        func waitForLog(_ text: String) async throws {
            try await running.waitForErrors(containing: text)
        }
    }

    struct RelayProcessError: Error, CustomStringConvertible {
        let description: String
    }

    static func token(_ identity: String, room: String = "canvas-7") throws -> String {
        let result = TokenTool(room: room, identity: identity, secret: "s3cret", environment: [:]).run()
        return result.outputText.trimmingCharacters(in: .newlines)
    }

    /// The counter lines of the relay's `/metrics`, by name with labels.
    static func scrape(_ port: Int) async throws -> [String: Double] {
        let answer = try await LoopbackSocket.httpGet(port: port, path: "/metrics")
        try #require(answer.hasPrefix("HTTP/1.1 200"), "\(answer.prefix(200))")
        var samples: [String: Double] = [:]
        for line in answer.split(separator: "\n") where line.hasPrefix("groupwire_relay_") {
            guard let space = line.lastIndex(of: " "),
                let value = Double(line[line.index(after: space)...].trimmingCharacters(in: .whitespaces))
            else { continue }
            samples[String(line[..<space])] = value
        }
        return samples
    }

    @Test func theRelayProcessServesARoomCountsItAndStopsOnSIGTERMDuringTraffic() async throws {
        let relay = try await RelayProcess(["--max-frame", "4096", "--drain-timeout", "2"])
        // Stopped by its process id whatever happens below.
        defer { relay.stop() }
        let output = relay.output
        let log = relay.log
        let port = relay.port

        let ada = try await RelayTransport.connect(host: "127.0.0.1", port: port, token: try Self.token("ada"))
        let bo = try await RelayTransport.connect(host: "127.0.0.1", port: port, token: try Self.token("bo"))
        #expect(bo.welcome.members.map(\.identity) == ["ada"] && bo.welcome.maxFrameSize == 4_096)
        let idle = try await Self.scrape(port)
        #expect(idle["groupwire_relay_participants"] == 2 && idle["groupwire_relay_rooms"] == 1)
        #expect(idle["groupwire_relay_frames_received_total"] == 0 && idle["groupwire_relay_frames_delivered_total"] == 0)
        var events = bo.events.makeAsyncIterator()
        #expect(await events.next() == .joined(ada.localParticipant))
        try await ada.send([7, 7, 7], to: .all)
        let delivered = await events.next()
        #expect(delivered == .message(TransportMessage(source: ada.localParticipant, bytes: [7, 7, 7], arrival: .zero)))

        // A refused token is answered and logged with its reason.
        let forged = try AccessToken(room: "canvas-7", identity: "eve", expiresAt: .max).signed(secret: Array("guess".utf8))
        await #expect(throws: RelayConnectError.self) {
            _ = try await RelayTransport.connect(host: "127.0.0.1", port: port, token: forged)
        }
        try await relay.waitForLog("refused a connection")
        #expect(log.value.contains("refused a connection") && log.value.contains("invalidToken: the signature does not match"))
        #expect(log.value.contains("joined") && log.value.contains("participant=ada") && log.value.contains("room=canvas-7"))
        let counted = try await Self.scrape(port)
        #expect(counted["groupwire_relay_frames_received_total"] == 1 && counted["groupwire_relay_frames_delivered_total"] == 1)
        #expect(counted["groupwire_relay_refusals_total{status=\"401\"}"] == 1)

        // SIGTERM while ada sends (at most 1,000 a second, under the rate limit).
        let sending = Task {
            var sent = 0
            while true {
                do { try await ada.send([UInt8(truncatingIfNeeded: sent)], to: .all) } catch { return sent }
                sent += 1
                // Paces the load on purpose: under the rate limit, so SIGTERM meets traffic, not a cut-off.
                try? await Task.sleep(for: .milliseconds(1))
            }
        }
        try await eventually("50 frames to reach the relay") {
            try await Self.scrape(port)["groupwire_relay_frames_received_total"] ?? 0 >= 50
        }
        relay.running.signal(SIGTERM)
        #expect(try await relay.running.waitForExit() == 0)
        try await eventually("the relay's last line") { output.value.hasSuffix("groupwire relay: stopped\n") }
        #expect(await sending.value >= 50)
        #expect(ada.relayError?.code == .shuttingDown && bo.relayError?.code == .shuttingDown)
        #expect(log.value.contains("shutting down") && log.value.contains("reason=shutdown"))
    }

    @Test func theRelayProcessServesTLSWithTheCertificateItIsGiven() async throws {
        let certificate = try SelfSignedCertificate()
        defer { certificate.remove() }
        let relay = try await RelayProcess(["--tls-certificate", certificate.certificate, "--tls-key", certificate.key])
        defer { relay.stop() }
        let tls = RelayClientTLS(trustRootsFile: certificate.certificate, serverName: "localhost")
        let ada = try await RelayTransport.connect(host: "127.0.0.1", port: relay.port, token: try Self.token("ada"), tls: tls)
        let bo = try await RelayTransport.connect(host: "127.0.0.1", port: relay.port, token: try Self.token("bo"), tls: tls)
        var events = bo.events.makeAsyncIterator()
        #expect(await events.next() == .joined(ada.localParticipant))
        try await ada.send([4, 5, 6], to: .all)
        #expect(
            await events.next() == .message(TransportMessage(source: ada.localParticipant, bytes: [4, 5, 6], arrival: .zero)))
        let plain = try Self.token("plain")
        await #expect(throws: RelayConnectError.self) {
            _ = try await RelayTransport.connect(host: "127.0.0.1", port: relay.port, token: plain)
        }
        try await relay.waitForLog("a connection ended before its upgrade")
        #expect(relay.log.value.contains("tls=true"))
        let failed = relay.log.value.split(separator: "\n").first { $0.contains("a connection ended before its upgrade") }
        #expect(failed?.contains("error=") == true, "the plain client's failed TLS handshake is logged with its error")
        await ada.close()
        await bo.close()

        // A participant process over TLS with the same certificate; without it, no room.
        let binary = try #require(CLIRunner.binary)
        let over = try await ChildProcess.run(
            binary,
            [
                "participant", "--port", String(relay.port), "--token", try Self.token("cy"), "--tls-ca", certificate.certificate,
                "--tls-server-name", "localhost", "--timeout", "1",
            ], input: Array("quit\n".utf8), timeLimit: .seconds(60))
        // Connected; alone in its room it then gives up waiting for a session (--timeout 1).
        #expect(over.outputText.hasPrefix(#"{"event":"welcome""#), "\(over.outputText.prefix(300)) \(over.errors)")
        let doubter = try await ChildProcess.run(
            binary,
            [
                "participant", "--port", String(relay.port), "--token", try Self.token("dee"), "--tls", "--tls-server-name",
                "localhost",
                "--timeout", "20",
            ], input: Array("quit\n".utf8), timeLimit: .seconds(60))
        #expect(doubter.status != 0 && !doubter.outputText.contains(#""event":"welcome""#), "\(doubter.outputText.prefix(300))")
    }

    @Test func theRelayRefusesTLSFilesItCannotUseNamingThem() throws {
        let run = try CLIRunner.run([
            "relay", "--port", "0", "--secret", "s", "--tls-certificate", "/nonexistent/relay.pem", "--tls-key",
            "/nonexistent/relay.key",
        ])
        // Exit 2: it cannot listen.
        #expect(
            run.status == 2 && run.errors.contains("/nonexistent/relay.pem: not a readable PEM certificate chain"),
            "\(run.errors)")
        let half = try CLIRunner.run(["relay", "--secret", "s", "--tls-certificate", "relay.pem"])
        #expect(half.status == 2 && half.errors.contains("--tls-certificate and --tls-key go together"), "\(half.errors)")
    }

    @Test func relayHelpDocumentsEveryLimitTimeoutAndPortWithItsDefault() throws {
        let help = try CLIRunner.run(["relay", "--help"])
        #expect(help.status == 0)
        // Help wraps lines: compare with the whitespace folded.
        let text = help.outputText.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        for (option, defaultValue) in [
            ("--host", "127.0.0.1"), ("--port", "8787"), ("--max-frame", "65536"), ("--max-queued-bytes", "4194304"),
            ("--max-rate", "2000"), ("--burst", "4000"), ("--token-leeway", "0"), ("--metrics-path", "/metrics"),
            ("--drain-timeout", "5.0"), ("--reconnect-grace", "3.0"), ("--handshake-timeout", "5.0"),
            ("--max-connections", "10000"), ("--max-connections-per-address", "256"), ("--idle-timeout", "30.0"),
        ] {
            // The option's own entry: from its name in OPTIONS to the next option.
            let options = try #require(text.range(of: "OPTIONS:").map { text[$0.upperBound...] })
            let start = try #require(options.range(of: " \(option) <"), "\(option) is listed")
            let rest = options[start.upperBound...]
            let entry = rest[..<(rest.range(of: " --")?.lowerBound ?? rest.endIndex)]
            #expect(entry.contains("(default: \(defaultValue))"), "\(option): \(entry)")
        }
        #expect(text.contains("within the drain timeout and a second") && text.contains("GET http://HOST:PORT/metrics"))
    }

    /// Each abuse the issue names, against the real process: refused with the documented
    /// error, logged with its reason, and the room goes on.
    @Test func theRelayProcessRefusesEachAbuseLogsItAndTheRoomGoesOn() async throws {
        let relay = try await RelayProcess(["--max-frame", "1024", "--max-rate", "1", "--burst", "50"])
        defer { relay.stop() }
        let port = relay.port
        let ada = try await RelayTransport.connect(host: "127.0.0.1", port: port, token: try Self.token("ada"))
        let adaEvents = Collected(ada.events)

        // A token signed with another secret, and an expired one: no room, a 401 logged with the reason.
        let foreign = try AccessToken(room: "canvas-7", identity: "eve", expiresAt: .max).signed(
            secret: Array("another relay".utf8))
        let expired = try AccessToken(room: "canvas-7", identity: "old", expiresAt: Int64(Date().timeIntervalSince1970) - 60)
            .signed(secret: Array("s3cret".utf8))
        for (token, reason) in [
            (foreign, "invalidToken: the signature does not match"), (expired, "tokenExpired: the token expired at"),
        ] {
            do throws(RelayConnectError) {
                _ = try await RelayTransport.connect(host: "127.0.0.1", port: port, token: token)
                Issue.record("the relay let in a token it should refuse (\(reason))")
            } catch {
                #expect(error.status == 401 && error.reason.contains(reason), "\(error)")
            }
        }
        try await relay.waitForLog("tokenExpired")
        #expect(relay.log.value.contains("status=401") && relay.log.value.contains("the signature does not match"))
        #expect(relay.log.value.contains("tokenExpired: the token expired"))

        // A token for another room: a room of its own, where canvas-7's frames never go.
        let elsewhere = try await RelayTransport.connect(
            host: "127.0.0.1", port: port, token: try Self.token("mallory", room: "other"))
        let elsewhereEvents = Collected(elsewhere.events)
        #expect(elsewhere.welcome.room == "other" && elsewhere.welcome.members.isEmpty)
        try await elsewhere.send([1, 2, 3], to: .all)

        // A forged source, an oversized frame and a flood: each connection closed with its code.
        var offenders: [(RelayTransport, Collected<TransportEvent>, RelayErrorCode)] = []
        for (identity, message, code) in [
            ("forger", RelayMessage.deliver(from: ada.localParticipant.uuid, frame: [9]).encoded(), RelayErrorCode.malformed),
            ("big", RelayMessage.send(to: nil, frame: Array(repeating: 7, count: 1_025)).encoded(), .frameTooLarge),
        ] {
            let offender = try await RelayTransport.connect(host: "127.0.0.1", port: port, token: try Self.token(identity))
            let events = Collected(offender.events)
            try await offender.sendUnchecked(message)
            offenders.append((offender, events, code))
        }
        let flooder = try await RelayTransport.connect(host: "127.0.0.1", port: port, token: try Self.token("flooder"))
        let flooderEvents = Collected(flooder.events)
        for index in 0..<200 {
            do { try await flooder.send([0xF0, UInt8(index)], to: .all) } catch { break }
        }
        offenders.append((flooder, flooderEvents, .rateLimited))
        for (offender, events, code) in offenders {
            try await eventually("the relay to close \(offender.welcome.you.identity)") { events.isFinished }
            #expect(
                offender.relayError?.code == code, "\(offender.welcome.you.identity): \(String(describing: offender.relayError))")
        }
        try await relay.waitForLog("code=rateLimited")
        for (identity, code) in [("forger", "malformed"), ("big", "frameTooLarge"), ("flooder", "rateLimited")] {
            let line = relay.log.value.split(separator: "\n").first {
                $0.contains("closing the connection") && $0.contains("participant=\(identity)")
            }
            #expect(
                line?.contains("code=\(code)") == true && line?.contains("room=canvas-7") == true, "\(String(describing: line))")
        }

        // The room goes on: a newcomer and ada talk; nothing forged, oversized or foreign reached ada.
        let bo = try await RelayTransport.connect(host: "127.0.0.1", port: port, token: try Self.token("bo"))
        let boEvents = Collected(bo.events)
        try await ada.send([42], to: .all)
        try await eventually("bo to get ada's frame") {
            boEvents.all.contains(.message(TransportMessage(source: ada.localParticipant, bytes: [42], arrival: .zero)))
        }
        // bo's answer reaches ada after everything the relay forwarded to her before: once her
        // collector has it, it has the flood's share too (it may run late on a busy machine).
        try await bo.send([43], to: .all)
        let answer = TransportEvent.message(TransportMessage(source: bo.localParticipant, bytes: [43], arrival: .zero))
        try await eventually("ada to get bo's frame") { adaEvents.all.contains(answer) }
        let reachedAda = adaEvents.all.prefix { $0 != answer }
            .compactMap { event -> TransportMessage? in if case .message(let message) = event { message } else { nil } }
        #expect(
            reachedAda.allSatisfy { $0.bytes.first == 0xF0 && $0.source == flooder.localParticipant },
            "only the flood's first burst reached ada")
        #expect((1...51).contains(reachedAda.count), "\(reachedAda.count) of the flood reached ada")
        #expect(!elsewhereEvents.all.contains { if case .message = $0 { true } else { false } })
        for client in [ada, bo, elsewhere] { await client.close() }
    }

}
