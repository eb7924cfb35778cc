import GroupWireTestSupport
import GroupWireToolsCore
import Testing

/// `--version` prints the one version in the source; `--help` promises only commands that
/// exist.
@Suite struct VersionAndHelpTests {
    @Test func bothToolsPrintThePackageVersionFromGroupWireVersion() throws {
        #expect(GroupWireVersion.current.split(separator: ".").count == 3)
        let groupwire = try CLIRunner.run(["--version"])
        #expect(groupwire.status == 0)
        #expect(groupwire.outputText == GroupWireVersion.current + "\n")
        let generate = try ChildProcess.run(try #require(RepositoryPaths.builtProduct("groupwire-generate")), ["--version"])
        #expect(generate.outputText == GroupWireVersion.current + "\n")
    }

    @Test func theHelpIsAMapByJobAndEveryCommandItListsHasHelpOfItsOwn() throws {
        let help = try CLIRunner.run(["--help"])
        #expect(help.status == 0)
        // One section per job ("NAME SUBCOMMANDS:"), one indented line per command, its name first.
        var groups: [(name: String, commands: [String])] = []
        for line in help.outputText.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasSuffix(" SUBCOMMANDS:") {
                groups.append((String(line.dropLast(" SUBCOMMANDS:".count)), []))
            } else if !groups.isEmpty, line.hasPrefix("  "), !line.hasPrefix("   "), let name = line.split(separator: " ").first,
                name != "See"
            {
                groups[groups.count - 1].commands.append(String(name))
            }
        }
        #expect(groups.map(\.name) == ["SPECS", "FRAMES AND CAPTURES", "RELAY", "DEMO"])
        #expect(
            groups.map(\.commands) == [
                ["spec", "generate", "negotiate", "dict"], ["inspect", "validate", "encode", "decode", "dissector"],
                ["relay", "token"],
                ["demo", "simulate"],
            ])
        // The demo's own process is not listed, and still runs.
        #expect(!help.outputText.contains("\n  participant "))
        for command in groups.flatMap(\.commands) + ["participant"] {
            let own = try CLIRunner.run([command, "--help"])
            #expect(own.status == 0, "groupwire \(command) --help: \(own.errors)")
            #expect(own.outputText.contains("USAGE: groupwire \(command)"))
        }
    }
}
