import Foundation
import GroupWire
import GroupWireCapture
import GroupWireCompression
import GroupWireInspection
import GroupWireJSON
import GroupWireSpec

/// `groupwire inspect FILE --format jsonl --spec SPEC`: one JSON object per message,
/// decoded by the spec with field names, beside the frame-level view of the other formats.
///
/// Messages are read as `groupwire validate` reads them (``CaptureValidator``): fragments
/// reassembled per sender, bodies decompressed, each sender's payloads decoded with the
/// spec its hello announced. Problems go to standard error, compiler-style, and make the
/// exit status 1; the messages around them are still printed.
package struct InspectMessagesTool {
    package var path: String
    package var specPaths: [String]
    package var dictionaryPaths: [String] = []
    package var fileFormat: FrameFileFormat?
    /// Only messages of these type names (all when empty).
    package var types: [String] = []
    /// Only messages sent or received by these participants: full UUIDs or their first
    /// characters, any case (all when empty).
    package var participants: [String] = []
    package var limits: Limits = .default

    package init(path: String, specPaths: [String]) {
        self.path = path
        self.specPaths = specPaths
    }

    package func run() -> ToolResult {
        ToolOutput.collecting { output in run(output: output) }
    }

    package func run(output: ToolOutput) -> ToolStatus {
        guard !specPaths.isEmpty else {
            output.message(ToolResult.errorLine("--format jsonl decodes payloads by a spec: give it with --spec FILE"))
            return .failure
        }
        let specs: [SpecSet]
        let dictionaries: DictionaryStore
        do throws(ToolFailure) {
            (specs, dictionaries) = try ValidateTool.load(specPaths: specPaths, dictionaryPaths: dictionaryPaths, output: output)
        } catch {
            output.message(error.result.messages)
            return error.result.status
        }
        let known = Set(specs.flatMap { $0.messages.map(\.name) })
        if let unknown = types.first(where: { !known.contains($0) }) {
            output.message(
                ToolResult.errorLine(
                    "--type \(unknown): no such message in the spec; its messages are \(known.sorted().joined(separator: ", "))"))
            return .failure
        }
        let prefixes = participants.map { $0.lowercased() }
        let stream: FrameFileStream
        do throws(FrameFileError) {
            stream = try FrameFileStream.reading(path, format: fileFormat, limits: limits)
        } catch {
            output.message(InspectTool.diagnostic(error))
            return .failure
        }
        stream.willRead = { output.flush() }
        var validator = CaptureValidator(specs: specs, dictionaries: dictionaries, limits: limits, keepsValues: true)
        let writer = JSONWriter()
        func report(_ problems: [ValidationProblem]) {
            for problem in problems { output.message(problem.diagnostic(path: stream.path) + "\n") }
        }
        func matches(_ message: CaptureValidator.DecodedMessage) -> Bool {
            if !types.isEmpty, !types.contains(message.typeName) { return false }
            guard !prefixes.isEmpty else { return true }
            let ends = [message.sender, message.receiver].compactMap { $0?.uuidString.lowercased() }
            return ends.contains { end in prefixes.contains { end.hasPrefix($0) } }
        }
        do throws(FrameFileError) {
            while let event = try stream.next() {
                let (problems, message) = validator.read(event)
                report(problems)
                if let message, matches(message) {
                    output.write(Self.line(message, writer: writer))
                }
            }
        } catch {
            report(validator.check(inputError: error))
        }
        report(validator.finish())
        return validator.summary.problems == 0 ? .ok : .invalidInput
    }

    /// One message's members as `inspect --format jsonl` prints them, all but its value.
    static func json(_ message: CaptureValidator.DecodedMessage) -> JSONValue {
        func text(_ id: UUID?) -> JSONValue { id.map { .string($0.uuidString.lowercased()) } ?? .null }
        return .object([
            "frame": .number(JSONNumber(Int64(message.frame))),
            "offset": .number(JSONNumber(Int64(message.offset))),
            "time": message.timestamp.map { .number(JSONNumber($0)) } ?? .null,
            "sender": text(message.sender),
            "receiver": text(message.receiver),
            "room": .string(message.room),
            "session": message.session.map { .number(JSONNumber(UInt64($0))) } ?? .null,
            "type": .string(message.typeName),
            "typeID": .number(JSONNumber(message.typeID)),
            "compressed": .bool(message.wasCompressed),
            "fragmented": .bool(message.wasFragmented),
        ])
    }

    /// One message's line: ``json(_:)``'s members, then `"value"` (last in key order) with
    /// the message's JSON text as the validator wrote it.
    static func line(_ message: CaptureValidator.DecodedMessage, writer: JSONWriter) -> [UInt8] {
        var text = writer.bytes(json(message))
        text.removeLast()  // the object's closing brace
        text += Array(",\"value\":".utf8) + message.valueJSON + Array("}\n".utf8)
        return text
    }
}
