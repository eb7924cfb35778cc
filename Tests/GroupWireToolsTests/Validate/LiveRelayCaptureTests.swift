import Foundation
import GroupWire
import GroupWireCompression
import GroupWireExamples
import GroupWireJSON
import GroupWireNegotiation
import GroupWireNetwork
import GroupWireSession
import GroupWireSpec
import GroupWireTestSupport
import GroupWireTools
import Synchronization
import Testing

/// A live loopback capture of the relay (`tshark -i lo -f 'tcp port N'`) while two
/// messengers negotiate and trade strokes and a compressed, fragmented snapshot through a
/// `groupwire relay` process: read back by the generated dissector, and validated from
/// tshark's fields output (with and without the TCP stream column) as the README's recipe
/// says.
@Suite(.enabled(if: tsharkPath != nil && geteuid() == 0, "needs tshark and the right to capture on lo (root)"), .heavy)
struct LiveRelayCaptureTests {
    static let v1 = RepositoryPaths.root.appendingPathComponent("Spec/Examples/DrawTogether.gwspec").path

    /// tshark capturing on lo, stopped by its process id. It prints a line per packet as it
    /// captures it (`-P -l`), so a test can wait until a packet it sent last has been seen.
    final class Capture: Sendable {
        let tshark: RunningProcess
        let path: String

        init(port: Int, path: String) async throws {
            // Through env: this test process may ignore SIGTERM (tests of the relay's signal
            // handling run in it), and an ignored signal stays ignored across exec.
            tshark = try RunningProcess(
                URL(fileURLWithPath: "/usr/bin/env"),
                [
                    "--default-signal=TERM,INT", tsharkPath ?? "tshark", "-i", "lo", "-f", "tcp port \(port)", "-w", path, "-q",
                    "-P", "-l",
                    "-d", "tcp.port==\(port),http",
                ])
            self.path = path
            try await tshark.waitForErrors(containing: "Capture started")
        }

        /// Sends a plain HTTP request with a path of its own to the relay's port and waits
        /// until tshark has captured it: then it has every packet sent before it too.
        func mark(port: Int) async throws {
            let marker = "/groupwire-capture-marker-\(UInt32.random(in: 0...UInt32.max))"
            _ = try await LoopbackSocket.httpGet(port: port, path: marker)
            try await tshark.waitForOutput(containing: "GET \(marker)")
        }

        /// Stops the capture (SIGTERM, which tshark handles by finishing the file) and waits
        /// for tshark to exit.
        func stop() async throws {
            tshark.signal(SIGTERM)
            _ = try await tshark.waitForExit()
        }
    }

