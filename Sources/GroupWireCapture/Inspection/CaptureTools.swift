import GroupWire

/// The logic of the `groupwire inspect` and `groupwire demo` commands, kept here (not in
/// the executable) so tests can run it in process.
public enum CaptureTools {
    /// Runs `groupwire inspect`.
    /// - Parameters:
    ///   - path: the frame file.
    ///   - json: JSON output instead of text.
    ///   - fileFormat: read the file as this format; nil detects it.
    ///   - limits: the limits frames and payload dumps are checked against.
    /// - Returns: the report on standard output; exit status 0 when every frame is valid,
    ///   1 when some are not (each also reported on standard error when the output is
    ///   JSON), 2 with `groupwire: error: …` or `path:line:column: error: …` on standard
    ///   error when the file cannot be read or is not valid hex.
    public static func inspect(path: String, json: Bool, fileFormat: FrameFileFormat?, limits: Limits = .default) -> ToolOutput {
        let contents: FrameFileContents
        do throws(FrameFileError) {
            contents = try FrameFileReader().read(path: path, format: fileFormat)
        } catch {
            return ToolOutput(standardError: diagnostic(error), exitCode: ToolOutput.usageOrIOError)
        }
        let report = InspectionReport(contents: contents, limits: limits)
        var output = ToolOutput(exitCode: report.allValid ? ToolOutput.success : ToolOutput.invalidInput)
        output.standardOutput = json ? report.renderJSON() : report.renderText()
        if !report.allValid, json {
            output.standardError = report.entries.compactMap { report.diagnostic(for: $0) }.map { $0 + "\n" }.joined()
        }
        return output
    }

    /// Runs `groupwire demo`: writes the ``DemoMessages`` frames to `outputPath`.
    /// - Parameters:
    ///   - outputPath: the file to write (replaced).
    ///   - fileFormat: ``FrameFileFormat/raw`` or ``FrameFileFormat/hex``.
    /// - Returns: a one-line summary, exit status 0; or 2 with a diagnostic when the file
    ///   cannot be written.
    public static func demo(outputPath: String, fileFormat: FrameFileFormat) -> ToolOutput {
        let frames = DemoMessages.frames
        let bytes: [UInt8]
        do throws(WireError) {
            bytes = try FrameFileWriter(format: fileFormat).contents(of: frames)
        } catch {
            return ToolOutput(
                standardError: "groupwire: error: cannot encode the demo frames: \(error)\n",
                exitCode: ToolOutput.usageOrIOError)
        }
        do throws(FrameFileError) {
            try FrameFileWriter.write(bytes, toPath: outputPath)
        } catch {
            return ToolOutput(standardError: diagnostic(error), exitCode: ToolOutput.usageOrIOError)
        }
        return ToolOutput(
            standardOutput: "wrote \(frames.count) frames (\(bytes.count) bytes, \(fileFormat)) to \(outputPath)\n",
            exitCode: ToolOutput.success)
    }

    /// `path:line:column: error: …` for a problem inside a file, else `groupwire: error: path: …`.
    static func diagnostic(_ error: FrameFileError) -> String {
        if error.line != nil {
            return error.description + "\n"
        }
        return "groupwire: error: \(error.path): \(error.message)\n"
    }
}
