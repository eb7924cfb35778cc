import Foundation
import GroupWireTestSupport
import Testing

/// scripts/setup.sh on each system it knows, run with a PATH of fake tools (`uname`,
/// `brew`, `dpkg`, `apt-get`, …) that record their calls, so the macOS branches are
/// exercised on Linux. What the fakes cannot show: that real Homebrew's `zstd` formula
/// gives SwiftPM a usable `libzstd.pc` on a real Mac.
@Suite(.heavy) struct SetupScriptTests {
    /// A folder of fake tools: each appends `NAME ARGS` to `calls.log` and exits with the
    /// status given for it (0 when not given); `uname` prints the system, `id` a user's id
    /// (1000, not root) and both are not logged.
    struct FakeTools {
        let folder: URL

        init(system: String, exits: [String: Int32], tools: [String]) throws {
            folder = try RepositoryPaths.temporaryDirectory(prefix: "groupwire-setup")
            let log = folder.appendingPathComponent("calls.log").path
            var scripts = ["uname": "echo \(system)", "id": "echo 1000"]
            for tool in tools where tool != "id" {
                scripts[tool] = "echo \"\(tool) $*\" >> '\(log)'; exit \(exits[tool] ?? 0)"
            }
            for (name, body) in scripts {
                let url = folder.appendingPathComponent(name)
                try Data("#!/bin/sh\n\(body)\n".utf8).write(to: url)
                try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: url.path)
            }
        }

        /// Runs the script with only the fakes on PATH.
        func runSetup() throws -> (run: ChildProcess.Run, calls: [String]) {
            let run = try ChildProcess.run(
                URL(fileURLWithPath: "/bin/bash"), [RepositoryPaths.path("scripts/setup.sh")],
                environment: ["PATH": folder.path], timeLimit: .seconds(120))
            let log = (try? String(contentsOf: folder.appendingPathComponent("calls.log"), encoding: .utf8)) ?? ""
            return (run, log.split(separator: "\n").map(String.init))
        }

        func remove() {
            try? FileManager.default.removeItem(at: folder)
        }
    }

    @Test func onMacOSWithHomebrewMissingFormulasAreInstalledWithBrew() throws {
        let fakes = try FakeTools(system: "Darwin", exits: ["brew": 1], tools: ["brew"])
        defer { fakes.remove() }
        let (run, calls) = try fakes.runSetup()
        // `brew list` fails for every formula, and so (a fake) does `brew install`.
        #expect(
            calls == [
                "brew list --formula zstd", "brew list --formula pkg-config", "brew list --formula nats-server",
                "brew install zstd pkg-config nats-server",
            ])
        #expect(run.status == 1)
        #expect(run.outputText.contains("setup: installing zstd pkg-config nats-server with Homebrew"))
    }

    @Test func onMacOSWithHomebrewAndEverythingInstalledNothingIsInstalled() throws {
        let fakes = try FakeTools(system: "Darwin", exits: [:], tools: ["brew", "tshark"])
        defer { fakes.remove() }
        let (run, calls) = try fakes.runSetup()
        #expect(run.status == 0, "\(run.errors)")
        #expect(calls == ["brew list --formula zstd", "brew list --formula pkg-config", "brew list --formula nats-server"])
        #expect(run.outputText.isEmpty)
    }

    @Test func onMacOSWithHomebrewWithoutTsharkTheDissectorTestsAreSaidToBeSkipped() throws {
        let fakes = try FakeTools(system: "Darwin", exits: [:], tools: ["brew"])
        defer { fakes.remove() }
        let (run, _) = try fakes.runSetup()
        #expect(run.status == 0)
        #expect(run.outputText.contains("tshark not found"))
        #expect(run.outputText.contains("brew install --cask wireshark"))
    }

    @Test func onMacOSWithoutHomebrewItSaysExactlyWhatToInstallAndStops() throws {
        let fakes = try FakeTools(system: "Darwin", exits: [:], tools: [])
        defer { fakes.remove() }
        let (run, calls) = try fakes.runSetup()
        #expect(run.status == 1)
        #expect(calls.isEmpty)
        #expect(run.errors.contains("GroupWire needs pkg-config zstd nats-server"))
        #expect(run.errors.contains("run: brew install zstd pkg-config nats-server"))
        #expect(run.errors.contains("sudo port install zstd pkgconfig nats-server"))
    }

    @Test func onMacOSWithoutHomebrewButWithZstdPkgConfigAndNATSItSucceedsQuietly() throws {
        let fakes = try FakeTools(system: "Darwin", exits: [:], tools: ["zstd", "pkg-config", "nats-server"])
        defer { fakes.remove() }
        let (run, calls) = try fakes.runSetup()
        #expect(run.status == 0, "\(run.errors)")
        #expect(calls == ["pkg-config --exists libzstd"])
    }

    @Test func onDebianMissingPackagesAreInstalledWithAptGet() throws {
        // dpkg -s fails: every package is missing; the user is not root, so sudo is used.
        let fakes = try FakeTools(system: "Linux", exits: ["dpkg": 1], tools: ["dpkg", "apt-get", "sudo"])
        defer { fakes.remove() }
        let (run, calls) = try fakes.runSetup()
        #expect(
            calls.filter { $0.hasPrefix("dpkg") } == [
                "dpkg -s libzstd-dev", "dpkg -s zstd", "dpkg -s pkg-config", "dpkg -s openssl", "dpkg -s tshark",
                "dpkg -s nats-server",
            ])
        #expect(calls.contains("sudo apt-get update -qq"))
        #expect(calls.contains("sudo apt-get install -y -qq libzstd-dev zstd pkg-config openssl tshark nats-server"))
        #expect(run.outputText.contains("setup: installing libzstd-dev zstd pkg-config openssl tshark nats-server"))
    }

    @Test func onDebianWithEverythingInstalledNothingRuns() throws {
        let fakes = try FakeTools(system: "Linux", exits: [:], tools: ["dpkg", "apt-get"])
        defer { fakes.remove() }
        let (run, calls) = try fakes.runSetup()
        #expect(run.status == 0)
        #expect(
            calls == [
                "dpkg -s libzstd-dev", "dpkg -s zstd", "dpkg -s pkg-config", "dpkg -s openssl", "dpkg -s tshark",
                "dpkg -s nats-server",
            ])
    }

    @Test func onAnUnknownSystemItNamesWhatToInstall() throws {
        let fakes = try FakeTools(system: "FreeBSD", exits: [:], tools: ["pkg"])
        defer { fakes.remove() }
        let (run, calls) = try fakes.runSetup()
        #expect(run.status == 1)
        #expect(calls.isEmpty)
        #expect(run.errors.contains("FreeBSD is not supported by this script; install libzstd"))
    }
}
