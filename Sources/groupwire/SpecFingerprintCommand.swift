import ArgumentParser
import GroupWireTools

extension SpecFingerprintTool.Format: ExpressibleByArgument {}

/// `groupwire spec fingerprint SPEC...`.
struct SpecFingerprintCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fingerprint",
        abstract: "Print the fingerprint of each spec and of each of its messages."
    )

    @Argument(help: "Spec files (.gwspec).")
    var specs: [String]

    @Option(help: "Output format: text or json.")
    var format: SpecFingerprintTool.Format = .text

    func validate() throws {
        guard !specs.isEmpty else { throw ValidationError("give at least one spec file") }
    }

    func run() throws {
        try StandardStreams.finish(SpecFingerprintTool(paths: specs, format: format).run())
    }
}
