import Foundation
import GroupWireTestSupport
import GroupWireTools
import Synchronization
import Testing

/// The relay across real processes, as `groupwire demo` runs it: a `groupwire relay`
/// process and four `groupwire participant` processes on loopback. What each participant
/// received is asserted here from its own event lines, not from the demo's checks.
@Suite(.heavy) struct RelayDemoEndToEndTests {
    static var demo: RelayDemo? {
        guard let binary = CLIRunner.binary else { return nil }
        var demo = RelayDemo(executable: binary)
        demo.examples = RepositoryPaths.path("Spec/Examples")
        // 130 suites run at once in CI: each step may take long there.
        demo.stepTimeout = .seconds(90)
        return demo
    }

    @Test func threeParticipantsAKillAndALateJoinerOnAnOlderAndANewerSpec() async throws {
        let demo = try #require(Self.demo)
        let report = try await demo.run()
        let ana = try #require(report.member("ana"))
        let ben = try #require(report.member("ben"))
        let cleo = try #require(report.member("cleo"))
        let dan = try #require(report.member("dan"))
        #expect(Set([ana.id, ben.id, cleo.id, dan.id]).count == 4 && !ana.id.isEmpty)
        #expect([ana.version, ben.version, cleo.version, dan.version] == [3, 3, 1, 3])

        // Strokes in every direction, once each and in order, across spec versions.
        #expect(ana.strokes(from: cleo) == Array(0..<30))
        #expect(cleo.strokes(from: ana) == Array(0..<30))
        #expect(ana.strokes(from: dan) == Array(0..<10) && cleo.strokes(from: dan) == Array(0..<10))
        #expect(dan.strokes(from: ana) == Array(20..<30) && dan.strokes(from: cleo) == Array(20..<30))
        // ben died mid-send: everything of it that arrived is whole, in order, without a gap,
        // and at least the 40 strokes the others had when it was killed.
        for receiver in [ana, cleo] {
            let got = receiver.strokes(from: ben)
            #expect(got == Array(0..<got.count) && got.count >= 40, "\(receiver.name) got \(got.count) of ben's strokes")
        }
        let danFromBen = dan.strokes(from: ben)
        #expect(!danFromBen.isEmpty && danFromBen == Array(danFromBen[0]..<(danFromBen[0] + danFromBen.count)))
        for member in [ana, cleo, dan] {
            #expect(member.events.contains { $0.event == .left && $0.participant == ben.id }, "\(member.name) saw ben leave")
            #expect(!member.events.contains { $0.event == .error || $0.event == .incompatible })
        }
        // The older spec negotiated with every newer peer, and they with it.
        for peer in [ana, ben, dan] {
            #expect(cleo.events.contains { $0.event == .agreed && $0.participant == peer.id && $0.detail == "zstd" })
            #expect(
                peer.events.contains { $0.event == .agreed && $0.participant == cleo.id },
                "\(peer.name): \(peer.events.filter { $0.participant == cleo.id }.map { "\($0.event)" })")
        }

        // The late joiner caught up from a compressed, fragmented snapshot of 200 strokes.
        let snapshot = try #require(dan.events.first { $0.event == .snapshot })
        #expect(snapshot.points == 40_000 && snapshot.compressed == true)
        #expect([ana.id, ben.id, cleo.id].contains(snapshot.participant ?? ""))
        let senderStatistics = try #require(report.members.first { $0.id == snapshot.participant }?.statistics)
        #expect(senderStatistics.fragmentedMessages >= 1 && senderStatistics.fragments >= 2)
        #expect(senderStatistics.compressedBodyBytes < senderStatistics.compressedPayloadBytes)
        #expect(senderStatistics.jsonBytes > senderStatistics.frameBytes)

