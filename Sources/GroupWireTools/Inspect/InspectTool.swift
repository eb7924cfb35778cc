import GroupWire
import GroupWireCapture
import GroupWireCompression
import GroupWireInspection

/// `groupwire inspect FILE`: every frame's header fields and a schema-less payload dump.
package enum InspectTool {
    /// Runs `groupwire inspect` and collects what it prints (for tests and callers that
    /// want the whole report; the command itself prints as it reads, with
    /// ``run(path:json:fileFormat:limits:dictionaryPaths:output:)``).
    /// - Parameters:
    ///   - path: the frame file.
    ///   - json: JSON output instead of text.
    ///   - fileFormat: read the file as this format; nil detects it.
    ///   - limits: the limits frames and payload dumps are checked against.
    ///   - dictionaryPaths: zstd dictionary files for bodies compressed with one.
    /// - Returns: the report and status, see the streaming form.
    package static func run(
        path: String, json: Bool, fileFormat: FrameFileFormat?, limits: Limits = .default, dictionaryPaths: [String] = []
    ) -> ToolResult {
        ToolOutput.collecting { output in
            run(path: path, json: json, fileFormat: fileFormat, limits: limits, dictionaryPaths: dictionaryPaths, output: output)
        }
    }

    /// Runs `groupwire inspect`, printing each frame's report as soon as it is read.
    /// - Parameters:
    ///   - path: the frame file, or `-` for standard input.
    ///   - json: JSON output instead of text.
    ///   - fileFormat: read the file as this format; nil detects it.
    ///   - limits: the limits frames and payload dumps are checked against.
    ///   - dictionaryPaths: zstd dictionary files for bodies compressed with one.
    ///   - output: where the report and diagnostics go.
    /// - Returns: ``ToolStatus/ok`` when every frame is valid, ``ToolStatus/invalidInput``
    ///   when some are not (each also reported on standard error when the output is JSON),
    ///   ``ToolStatus/failure`` with `groupwire: error: …` or `path:line:column: error: …`
    ///   when the file cannot be read or is not valid hex, or a dictionary file cannot be
    ///   read or is not one.
    package static func run(
        path: String, json: Bool, fileFormat: FrameFileFormat?, limits: Limits = .default, dictionaryPaths: [String] = [],
        output: ToolOutput
    ) -> ToolStatus {
        DictionaryLoading.withDictionaries(dictionaryPaths, output: output) { dictionaries in
            inspect(path: path, json: json, fileFormat: fileFormat, limits: limits, dictionaries: dictionaries, output: output)
        }
    }

    private static func inspect(
        path: String, json: Bool, fileFormat: FrameFileFormat?, limits: Limits, dictionaries: DictionaryStore, output: ToolOutput
    ) -> ToolStatus {
        let stream: FrameFileStream
        do throws(FrameFileError) {
            stream = try FrameFileStream.reading(path, format: fileFormat, limits: limits)
        } catch {
            output.message(diagnostic(error))
            return .failure
        }
        stream.willRead = { output.flush() }
        // Compressed bodies are decompressed to dump their payload.
        let decompressor = try? PayloadCompressor(policy: .never, dictionaries: dictionaries, limits: limits)
        var renderer = InspectionRenderer(path: stream.path, format: stream.format, style: json ? .json : .text)
        output.write(renderer.start())
        do throws(FrameFileError) {
            while let event = try stream.next() {
                let entry = FrameInspection(event, limits: limits, decompressor: decompressor)
                output.write(renderer.render(entry))
                if json, let diagnostic = renderer.diagnostic(for: entry) {
                    output.message(diagnostic + "\n")
                }
            }
        } catch {
            output.flush()
            output.message(diagnostic(error))
            // A damaged capture is a problem in the input (1); an unreadable one is not (2).
            return error.kind == .badCapture ? .invalidInput : .failure
        }
        output.write(renderer.end(byteCount: stream.byteCount))
        return renderer.allValid ? .ok : .invalidInput
    }

    /// `path:line:column: error: …` for a problem inside a text file, `groupwire: error:
    /// path: byte N: …` for one at a byte offset of a binary file, else `groupwire: error: path: …`.
    static func diagnostic(_ error: FrameFileError) -> String {
        if error.line != nil {
            return error.description + "\n"
        }
        if let offset = error.offset {
            return ToolResult.errorLine("\(error.path): byte \(offset): \(error.message)")
        }
        return ToolResult.errorLine("\(error.path): \(error.message)")
    }
}
