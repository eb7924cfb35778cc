import ArgumentParser
import GroupWire

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The `groupwire` command-line tool.
@main
struct GroupWireCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "groupwire",
        abstract: "Encode, inspect and validate GroupWire frames.",
        subcommands: [GenerateCommand.self, SpecCommand.self, EncodeCommand.self, DecodeCommand.self]
    )

    /// Runs the tool with the team's exit codes: usage errors exit 2 (ArgumentParser's own
    /// default is 64) and print `groupwire: error: …`; commands exit with their own status.
    static func main() {
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch {
            guard exitCode(for: error) != .success, !(error is ExitCode) else { exit(withError: error) }
            var message = fullMessage(for: error)
            if message.hasPrefix("Error: ") { message.removeFirst("Error: ".count) }
            ToolOutput.standardError("groupwire: error: \(message)\n")
            terminate(2)
        }
    }
}

/// Ends the process; `exit` inside a command type means ArgumentParser's `exit(withError:)`.
private func terminate(_ code: Int32) -> Never {
    exit(code)
}
