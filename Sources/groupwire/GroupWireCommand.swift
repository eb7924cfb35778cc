import ArgumentParser
import GroupWire

/// The `groupwire` command-line tool.
@main
struct GroupWireCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "groupwire",
        abstract: "Encode, inspect and validate GroupWire frames.",
        subcommands: [
            InspectCommand.self, DemoCommand.self, DictCommand.self,
            GenerateCommand.self, SpecCommand.self, EncodeCommand.self, DecodeCommand.self,
        ]
    )
}
