import ArgumentParser
import Foundation
import GroupWireCapture
import GroupWireTools
import GroupWireToolsCore

/// `groupwire validate INPUT --spec SPEC...`: checks every frame of a capture.
struct ValidateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Check every frame of a capture or frame file against the format and the spec.",
        discussion: """
            INPUT (default, or '-': standard input) is a pcapng or pcap capture (link type \
            147, as GROUPWIRE_CAPTURE writes: Spec/CAPTURE.md), raw frames back to back, a hex \
            dump, or tshark's fields output of a network capture of the relay ('tshark -r \
            relay.pcapng -d tcp.port==8787,http -T fields -e tcp.stream -e data.data', \
            Spec/CAPTURE.md); the format is detected from the first bytes. Every frame is checked: \
            the envelope (Spec/FORMAT.md), fragments reassembled per sender, decompression \
            with the --dictionary files within the limits, each payload decoded against the \
            spec (type known, values valid, nothing trailing), control frames, the delivery \
            sequence of each stream (gaps, repeats), and that frames follow what the \
            captured hellos agreed (codec, dictionary, frame size, readable types). With \
            several --spec files, each sender's messages are read with the spec its hello \
            announced. Each problem is printed with the frame (packet) number, byte offset \
            and reason as it is found, then a summary. The input is read as a stream, so \
            memory stays flat however large it is; on a terminal a progress bar shows how \
            far it got.

            Exit status: 0 when everything is valid, 1 when something is not, 2 for usage \
            errors, an unreadable input, spec or dictionary, or an input that is not a \
            capture or frame file (or a capture of another link type).
            """
    )

    @Argument(help: "The capture or frame file (default, or '-': standard input).")
    var input: String = "-"

    @Option(name: .customLong("spec"), help: "A spec payloads are decoded against (repeatable; at least one).")
    var specs: [String] = []

    @Option(name: .customLong("dictionary"), help: "A zstd dictionary for bodies compressed with one (repeatable).")
    var dictionaries: [String] = []

    @Option(help: "Output: text for people, json (schema groupwire.validate/1) or jsonl (a line per problem, then the summary).")
    var format: ValidateTool.Format = .text

    func validate() throws {
        guard !specs.isEmpty else {
            throw ValidationError("give the spec payloads are decoded against with --spec FILE")
        }
    }

    func run() throws {
        var tool = ValidateTool(input: input, specPaths: specs)
        tool.dictionaryPaths = dictionaries
        tool.format = format
        let bar = ProgressBar(path: input)
        tool.progress = bar.map { bar in { bar.update($0) } }
        let status = tool.run(output: StandardStreams.streaming())
        bar?.finish()
        try StandardStreams.exit(status)
    }
}

extension ValidateTool.Format: ExpressibleByArgument {}

/// A one-line progress bar on standard error, for a regular file read from a terminal
/// session: none when either output is not a terminal (piped or redirected).
final class ProgressBar {
    private let total: Int
    private var last = ContinuousClock.now
    private var shown = false

    init?(path: String) {
        guard path != "-", isatty(1) == 1, isatty(2) == 1 else { return nil }
        var status = stat()
        guard stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG, status.st_size > 0 else { return nil }
        total = Int(status.st_size)
    }

    func update(_ bytes: Int) {
        let now = ContinuousClock.now
        guard now - last >= .milliseconds(200) else { return }
        last = now
        shown = true
        let fraction = min(1, Double(bytes) / Double(total))
        let width = 30
        let filled = Int(fraction * Double(width))
        let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled)
        let text = String(
            format: "\rvalidating [%@] %3d%% %@ of %@", bar, Int(fraction * 100), Self.size(bytes), Self.size(total))
        FileHandle.standardError.write(Data(text.utf8))
    }

    func finish() {
        guard shown else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
    }

    private static func size(_ bytes: Int) -> String {
        if bytes >= 1 << 30 { return String(format: "%.1f GiB", Double(bytes) / Double(1 << 30)) }
        if bytes >= 1 << 20 { return String(format: "%.1f MiB", Double(bytes) / Double(1 << 20)) }
        return String(format: "%.1f KiB", Double(bytes) / 1024)
    }
}
