import ArgumentParser

/// `groupwire spec`: check, fingerprint and compare spec files.
struct SpecCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "spec",
        abstract: "Check, fingerprint and compare spec files.",
        subcommands: [SpecCheckCommand.self, SpecFingerprintCommand.self, SpecDiffCommand.self]
    )
}
