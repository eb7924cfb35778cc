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

    @Test func everyCommandTheHelpListsExistsAndHasHelpOfItsOwn() throws {
        let help = try CLIRunner.run(["--help"])
        #expect(help.status == 0)
        // The SUBCOMMANDS section: one indented line per command, its name first.
        let section = try #require(help.outputText.components(separatedBy: "SUBCOMMANDS:").last)
        let commands = section.split(separator: "\n").compactMap { line -> String? in
            guard line.hasPrefix("  "), !line.hasPrefix("   "), let name = line.split(separator: " ").first else { return nil }
            return String(name)
        }.filter { $0 != "See" }
        #expect(Set(commands) == ["inspect", "demo", "simulate", "dict", "generate", "spec", "negotiate", "relay", "token", "participant", "encode", "decode", "validate", "dissector"])
        for command in commands {
            let own = try CLIRunner.run([command, "--help"])
            #expect(own.status == 0, "groupwire \(command) --help: \(own.errors)")
            #expect(own.outputText.contains("USAGE: groupwire \(command)"))
        }
    }
}
