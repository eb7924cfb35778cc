import ArgumentParser
import GroupWireToolsCore

/// The `groupwire` command-line tool.
@main
struct GroupWireCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "groupwire",
        abstract: "Inspect, encode and decode GroupWire frames; check, compare and generate code from specs.",
        version: GroupWireVersion.current,
        // `groupwire --help` as a map, by job. `participant` is the demo's own process
        // (driven by `demo`), not a daily tool: it runs, but the help does not list it.
        groupedSubcommands: [
            CommandGroup(
                name: "Specs",
                subcommands: [
                    SpecCommand.self, GenerateCommand.self, NegotiateCommand.self, DictCommand.self,
                ]),
            CommandGroup(
                name: "Frames and captures",
                subcommands: [
                    InspectCommand.self, ValidateCommand.self, EncodeCommand.self, DecodeCommand.self, DissectorCommand.self,
                ]),
            CommandGroup(name: "Relay", subcommands: [RelayCommand.self, TokenCommand.self]),
            CommandGroup(name: "Demo", subcommands: [DemoCommand.self, SimulateCommand.self, ParticipantCommand.self]),
        ]
    )

    /// Runs the command line; usage mistakes exit 2 with a `groupwire: error:` line.
    static func main() {
        mainReportingUsageErrors(as: "groupwire")
    }
}
