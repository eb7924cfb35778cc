import Foundation
import GroupWire
import GroupWireCapture
import GroupWireCompression
import GroupWireInspection
import GroupWireJSON
import GroupWireSpec

/// `groupwire validate INPUT --spec SPEC...`: every check of ``CaptureValidator`` over a
/// capture or frame file, each problem reported as it is found, then a summary.
package struct ValidateTool {
    /// How the report is printed.
    package enum Format: String, Sendable, CaseIterable {
        /// Compiler-style problem lines, then a summary, for people.
        case text
        /// One JSON object (schema `groupwire.validate/1`), its problems written as found.
        case json
        /// One JSON object a line: each problem, then the summary.
        case jsonl
    }

    package var input: String
    package var specPaths: [String]
    package var dictionaryPaths: [String] = []
    package var format: Format = .text
    package var inputFormat: FrameFileFormat?
    package var limits: Limits = .default
    /// Called with the bytes read so far before each read of the input, for a progress bar.
    package var progress: ((Int) -> Void)?

    package init(input: String, specPaths: [String]) {
        self.input = input
        self.specPaths = specPaths
    }

    /// Runs and collects what it prints.
    package func run() -> ToolResult {
        ToolOutput.collecting { output in run(output: output) }
    }

    /// Runs, printing each problem as it is found.
    /// - Returns: ``ToolStatus/ok`` when every frame is valid, ``ToolStatus/invalidInput``
    ///   when something is not, ``ToolStatus/failure`` for a spec, dictionary or input
    ///   that cannot be read or is not a capture or frame file at all.
    package func run(output: ToolOutput) -> ToolStatus {
        let specs: [SpecSet]
        let dictionaries: DictionaryStore
        do throws(ToolFailure) {
            (specs, dictionaries) = try Self.load(specPaths: specPaths, dictionaryPaths: dictionaryPaths, output: output)
        } catch {
            output.message(error.result.messages)
            return error.result.status
        }
        let stream: FrameFileStream
        do throws(FrameFileError) {
            stream = try FrameFileStream.reading(input, format: inputFormat, limits: limits)
        } catch {
            output.message(InspectTool.diagnostic(error))
            return .failure
        }
        if stream.prefix.isEmpty {
            output.message(ToolResult.errorLine("\(stream.path): is empty: not a capture or frame file"))
            return .failure
        }
        // Raw input that does not start with a frame is read as the stream reader reads it:
        // what comes before the first confirmed frame is reported as junk. Only input in
        // which no frame is found at all is not a frame file.
        let startsWithoutFrame = inputFormat == nil && stream.format == .raw && stream.prefix.first != 0xC7
        let start = Hex.string(stream.prefix.prefix(8), separator: " ")
        func notAFrameFile(_ what: String) -> ToolStatus {
            output.flush()
            output.message(
                ToolResult.errorLine(
                    "\(stream.path): \(what): not a capture or frame file: expected pcapng (starting 0a 0d 0d 0a), pcap (a1 b2 c3 d4 or "
                        + "a1 b2 3c 4d, either byte order), raw frames (starting c7 01) or a hex dump; it starts \(start)"))
            return .failure
        }
        stream.willRead = { [weak stream, progress] in
            guard let stream else { return }
            output.flush()
            progress?(stream.byteCount)
        }
        var validator = CaptureValidator(specs: specs, dictionaries: dictionaries, limits: limits)
        var renderer = ValidationRenderer(path: stream.path, format: format, inputFormat: stream.format)
        output.write(renderer.start())
        do throws(FrameFileError) {
            try validator.check(contentsOf: stream) { output.write(renderer.render($0)) }
        } catch {
            if error.kind == .unknownLinkType || validator.summary.frames == 0 && error.kind != .badCapture {
                output.flush()
                output.message(InspectTool.diagnostic(error))
                return .failure
            }
            for problem in validator.check(inputError: error) { output.write(renderer.render(problem)) }
        }
        if startsWithoutFrame, validator.summary.validFrames == 0 {
            return notAFrameFile("no frame found in \(stream.byteCount) bytes")
        }
        if stream.format == .hex, validator.summary.frames == 0, validator.summary.problems == 0 {
            return notAFrameFile("a hex dump of no bytes")
        }
        for problem in validator.finish() { output.write(renderer.render(problem)) }
        output.write(renderer.end(validator.summary, byteCount: stream.byteCount))
        return validator.summary.problems == 0 ? .ok : .invalidInput
    }
}

