import ArgumentParser
import GroupWireTools

/// `groupwire spec check SPEC...`.
struct SpecCheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Compile spec files and print their diagnostics.",
        discussion:
            "Diagnostics go to standard error as file:line:col: severity: message. Exit 0 when no spec has errors, 2 otherwise."
    )

    @Argument(help: "Spec files (.gwspec).")
    var specs: [String]

    func validate() throws {
        guard !specs.isEmpty else { throw ValidationError("give at least one spec file") }
    }

    func run() throws {
        try StandardStreams.finish(SpecCheckTool(paths: specs).run())
    }
}
