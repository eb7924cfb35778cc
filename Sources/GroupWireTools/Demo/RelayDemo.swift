import Foundation
import GroupWire
import GroupWireCapture
import GroupWireInspection
import GroupWireJSON
import GroupWireRelay
import GroupWireSpec
import Synchronization

/// `groupwire demo`: a relay and four participant processes on loopback, each its own
/// `groupwire` process, then a summary.
///
/// ana, ben and cleo start a DrawTogether session (cleo on the older spec version 1, the
/// others on version 3) and draw; dan joins late and catches up from a compressed,
/// fragmented snapshot; ben is killed with SIGKILL while drawing; the others draw on. The
/// report checks what each received: every stroke of a sender once, in order, without a
/// gap (for ben, up to where it died). Every process captures its traffic
/// (`GROUPWIRE_CAPTURE`, one pcapng file each) and the demo ends by validating the
/// captures as `groupwire validate` does.
package struct RelayDemo: Sendable {
    /// The `groupwire` executable to start the relay and the participants with.
    package var executable: URL
    /// The folder of the example specs: DrawTogether.gwspec (version 1) and
    /// Versions/DrawTogether-v3.gwspec.
    package var examples = "Spec/Examples"
    /// Strokes each participant draws in the first round.
    package var strokes = 20
    /// The relay's port on 127.0.0.1; 0 for a free one.
    package var port = 0
    /// How long any one step may take.
    package var stepTimeout: Duration = .seconds(30)
    /// The folder the captures go to (`relay.pcapng`, `ana.pcapng`, …), with what each
    /// process said (`relay.log`, `ana.log`, …); nil for a temporary folder removed at the end.
    package var captureFolder: String?
    /// Runs the relay as three nodes of a cluster through a nats-server (`groupwire demo
    /// --cluster`, Spec/RELAY.md "Clustering"): ana and dan connect through node a, ben
    /// through b, cleo through c; after dan has caught up, node c is killed with SIGKILL and
    /// cleo moves to another node (every participant then reconnects and sends through the
    /// delivery layer); every check of the one-relay demo still holds, and nobody sees cleo
    /// leave. The nodes' captures hold only what passed through each (a participant that
    /// moved shows from the middle of its streams; node c's is cut by its death): the
    /// participants' captures are the ones validated.
    package var cluster = false
    /// The nats-server for ``cluster``; nil looks in the usual places.
    package var natsServer: URL?
    /// Told of each process as it starts (its name and process id), for the progress the
    /// command prints.
    package var started: @Sendable (_ name: String, _ pid: Int32) -> Void = { _, _ in }

    /// Creates the demo.
    package init(executable: URL) {
        self.executable = executable
    }

    /// One participant: its name, spec version and what it saw.
    package struct Member: Sendable {
        package var name: String
        package var version: UInt64
        package var id: String
        package var events: [ParticipantEvent]
        /// How many of ``events`` it had reported when it was told to quit: those after may
        /// be the others quitting too.
        package var eventsBeforeQuit = 0
        package var statistics: ParticipantStatistics?

        /// A participant: its name, spec version, id and events.
        package init(
            name: String, version: UInt64, id: String, events: [ParticipantEvent], eventsBeforeQuit: Int,
            statistics: ParticipantStatistics? = nil
        ) {
            (self.name, self.version, self.id, self.events) = (name, version, id, events)
            (self.eventsBeforeQuit, self.statistics) = (eventsBeforeQuit, statistics)
        }

        /// The stroke numbers received from `sender`, in arrival order.
        package func strokes(from sender: Member) -> [Int] {
            events.filter { $0.event == .stroke && $0.participant == sender.id }.compactMap(\.index)
        }
    }

    /// What the demo did and found.
    package struct Report: Sendable {
        package var port = 0
        package var members: [Member] = []
        /// Strokes each member sent, by name (ben's as far as it got before it died).
        package var sent: [String: Int] = [:]
        /// dan's snapshot: its sender, points, whether compressed, milliseconds after joining.
        package var snapshot: ParticipantEvent?
        /// Where ben was when it was killed: strokes the others had from it.
        package var killedAfter = 0
        /// The checks and whether each held.
        package var checks: [(String, Bool)] = []
        /// Each capture's file name and what validating it found.
        package var captures: [(name: String, summary: CaptureValidator.Summary, problems: [String])] = []
        /// Where the captures were kept, nil when they were removed.
        package var captureFolder: String?
        /// The folder of the example specs the captures were validated against.
        package var examples = "Spec/Examples"
        /// What the relay logged (its standard error; every node's, in a cluster).
        package var relayLog = ""
        /// The nodes' ports, for a cluster (the first is ``port``).
        package var nodePorts: [Int] = []
        /// The captures the demo validates: every process's but a killed node's.
        package var expectedCaptures = 5
        /// In a cluster: whether cleo came back through another node after its own was killed.
        package var moved: Bool?

        package var holds: Bool { checks.allSatisfy(\.1) }

        package func member(_ name: String) -> Member? { members.first { $0.name == name } }

        /// Nothing yet.
        package init() {}
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Runs the demo; every process it started is stopped before it returns, also on failure.
    /// SIGPIPE is ignored from then on in this process: a participant that is gone (killed,
    /// or quit on its own) has closed its input, and telling it to quit must fail with
    /// EPIPE, not end this process.
    /// - Parameter children: where the started processes are kept, for a signal handler
    ///   that must kill them when the demo is interrupted.
    package func run(children: Children = Children()) async throws -> Report {
        signal(SIGPIPE, SIG_IGN)
        do {
            let report = try await run(children)
            await children.stopAll()
            return report
        } catch {
            await children.stopAll()
            throw error
        }
    }

    /// The processes started so far, for stopping them all (also from a signal handler).
    package final class Children: Sendable {
        private let all = Mutex<[DemoProcess]>([])

        /// None yet.
        package init() {}

        func add(_ process: DemoProcess) { all.withLock { $0.append(process) } }

        /// The process ids of every child started so far.
        package var pids: [Int32] { all.withLock { $0.map(\.pid) } }

        /// Writes what each child said so far to `NAME.log` in `folder`: its output lines (a
        /// participant's events), then the end of its standard error (a relay's log).
        func keepOutput(in folder: URL) {
            for child in all.withLock({ $0 }) {
                let text = child.lines.map { $0 + "\n" }.joined() + child.errorText
                try? Data(text.utf8).write(to: folder.appendingPathComponent("\(child.name).log"))
            }
        }

        /// Kills every child at once (SIGKILL): for an interrupted demo.
        package func killAll() { for child in all.withLock({ $0 }) { child.signal(SIGKILL) } }

        /// Stops participants, then the relay (started first).
        func stopAll() async {
            for child in all.withLock({ $0 }).reversed() { await child.stop() }
        }
    }

    private func run(_ children: Children) async throws -> Report {
        let folder: URL
        if let captureFolder {
            folder = URL(fileURLWithPath: captureFolder)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } else {
            folder = FileManager.default.temporaryDirectory.appendingPathComponent(
                "groupwire-demo-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        }
        defer {
            if captureFolder == nil {
                try? FileManager.default.removeItem(at: folder)
            } else {
                children.keepOutput(in: folder)
            }
        }
        func capture(_ name: String) -> [String: String] {
            [CaptureEnvironment.pathVariable: folder.appendingPathComponent("\(name).pcapng").path]
        }
        var report = Report()
        report.captureFolder = captureFolder
        report.examples = examples
        let secretText = Hex.string((0..<32).map { _ in UInt8.random(in: 0...255) })
        let secret = Array(secretText.utf8)
        /// Starts a relay (a node of the cluster when `node` is given) and waits for its port.
        func startRelay(_ name: String, extra: [String]) async throws -> (DemoProcess, Int) {
            let relay = try DemoProcess(
                name: name, executable: executable,
                arguments: ["relay", "--host", "127.0.0.1", "--port", String(cluster ? 0 : self.port), "--until-stdin-closes"]
                    + extra,
                environment: capture(name).merging([TokenTool.secretVariable: secretText]) { $1 })
            children.add(relay)
            started(name, relay.pid)
            // A relay that cannot listen (its port taken) exits at once: say why, without waiting out the step.
            try await wait("\(name) to listen", [relay]) {
                relay.hasExited || relay.lines.contains { $0.contains("listening on") }
            }
            guard let line = relay.lines.first(where: { $0.contains("listening on") }),
                let listening = Int(line.split(separator: ":").last ?? "")
            else {
                _ = await relay.waitForExit(timeout: .seconds(2))
                let said = relay.errorText.split(separator: "\n").last { $0.contains("error: ") }
                throw Failure(
                    description:
                        "\(name == "relay" ? "the relay" : name) did not start: \(said.map { $0.split(separator: "error: ", maxSplits: 1).last ?? $0 } ?? "it said nothing")"
                )
            }
            return (relay, listening)
        }
        var relays: [DemoProcess] = []
        var ports: [Int] = []
        if cluster {
            guard let nats = natsServer ?? Self.installedNATSServer else {
                throw Failure(description: "no nats-server found (make setup installs it); the cluster demo needs one")
            }
            let server = try DemoProcess(
                name: "nats-server", executable: nats, arguments: ["-a", "127.0.0.1", "-p", "-1"], environment: [:])
            children.add(server)
            started("nats-server", server.pid)
            try await wait("nats-server to listen", [server]) { server.hasExited || server.errorText.contains("Server is ready") }
            let marker = "Listening for client connections on "
            guard let range = server.errorText.range(of: marker),
                let natsPort = Int(
                    server.errorText[range.upperBound...].prefix { !$0.isWhitespace }.split(separator: ":").last ?? "")
            else {
                throw Failure(description: "nats-server did not start: \(server.errorText.suffix(300))")
            }
            for node in ["a", "b", "c"] {
                let (relay, nodePort) = try await startRelay(
                    "relay-\(node)",
                    extra: [
                        "--cluster", "nats://127.0.0.1:\(natsPort)", "--node", node, "--cluster-heartbeat", "0.5",
                        "--cluster-node-timeout", "3", "--reconnect-grace", "10",
                    ])
                relays.append(relay)
                ports.append(nodePort)
            }
            // A node's capture holds only what passed through it: a participant that moved
            // shows there from the middle of its streams. The participants' are whole.
            report.expectedCaptures = 4
        } else {
            let (relay, relayPort) = try await startRelay("relay", extra: [])
            relays = [relay]
            ports = [relayPort]
        }
        let port = ports[0]
        report.port = port
        report.nodePorts = cluster ? ports : []
        // In a cluster: ana and dan on node a, ben on b, cleo on c, each knowing the others.
        let homes = ["ana": 0, "ben": cluster ? 1 : 0, "cleo": cluster ? 2 : 0, "dan": 0]

        func start(_ name: String, version: UInt64, activate: Bool = false) throws -> DemoProcess {
            let token = try AccessToken(room: "canvas", identity: name, expiresAt: Int64(Date().timeIntervalSince1970) + 600)
                .signed(secret: secret)
            let spec = version == 1 ? "\(examples)/DrawTogether.gwspec" : "\(examples)/Versions/DrawTogether-v3.gwspec"
            let home = homes[name] ?? 0
            let others = cluster ? ports.indices.filter { $0 != home }.flatMap { ["--also-port", String(ports[$0])] } : []
            let process = try DemoProcess(
                name: name, executable: executable,
                arguments: ["participant", "--port", String(ports[home]), "--spec", spec] + others
                    + (activate ? ["--activate"] : []),
                environment: capture(name).merging([ParticipantTool.tokenVariable: token]) { $1 })
            children.add(process)
            started(name, process.pid)
            return process
        }
        let ana = try start("ana", version: 3, activate: true)
        let ben = try start("ben", version: 3)
        let cleo = try start("cleo", version: 1)
        let first = [ana, ben, cleo]
        try await wait("ana, ben and cleo to be in the session together", first) { first.allSatisfy { $0.sessionSize == 3 } }
        let ids = first.map { $0.events.first { $0.event == .welcome }?.participant ?? "" }

        for child in first { child.send("draw \(strokes) 5") }
        try await wait("the first strokes to arrive", first) {
            first.allSatisfy { $0.strokeCount == 2 * strokes }
        }

        let dan = try start("dan", version: 3)
        try await wait("dan to catch up", first + [dan]) {
            dan.events.contains { $0.event == .snapshot } && (first + [dan]).allSatisfy { $0.sessionSize == 4 }
        }
        report.snapshot = dan.events.first { $0.event == .snapshot }

        if cluster {
            // cleo's node dies: cleo goes to another node, and keeps its place there.
            relays[2].signal(SIGKILL)
            try await wait("cleo to come back through another node", [ana, cleo, dan]) {
                relays[0...1].contains { relay in
                    relay.errorText.split(separator: "\n").contains { line in
                        line.contains("participant=cleo")
                            && (line.hasSuffix("] resumed") || line.hasSuffix("] replaced an older connection"))
                    }
                }
            }
            report.moved = true
        }

        // ben draws without end; once the others have 20 more of its strokes, it dies mid-send.
        ben.send("statistics")
        ben.send("draw 100000 3")
        let benID = ids[1]
        try await wait("ben's strokes to flow", [ana, cleo, dan]) {
            [ana, cleo, dan].allSatisfy { child in
                child.events.contains { $0.event == .stroke && $0.participant == benID && ($0.index ?? 0) >= strokes + 20 }
            }
        }
        // Each other participant reports its negotiations (with ben too) while ben is still
        // there: once ben has left, a participant whose event stream was behind could no
        // longer say it had agreed with ben.
        let rest = [ana, cleo, dan]
        for child in rest { child.send("statistics") }
        try await wait("the others to report their negotiations", rest) {
            rest.allSatisfy { child in child.events.contains { $0.event == .statistics } }
        }
        ben.signal(SIGKILL)
        report.killedAfter = ana.strokeCount(from: benID)
        try await wait("the others to see ben leave", rest) {
            rest.allSatisfy { child in child.events.contains { $0.event == .left && $0.participant == benID } }
        }
        for child in rest { child.send("draw 10 5") }
        try await wait("the last strokes to arrive", rest) {
            ana.strokeCount(from: ids[2]) == strokes + 10 && cleo.strokeCount(from: ids[0]) == strokes + 10
                && dan.strokeCount(from: ids[0]) == 10 && dan.strokeCount(from: ids[2]) == 10
                && ana.strokeCount(from: dan.id) == 10 && cleo.strokeCount(from: dan.id) == 10
        }
        let eventsBeforeQuit = Dictionary(uniqueKeysWithValues: [ana, ben, cleo, dan].map { ($0.name, $0.events.count) })
        // "quit" first: the end of input alone is not seen while a process started at the
        // same moment holds an inherited copy of the pipe.
        for child in rest {
            child.send("quit")
            child.closeInput()
        }
        for child in rest {
            guard await child.waitForExit(timeout: stepTimeout) else { throw Failure(description: "\(child.name) did not quit") }
        }
        let living = cluster ? Array(relays[0...1]) : relays
        for relay in living { relay.closeInput() }
        for relay in living where await !relay.waitForExit(timeout: .seconds(3)) {
            relay.signal(SIGTERM)
            _ = await relay.waitForExit(timeout: .seconds(10))
        }
        report.relayLog = relays.map(\.errorText).joined(separator: "\n")

        let versions: [String: UInt64] = ["ana": 3, "ben": 3, "cleo": 1, "dan": 3]
        for child in [ana, ben, cleo, dan] {
            let statistics = child.events.last { $0.event == .statistics }?.statistics
            report.members.append(
                Member(
                    name: child.name, version: versions[child.name] ?? 0, id: child.id, events: child.events,
                    eventsBeforeQuit: eventsBeforeQuit[child.name] ?? 0, statistics: statistics))
            report.sent[child.name] = child.events.last { $0.event == .sent }?.count ?? 0
        }
        // ben died before it could say: the most any other received from it.
        report.sent["ben"] = [ana, cleo, dan].map { $0.strokeCount(from: benID) }.max() ?? 0
        report.captures = try validateCaptures(in: folder, names: (cluster ? [] : ["relay"]) + ["ana", "ben", "cleo", "dan"])
        report.checks = Self.checks(report, strokes: strokes)
        return report
    }

    /// The nats-server of Debian (`/usr/sbin`), Homebrew or a local install, if any.
    static var installedNATSServer: URL? {
        ["/usr/sbin/nats-server", "/usr/bin/nats-server", "/usr/local/bin/nats-server", "/opt/homebrew/bin/nats-server"]
            .first { FileManager.default.isExecutableFile(atPath: $0) }.map { URL(fileURLWithPath: $0) }
    }

    /// What must hold of what each received.
    package static func checks(_ report: Report, strokes: Int) -> [(String, Bool)] {
        guard let ana = report.member("ana"), let ben = report.member("ben"), let cleo = report.member("cleo"),
            let dan = report.member("dan")
        else {
            return [("four participants took part", false)]
        }
        var checks: [(String, Bool)] = []
        let all = strokes + 10
        checks.append(
            (
                "ana and cleo got each other's \(all) strokes and dan's 10, once each and in order",
                ana.strokes(from: cleo) == Array(0..<all) && cleo.strokes(from: ana) == Array(0..<all)
                    && ana.strokes(from: dan) == Array(0..<10) && cleo.strokes(from: dan) == Array(0..<10)
            ))
        checks.append(
            (
                "dan got the strokes drawn after it joined, once each and in order",
                dan.strokes(from: ana) == Array(strokes..<all) && dan.strokes(from: cleo) == Array(strokes..<all)
            ))
        let fromBen = [ana, cleo].map { $0.strokes(from: ben) }
        checks.append(
            (
                "ben's strokes reached ana and cleo in order without a gap up to its death (\(fromBen.map { "\($0.count)" }.joined(separator: " and ")))",
                fromBen.allSatisfy { $0 == Array(0..<$0.count) && $0.count >= strokes + 20 }
            ))
        let danFromBen = dan.strokes(from: ben)
        checks.append(
            (
                "dan got ben's strokes from its join on, in order without a gap",
                danFromBen.first.map { danFromBen == Array($0..<($0 + danFromBen.count)) } ?? false
            ))
        checks.append(
            (
                "ana, cleo and dan saw ben leave",
                [ana, cleo, dan].allSatisfy { member in member.events.contains { $0.event == .left && $0.participant == ben.id } }
            ))
        checks.append(
            (
                "cleo (version 1) agreed with each version 3 participant",
                [ana, ben, dan].allSatisfy { peer in cleo.events.contains { $0.event == .agreed && $0.participant == peer.id } }
            ))
        if let snapshot = report.snapshot {
            checks.append(
                (
                    "dan loaded a compressed snapshot of \(snapshot.points ?? 0) points",
                    snapshot.compressed == true && (snapshot.points ?? 0) > 0
                ))
        } else {
            checks.append(("dan loaded a snapshot", false))
        }
        checks.append(
            (
                "nothing was rejected or failed",
                report.members.allSatisfy { member in !member.events.contains { $0.event == .error || $0.event == .incompatible }
                }
            ))
        if let moved = report.moved {
            checks.append(
                (
                    "cleo's relay node was killed; cleo came back through another node and nobody saw it leave",
                    // Until they were told to quit: then each sees the others go.
                    moved
                        && [ana, dan].allSatisfy { member in
                            !member.events.prefix(member.eventsBeforeQuit).contains {
                                $0.event == .left && $0.participant == cleo.id
                            }
                        }
                ))
        }
        let frames = report.captures.reduce(0) { $0 + $1.summary.frames }
        checks.append(
            (
                "every captured frame is valid (\(frames) frames in \(report.captures.count) captures, as groupwire validate checks them)",
                report.captures.count == report.expectedCaptures && frames > 0
                    && report.captures.allSatisfy { $0.summary.problems == 0 && $0.summary.frames > 0 }
            ))
        return checks
    }

    /// Validates each process's capture against both DrawTogether versions, as
    /// `groupwire validate NAME.pcapng --spec …v3 --spec …v1` does.
    private func validateCaptures(in folder: URL, names: [String]) throws -> [(
        name: String, summary: CaptureValidator.Summary, problems: [String]
    )] {
        var specs: [SpecSet] = []
        for path in ["\(examples)/Versions/DrawTogether-v3.gwspec", "\(examples)/DrawTogether.gwspec"] {
            do throws(ToolFailure) {
                specs.append(try SpecLoading.load(path).spec)
            } catch {
                throw Failure(description: "cannot load \(path) to validate the captures: \(error.result.messages)")
            }
        }
        var results: [(name: String, summary: CaptureValidator.Summary, problems: [String])] = []
        for name in names {
            let path = folder.appendingPathComponent("\(name).pcapng").path
            var validator = CaptureValidator(specs: specs)
            var problems: [String] = []
            do throws(FrameFileError) {
                let stream = try FrameFileStream(path: path)
                try validator.check(contentsOf: stream) { problems.append($0.diagnostic(path: "\(name).pcapng")) }
            } catch {
                problems += validator.check(inputError: error).map { $0.diagnostic(path: "\(name).pcapng") }
            }
            problems += validator.finish().map { $0.diagnostic(path: "\(name).pcapng") }
            results.append((name, validator.summary, problems))
        }
        return results
    }

    /// Waits until `condition` holds, at most ``stepTimeout``; a timeout names the step and
    /// what the involved processes said on standard error.
    private func wait(_ step: String, _ involved: [DemoProcess], until condition: () -> Bool) async throws {
        let deadline = ContinuousClock.now + stepTimeout
        while !condition() {
            guard ContinuousClock.now < deadline else {
                let said = involved.map { child in
                    "\(child.name): \(child.events.last { $0.event == .error }?.detail ?? child.errorText.suffix(400).description) [last said: \(child.lines.suffix(3).joined(separator: " "))]"
                }
                throw Failure(description: "gave up waiting for \(step) after \(stepTimeout) (\(said.joined(separator: "; ")))")
            }
            try await Task.sleep(for: .milliseconds(20))
        }
    }
}

extension DemoProcess {
    /// The participant's id, from its welcome.
    var id: String { events.first { $0.event == .welcome }?.participant ?? "" }
    /// The size of its session, as last reported.
    var sessionSize: Int { events.last { $0.event == .session }?.count ?? 0 }
    /// Strokes received so far.
    var strokeCount: Int { events.count(where: { $0.event == .stroke }) }

    /// How many strokes it received from `sender`.
    func strokeCount(from sender: String) -> Int { events.count(where: { $0.event == .stroke && $0.participant == sender }) }
}

extension RelayDemo.Report {
    /// The summary `groupwire demo` prints.
    package var summary: String {
        let where_ =
            nodePorts.isEmpty
            ? "a relay on 127.0.0.1:\(port)"
            : "a cluster of \(nodePorts.count) relay nodes through nats-server (a, b, c on 127.0.0.1:"
                + nodePorts.map(String.init).joined(separator: ", ") + ")"
        var lines = [
            "GroupWire demo: \(where_) and \(members.count) participant processes in room \"canvas\"", "",
        ]
        lines.append("participants:")
        for member in members {
            let role =
                switch member.name {
                case "ana": "started the session"
                case "ben": "killed with SIGKILL while drawing"
                case "cleo": "older app version"
                default: "joined late"
                }
            lines.append(
                "  \(member.name.padding(toLength: 5, withPad: " ", startingAt: 0)) DrawTogether version \(member.version), \(role), sent \(sent[member.name] ?? 0) strokes"
            )
        }
        lines.append("")
        lines.append("what happened:")
        lines.append("  ana, ben and cleo joined the session; cleo (version 1) negotiated with the version 3 participants")
        if let snapshot {
            let from = members.first { $0.id == snapshot.participant }?.name ?? "?"
            lines.append(
                "  dan joined late and loaded \(from)'s canvas, \(snapshot.points ?? 0) points, \(snapshot.compressed == true ? "compressed" : "uncompressed"), "
                    + "\(String(format: "%.0f", snapshot.milliseconds ?? 0)) ms after joining the session")
        }
        if moved != nil {
            lines.append(
                "  cleo's relay node (c) was killed with SIGKILL; cleo came back through another node within its grace, and nobody saw it leave"
            )
        }
        lines.append("  ben was killed with SIGKILL \(killedAfter) strokes into its drawing; the others saw it leave and drew on")
        lines.append("")
        let counted = members.compactMap(\.statistics).reduce(ParticipantStatistics(), +)
        lines.append("traffic (counted frame by frame as each participant sent it; ben's up to its last report before the kill):")
        lines.append("  app messages: \(counted.messages) in \(counted.frames) frames, \(counted.frameBytes) bytes")
        let ratio = counted.jsonBytes > 0 ? Double(counted.frameBytes) / Double(counted.jsonBytes) : 0
        lines.append(
            "  the same messages as JSON: \(counted.jsonBytes) bytes (GroupWire is \(String(format: "%.1f", ratio * 100))% of that)"
        )
        if counted.compressedPayloadBytes > 0 {
            lines.append(
                "  compressed messages: \(counted.compressedPayloadBytes) bytes of payload became \(counted.compressedBodyBytes) "
                    + "(ratio \(String(format: "%.2f", Double(counted.compressedPayloadBytes) / Double(max(counted.compressedBodyBytes, 1)))))"
            )
        }
        lines.append(
            "  fragments: \(counted.fragmentedMessages) messages over the relay's frame size went in \(counted.fragments) fragment frames"
        )
        lines.append("  control (hellos, session control): \(counted.controlFrames) frames, \(counted.controlBytes) bytes")
        lines.append("  to the relay in all (routing headers included): \(counted.relayBytesSent) bytes")
        lines.append("")
        lines.append("captures (each process's frames, GROUPWIRE_CAPTURE; validated against DrawTogether versions 3 and 1):")
        for capture in captures {
            let summary = capture.summary
            lines.append(
                "  \(capture.name.padding(toLength: 5, withPad: " ", startingAt: 0)) \(summary.frames) frames, \(summary.messages) messages "
                    + "(\(summary.compressedMessages) compressed), \(summary.fragments) fragments, \(summary.controlFrames) control frames: "
                    + (summary.problems == 0 ? "valid" : "INVALID, \(summary.problems) problems"))
            for problem in capture.problems.prefix(5) { lines.append("    \(problem)") }
        }
        if let captureFolder {
            lines.append(
                "  kept in \(captureFolder): groupwire validate \(captureFolder)/ana.pcapng --spec \(examples)/Versions/DrawTogether-v3.gwspec --spec \(examples)/DrawTogether.gwspec"
            )
        }
        lines.append("")
        lines.append("checks:")
        for (check, holds) in checks { lines.append("  \(holds ? "holds " : "BROKEN") \(check)") }
        return lines.joined(separator: "\n") + "\n"
    }
}
