import GroupWire
import GroupWireCapture

/// `groupwire demo --output FILE`: writes the ``DemoMessages`` frames to a frame file.
package enum DemoTool {
    /// Runs `groupwire demo`.
    /// - Parameters:
    ///   - outputPath: the file to write (replaced).
    ///   - fileFormat: `FrameFileFormat.raw` or `FrameFileFormat.hex`.
    /// - Returns: a one-line summary with status ``ToolStatus/ok``; or
    ///   ``ToolStatus/failure`` with a diagnostic when the file cannot be written.
    package static func run(outputPath: String, fileFormat: FrameFileFormat) -> ToolResult {
        let frames: [(frame: Frame, comment: String)]
        let bytes: [UInt8]
        do {
            frames = try DemoMessages.frames()
            bytes = try FrameFileWriter(format: fileFormat).contents(of: frames)
        } catch {
            return .error("cannot encode the demo frames: \(error)", status: .failure)
        }
        do throws(FrameFileError) {
            try FrameFileWriter.write(bytes, toPath: outputPath)
        } catch {
            return ToolResult(messages: InspectTool.diagnostic(error), status: .failure)
        }
        return ToolResult(output: Array("wrote \(frames.count) frames (\(bytes.count) bytes, \(fileFormat)) to \(outputPath)\n".utf8))
    }
}
