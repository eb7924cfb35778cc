import ArgumentParser
import GroupWireTools

extension NegotiateTool.Format: ExpressibleByArgument {}

/// `groupwire negotiate A B`.
struct NegotiateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "negotiate",
        abstract: "Show what two peers with these specs would agree, per message type.",
        discussion: """
            Builds the hello each peer would send (spec, codecs, default sizes) and the agreement \
            the two make (Spec/FORMAT.md, "The agreement"): envelope version, compression and \
            sizes each way, and per message type whether the other side reads it (same, \
            compatible, unknown, or incompatible with the rule, as `groupwire spec diff` decides). \
            Exit 0 when the peers agree and every type is readable wherever it can be sent, 1 when \
            they are incompatible or some type is unknown or incompatible to a reader, 2 on a usage \
            error or when a spec cannot be read or has errors.
            """
    )

    @Argument(help: "Peer A's spec file.")
    var specA: String

    @Argument(help: "Peer B's spec file.")
    var specB: String

    @Option(help: "Output format: text or json.")
    var format: NegotiateTool.Format = .text

    @Flag(name: .customLong("no-zstd-a"), help: "Peer A has no zstd (announces no codec).")
    var noZstdA = false

    @Flag(name: .customLong("no-zstd-b"), help: "Peer B has no zstd.")
    var noZstdB = false

    func run() throws {
        try StandardStreams.finish(
            NegotiateTool(pathA: specA, pathB: specB, format: format, noZstdA: noZstdA, noZstdB: noZstdB).run())
    }
}