        // The relay logged the kill as a leave, and everything it started is gone.
        #expect(report.relayLog.contains("participant=ben") && report.relayLog.contains("left"))
        #expect(report.checks.count == 9 && report.holds, "\(report.checks)")
        // Every process captured its traffic, and every captured frame passed validation:
        // the relay saw each participant's hellos, the snapshot compressed in fragments.
        #expect(report.captures.map(\.name) == ["relay", "ana", "ben", "cleo", "dan"])
        for capture in report.captures {
            #expect(capture.summary.problems == 0 && capture.problems.isEmpty, "\(capture.name): \(capture.problems)")
            #expect(capture.summary.frames == capture.summary.validFrames && capture.summary.hellos >= 3, "\(capture.name)")
        }
        let relayCapture = try #require(report.captures.first)
        #expect(
            relayCapture.summary.senders == 4 && relayCapture.summary.fragments > 0 && relayCapture.summary.compressedMessages > 0
        )
        #expect(relayCapture.summary.messagesByType["UpsertStroke"] ?? 0 >= 3 * 20)
        #expect(report.summary.contains("fragments: ") && report.summary.contains("as JSON"))
    }

    /// The README's main command as a user runs it: the binary, its exit status, its summary.
    @Test func groupwireDemoRunsToItsSummaryWithEveryCheckHolding() async throws {
        let binary = try #require(CLIRunner.binary)
        let captures = try RepositoryPaths.temporaryDirectory(prefix: "groupwire-demo-captures")
        defer { try? FileManager.default.removeItem(at: captures) }
        let run = try await ChildProcess.run(binary, ["demo", "--captures", captures.path], timeLimit: .seconds(300))
        #expect(run.status == 0 && !run.timedOut, "exit \(run.status): \(run.errors)")
        let summary = run.outputText
        #expect(summary.contains("participants:") && summary.contains("checks:"), "\(summary)")
        let checks = summary.split(separator: "\n").drop { !$0.hasPrefix("checks:") }.dropFirst()
        #expect(
            summary.contains("captures (each process's frames") && summary.contains("  relay ") && !summary.contains("INVALID"))
        #expect(checks.count == 9 && checks.allSatisfy { $0.hasPrefix("  holds ") }, "\(checks.joined(separator: "\n"))")
        // Each process's capture decodes as a user would decode it: hellos and session
        // control skipped, fragments put together per sender (dan and the relay hear several).
        let v3 = RepositoryPaths.path("Spec/Examples/Versions/DrawTogether-v3.gwspec")
        for name in ["ana", "ben", "cleo", "dan", "relay"] {
            let decoded = try await ChildProcess.run(
                binary, ["decode", "--spec", v3, captures.appendingPathComponent("\(name).pcapng").path])
            #expect(decoded.status == 0 && decoded.errors.isEmpty, "\(name): \(decoded.errors)")
            #expect(decoded.outputText.split(separator: "\n").count > 10, "\(name) decoded \(decoded.outputText.prefix(200))")
        }
    }

    /// `groupwire demo --cluster`: three relay nodes through a nats-server, cleo's node killed
    /// with SIGKILL mid-session; cleo moves to another node and every check still holds.
    @Test(.enabled(if: NATSServerProcess.executable != nil, "nats-server is not installed (make setup installs it)"))
    func theClusterDemoKillsANodeAndEveryCheckStillHolds() async throws {
        let binary = try #require(CLIRunner.binary)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("gw-cluster-demo-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try await ChildProcess.run(
            binary, ["demo", "--cluster", "--captures", folder.path], timeLimit: .seconds(300))
        // What each process said is kept beside its capture: the first thing to read when a check breaks.
        let log = { (name: String) in
            (try? String(contentsOf: folder.appendingPathComponent("\(name).log"), encoding: .utf8)) ?? ""
        }
        #expect(
            run.status == 0 && !run.timedOut, "exit \(run.status): \(run.errors)\n\(["relay-a", "relay-b"].map(log).joined())")
        #expect(log("relay-a").contains("node=a") && log("relay-a").contains("joined the cluster"))
        #expect(log("ana").hasPrefix("{\"event\":\"welcome\",\"identity\":\"ana\""), "\(log("ana").prefix(200))")
        let summary = run.outputText
        #expect(summary.contains("a cluster of 3 relay nodes through nats-server"), "\(summary.prefix(300))")
        let checks = summary.split(separator: "\n").drop { !$0.hasPrefix("checks:") }.dropFirst()
        #expect(checks.count == 10 && checks.allSatisfy { $0.hasPrefix("  holds ") }, "\(checks.joined(separator: "\n"))")
        #expect(checks.contains { $0.contains("cleo came back through another node") })
        #expect(summary.contains("in 4 captures") && !summary.contains("INVALID"))
    }

    /// Seeing cleo go while everyone quits at the end is no leave: the cluster demo's check
    /// reads each participant's events up to its quit, and breaks on one seen before.
    @Test func cleosMoveCheckReadsWhatEachSawBeforeItQuit() throws {
        let ids = ["ana": "a1", "ben": "b2", "cleo": "c3", "dan": "d4"]
        func member(_ name: String, leftBeforeQuit: Bool) throws -> RelayDemo.Member {
            let left = try #require(ParticipantEvent(line: #"{"event":"left","participant":"c3"}"#))
            let welcome = try #require(ParticipantEvent(line: #"{"event":"welcome","participant":"\#(ids[name] ?? "")"}"#))
            return RelayDemo.Member(
                name: name, version: 3, id: ids[name] ?? "", events: [welcome, left], eventsBeforeQuit: leftBeforeQuit ? 2 : 1)
        }
        func check(anaSawItBeforeQuitting: Bool) throws -> Bool? {
            var report = RelayDemo.Report()
            report.moved = true
            report.members = try ["ana", "ben", "cleo", "dan"].map {
                try member($0, leftBeforeQuit: $0 == "ana" && anaSawItBeforeQuitting)
            }
            return RelayDemo.checks(report, strokes: 20).first { $0.0.contains("nobody saw it leave") }?.1
        }
        #expect(try check(anaSawItBeforeQuitting: false) == true)
        #expect(try check(anaSawItBeforeQuitting: true) == false)
    }

    /// `--port` reaches the relay: a port this test holds is named in the demo's error at
    /// once (no step waited out), and a port out of range is a usage error.
    @Test func theRelaysPortIsTheOneAskedForAndATakenOneIsNamed() async throws {
        let binary = try #require(CLIRunner.binary)
        let holder = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        try #require(holder >= 0)
        defer { close(holder) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw in
                bind(holder, raw, length) == 0 && listen(holder, 1) == 0 && getsockname(holder, raw, &length) == 0
            }
        }
        try #require(bound)
        let port = Int(UInt16(bigEndian: address.sin_port))
        let taken = try await ChildProcess.run(
            binary, ["demo", "--examples", RepositoryPaths.path("Spec/Examples"), "--port", String(port)],
            timeLimit: .seconds(120))
        #expect(taken.status == 2 && !taken.timedOut)
        #expect(
            taken.errors.contains("the relay did not start: cannot listen on 127.0.0.1:\(port)")
                && taken.errors.contains("Address already in use"),
            "\(taken.errors)")
        let outOfRange = try await ChildProcess.run(binary, ["demo", "--port", "70000"], timeLimit: .seconds(60))
        #expect(
            outOfRange.status == 2 && outOfRange.errors.contains("--port must be 0...65535, not 70000"), "\(outOfRange.errors)")
    }

    @Test func anInterruptedDemoLeavesNothingRunning() async throws {
        let binary = try #require(CLIRunner.binary)
        // 1,000 strokes 5 ms apart (the most it takes): the first round alone lasts over 5 s, so the interrupt
        // comes while everything runs, however late this test reads the progress lines.
        let demo = try RunningProcess(binary, ["demo", "--examples", RepositoryPaths.path("Spec/Examples"), "--strokes", "1000"])
        // What it started, from its progress lines ("  started NAME (pid N)").
        var children: [Int32] { Self.pids(in: demo.output.value) }
        defer {
            demo.stop()
            for child in children { kill(child, SIGKILL) }
        }
        // The interrupt goes out from the output's own thread the moment two processes are
        // up: a task pool busy with other suites cannot delay it past the demo's end.
        let interrupted = await withCheckedContinuation { continuation in
            Thread {
                continuation.resume(
                    returning: demo.output.waitBlocking(within: .seconds(120), until: { Self.pids(in: $0).count >= 2 }) {
                        demo.signal(SIGINT)
                    })
            }.start()
        }
        try #require(
            interrupted, "the demo started \(children) (exited: \(demo.hasExited)): \(demo.output.value) \(demo.errors.value)")
        let status = try await demo.waitForExit()
        // Its handler kills what it started (exit 130). Should the handler not run, the
        // children still end: the participants and the relay stop when their standard
        // input, the demo's pipe, closes.
        let reason = "\(demo.process.terminationReason) \(status); it said: \(demo.output.value) \(demo.errors.value)"
        #expect(status == 130 || status == SIGINT, "\(reason)")
        try await eventually("every process the demo started to end") { !children.contains(where: Self.isAlive) }
    }

    /// The process ids in the demo's progress lines ("  started NAME (pid N)").
    static func pids(in output: String) -> [Int32] {
        output.split(separator: "\n").compactMap { line in
            guard let open = line.range(of: "(pid ") else { return nil }
            return Int32(line[open.upperBound...].dropLast())
        }
    }

    /// Whether `pid` runs (a zombie waiting to be reaped does not).
    static func isAlive(_ pid: Int32) -> Bool {
        guard kill(pid, 0) == 0, let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) else {
            return false
        }
        return !stat.contains(") Z ")
    }
}
