import ArgumentParser
import GroupWireTools

extension SpecDiffTool.Format: ExpressibleByArgument {}

/// `groupwire spec diff OLD NEW` or `groupwire spec diff NEW --against REV`.
struct SpecDiffCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diff",
        abstract: "Report whether peers on two versions of a spec can talk.",
        discussion: """
            Compares OLD with NEW, or NEW with its own copy at a git revision (--against). \
            Settings may also come from a file named \(SpecDiffTool.configFileName) in NEW's folder: \
            one per line, 'strict' or 'ignore RULE...' (# starts a comment). \
            Exit 0 when the change is compatible, 1 when it breaks (or, with --strict, warns), \
            2 on a usage error or when a spec cannot be read or has errors.
            """
    )

    @Argument(help: "OLD NEW, or only NEW with --against.")
    var files: [String]

    @Option(
        help: "Compare NEW with the same file at this git revision (e.g. main, HEAD~1); imports are read at the revision too.")
    var against: String?

    @Option(help: "Report format: text, json or github (workflow-command annotations).")
    var format: SpecDiffTool.Format = .text

    @Flag(help: "Fail (exit 1) on warnings too.")
    var strict = false

    @Option(
        name: .customLong("ignore"),
        help: "Leave out changes of this rule (id like GW012 or name like field-renamed); repeatable.")
    var ignoredRules: [String] = []

    func validate() throws {
        let expected = against == nil ? 2 : 1
        guard files.count == expected else {
            throw ValidationError(
                against == nil
                    ? "expected OLD and NEW spec files (or NEW with --against REV)"
                    : "with --against, give only the NEW spec file")
        }
    }

    func run() throws {
        let tool = SpecDiffTool(
            oldPath: against == nil ? files.first : nil, newPath: files[files.count - 1], against: against,
            format: format, strict: strict, ignoredRules: ignoredRules)
        try StandardStreams.finish(tool.run())
    }
}
