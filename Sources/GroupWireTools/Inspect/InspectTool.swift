import GroupWire
import GroupWireCapture
import GroupWireCompression

/// `groupwire inspect FILE`: every frame's header fields and a schema-less payload dump.
package enum InspectTool {
    /// Runs `groupwire inspect`.
    /// - Parameters:
    ///   - path: the frame file.
    ///   - json: JSON output instead of text.
    ///   - fileFormat: read the file as this format; nil detects it.
    ///   - limits: the limits frames and payload dumps are checked against.
    ///   - dictionaryPaths: zstd dictionary files for bodies compressed with one.
    /// - Returns: the report on standard output; status ``ToolStatus/ok`` when every frame
    ///   is valid, ``ToolStatus/invalidInput`` when some are not (each also reported in the
    ///   messages when the output is JSON), ``ToolStatus/failure`` with
    ///   `groupwire: error: …` or `path:line:column: error: …` when the file cannot be
    ///   read or is not valid hex, or a dictionary file cannot be read or is not one.
    package static func run(
        path: String, json: Bool, fileFormat: FrameFileFormat?, limits: Limits = .default, dictionaryPaths: [String] = []
    ) -> ToolResult {
        let dictionaries: DictionaryStore
        let contents: FrameFileContents
        do throws(ToolFailure) {
            dictionaries = try DictionaryLoading.load(dictionaryPaths)
        } catch {
            return error.result
        }
        do throws(FrameFileError) {
            contents = try FrameFileReader().read(path: path, format: fileFormat)
        } catch {
            return ToolResult(messages: diagnostic(error), status: .failure)
        }
        let report = InspectionReport(contents: contents, limits: limits, dictionaries: dictionaries)
        var result = ToolResult(status: report.allValid ? .ok : .invalidInput)
        result.output = Array((json ? report.renderJSON() : report.renderText()).utf8)
        if !report.allValid, json {
            result.messages = report.entries.compactMap { report.diagnostic(for: $0) }.map { $0 + "\n" }.joined()
        }
        return result
    }

    /// `path:line:column: error: …` for a problem inside a file, else `groupwire: error: path: …`.
    static func diagnostic(_ error: FrameFileError) -> String {
        if error.line != nil {
            return error.description + "\n"
        }
        return ToolResult.errorLine("\(error.path): \(error.message)")
    }
}
