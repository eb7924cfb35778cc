import ArgumentParser
import GroupWireToolsCore

/// The `groupwire` command-line tool.
@main
struct GroupWireCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "groupwire",
        abstract: "Inspect, encode and decode GroupWire frames; check, compare and generate code from specs.",
        version: GroupWireVersion.current,
        subcommands: [
            InspectCommand.self, DemoCommand.self, SimulateCommand.self, DictCommand.self,
            GenerateCommand.self, SpecCommand.self, NegotiateCommand.self, RelayCommand.self, TokenCommand.self, ParticipantCommand.self, EncodeCommand.self, DecodeCommand.self, ValidateCommand.self, DissectorCommand.self,
        ]
    )

    /// Runs the command line; usage mistakes exit 2 with a `groupwire: error:` line.
    static func main() {
        mainReportingUsageErrors(as: "groupwire")
    }
}