extension ValidateTool {
    /// The specs and dictionaries captures are read with (`validate`, `inspect --format
    /// jsonl`); the specs' warnings go to `output`.
    /// - Throws: ``ToolFailure`` for a spec or dictionary that cannot be read or used.
    static func load(specPaths: [String], dictionaryPaths: [String], output: ToolOutput) throws(ToolFailure)
        -> (specs: [SpecSet], dictionaries: DictionaryStore)
    {
        var specs: [SpecSet] = []
        for path in specPaths {
            let loaded = try SpecLoading.load(path)
            output.message(loaded.warnings)
            specs.append(loaded.spec)
        }
        return (specs, try DictionaryLoading.load(dictionaryPaths))
    }
}

/// Prints `groupwire validate`'s report in its three forms.
package struct ValidationRenderer {
    let path: String
    let format: ValidateTool.Format
    let inputFormat: FrameFileFormat
    private var count = 0

    init(path: String, format: ValidateTool.Format, inputFormat: FrameFileFormat) {
        self.path = path
        self.format = format
        self.inputFormat = inputFormat
    }

    func start() -> String {
        guard format == .json else { return "" }
        return
            "{\"schema\":\"groupwire.validate/1\",\"file\":\(JSONWriter().string(.string(path))),\"format\":\"\(inputFormat)\",\"problems\":[\n"
    }

    mutating func render(_ problem: ValidationProblem) -> String {
        count += 1
        switch format {
        case .text:
            return problem.diagnostic(path: path) + "\n"
        case .json:
            return (count == 1 ? "" : ",\n") + JSONWriter().string(Self.json(problem))
        case .jsonl:
            var object = Self.json(problem)
            if case .object(var fields) = object {
                fields["record"] = .string("problem")
                object = .object(fields)
            }
            return JSONWriter().string(object) + "\n"
        }
    }

    func end(_ summary: CaptureValidator.Summary, byteCount: Int) -> String {
        switch format {
        case .text:
            var lines: [String] = []
            let types = summary.messagesByType.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
            lines.append(
                "\(path): \(inputFormat), \(byteCount) bytes, \(summary.frames) frame\(summary.frames == 1 ? "" : "s") "
                    + "(\(summary.validFrames) valid, \(summary.fragments) fragments) from \(summary.senders) sender\(summary.senders == 1 ? "" : "s")"
            )
            lines.append(
                "  \(summary.messages) message\(summary.messages == 1 ? "" : "s") decoded (\(summary.compressedMessages) compressed)"
                    + (types.isEmpty ? "" : ": \(types)"))
            lines.append(
                "  \(summary.controlFrames) control frame\(summary.controlFrames == 1 ? "" : "s") (\(summary.hellos) hello\(summary.hellos == 1 ? "" : "s")), "
                    + "\(summary.retransmissions) retransmission\(summary.retransmissions == 1 ? "" : "s")")
            lines.append(
                summary.problems == 0
                    ? "valid: every frame passed every check"
                    : "invalid: \(summary.problems) problem\(summary.problems == 1 ? "" : "s")")
            return lines.joined(separator: "\n") + "\n"
        case .json:
            return (count == 0 ? "" : "\n") + "],\"summary\":" + JSONWriter().string(Self.json(summary, byteCount: byteCount))
                + ",\"valid\":\(summary.problems == 0)}\n"
        case .jsonl:
            var object = Self.json(summary, byteCount: byteCount)
            if case .object(var fields) = object {
                fields["record"] = .string("summary")
                fields["valid"] = .bool(summary.problems == 0)
                object = .object(fields)
            }
            return JSONWriter().string(object) + "\n"
        }
    }

    static func json(_ problem: ValidationProblem) -> JSONValue {
        .object([
            "kind": .string(problem.kind.name),
            "frame": problem.frame.map { .number(JSONNumber(Int64($0))) } ?? .null,
            "offset": problem.offset.map { .number(JSONNumber(Int64($0))) } ?? .null,
            "reason": .string(problem.reason),
        ])
    }

    static func json(_ summary: CaptureValidator.Summary, byteCount: Int) -> JSONValue {
        func number(_ value: Int) -> JSONValue { .number(JSONNumber(Int64(value))) }
        return .object([
            "bytes": number(byteCount), "frames": number(summary.frames), "validFrames": number(summary.validFrames),
            "fragments": number(summary.fragments), "messages": number(summary.messages),
            "compressedMessages": number(summary.compressedMessages),
            "messagesByType": .object(summary.messagesByType.mapValues { number($0) }),
            "controlFrames": number(summary.controlFrames), "hellos": number(summary.hellos),
            "retransmissions": number(summary.retransmissions), "senders": number(summary.senders),
            "problems": number(summary.problems),
        ])
    }
}