    @Test func aLiveCaptureOfTheRelayIsDissectedAndValidated() async throws {
        let folder = try RepositoryPaths.temporaryDirectory(prefix: "groupwire-live")
        defer { try? FileManager.default.removeItem(at: folder) }
        let relay = try await RelayCommandEndToEndTests.RelayProcess([])
        defer { relay.stop() }
        let capture = try await Capture(port: relay.port, path: folder.appendingPathComponent("relay.pcapng").path)
        defer { capture.tshark.stop() }

        let schema = try HelloSchema(spec: try SpecLoading.load(Self.v1).spec)
        func join(_ name: String) async throws -> (RelayTransport, Messenger) {
            let transport = try await RelayTransport.connect(
                host: "127.0.0.1", port: relay.port, token: try RelayCommandEndToEndTests.token(name))
            let messenger = Messenger(
                transport: transport,
                configuration: MessengerConfiguration(
                    codec: try PayloadCompressor(), negotiation: NegotiationSettings(schema: schema)))
            return (transport, messenger)
        }
        let (anaTransport, ana) = try await join("ana")
        let (benTransport, ben) = try await join("ben")
        try await eventually("ana and ben to agree") {
            if case .agreed? = ana.negotiationState(of: benTransport.localParticipant),
                case .agreed? = ben.negotiationState(of: anaTransport.localParticipant)
            {
                return true
            }
            return false
        }
        let strokes = try ben.messages(of: UpsertStroke.self)
        let snapshots = try ben.messages(of: CanvasSnapshot.self)
        let ids = (0..<20).map { UUID(uuidString: String(format: "00000000-0000-4000-8000-%012d", $0))! }
        for (index, id) in ids.enumerated() {
            try await ana.send(UpsertStroke(id: id, color: .blue, point: Point(x: Double(index), y: 2)))
        }
        var random = UInt64(11)
        func next() -> Double {
            random = random &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(random >> 11) / 1e6
        }
        let big = CanvasSnapshot(
            strokes: (0..<60).map { index in
                Stroke(id: UUID(), color: .red, points: (0..<200).map { _ in Point(x: next(), y: next()) })
            }, pointCount: 12_000)
        try await ana.send(big)
        var received = 0
        for await _ in strokes {
            received += 1
            if received == 20 { break }
        }
        var snapshotIterator = snapshots.makeAsyncIterator()
        #expect(await snapshotIterator.next()?.message == big)
        await anaTransport.close()
        await benTransport.close()
        try await capture.mark(port: relay.port)
        try await capture.stop()

        let tshark = URL(fileURLWithPath: tsharkPath ?? "tshark")
        let decodeAs = ["-d", "tcp.port==\(relay.port),http"]
        // The dissector: every stroke ana sent, and its delivery to ben, by id.
        let lua = try DissectorTsharkTests.dissector(["Spec/Examples/DrawTogether.gwspec"], in: folder)
        let dissected = try await ChildProcess.run(
            tshark,
            [
                "-X", "lua_script:\(lua)", "-r", capture.path, "-o", "groupwire_relay.port:\(relay.port)", "-T", "fields",
                "-E", "separator=/t", "-E", "occurrence=a", "-E", "aggregator=;", "-e", "groupwire_relay.type", "-e",
                "groupwire.type",
                "-e", "groupwire.UpsertStroke.id", "-e", "groupwire.control",
            ] + decodeAs, timeLimit: .seconds(120))
        #expect(dissected.status == 0 && !dissected.errors.contains("Lua"), "\(dissected.errors)")
        let rows = dissected.outputText.split(separator: "\n").map {
            $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
        }
        // One row per TCP segment; a segment may hold several messages (values joined by ';').
        func strokeIDs(_ types: [String]) -> [String] {
            rows.filter { row in row.count == 4 && types.contains { row[0].contains($0) } }
                .flatMap { row in row[2].split(separator: ";").map { $0.uppercased() } }
        }
        #expect(strokeIDs(["0x02"]) == ids.map(\.uuidString), "delivered to ben: \(rows.prefix(40))")
        #expect(strokeIDs(["0x01", "0x03"]) == ids.map(\.uuidString), "sent by ana")
        #expect(rows.filter { $0.count == 4 && $0[3].contains("hello") }.count >= 2, "each hello, sent and delivered")

        // tshark's fields output, with and without the stream column, validates.
        for columns in [["-e", "tcp.stream", "-e", "data.data"], ["-e", "data.data"]] {
            let run = try await ChildProcess.run(
                tshark, ["-r", capture.path] + decodeAs + ["-T", "fields"] + columns, timeLimit: .seconds(120))
            #expect(run.status == 0, "\(run.errors)")
            let fields = folder.appendingPathComponent("fields.txt")
            try Data(run.output).write(to: fields)
            var tool = ValidateTool(input: fields.path, specPaths: [Self.v1])
            tool.format = .jsonl
            let result = tool.run()
            #expect(result.status == .ok, "\(columns): \(result.outputText) \(result.messages)")
            guard
                case .object(let summary)? = result.outputText.split(separator: "\n").last.flatMap({
                    try? JSONParser().parse(Array($0.utf8))
                })
            else {
                Issue.record("a summary line: \(result.outputText)")
                continue
            }
            #expect(summary["messages"] == .number(JSONNumber(Int64(21))), "\(columns): \(summary)")
            #expect(summary["compressedMessages"] == .number(JSONNumber(Int64(1))))
            #expect(
                (summary["fragments"].flatMap { if case .number(let n) = $0 { return n.int64 } else { return nil } } ?? 0) > 1)
            // Each received the other's hello; negotiation may say hello again (a peer that
            // joins while a hello is on its way gets a second), so at least two.
            let hellos =
                summary["hellos"].flatMap { if case .number(let n) = $0 { return n.int64 } else { return nil } } ?? Int64(0)
            #expect(hellos >= 2, "each received the other's hello: \(hellos)")
        }
    }
}
