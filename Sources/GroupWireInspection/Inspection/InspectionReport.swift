import GroupWire
import GroupWireCapture
import GroupWireCompression
import GroupWireJSON

/// The result of inspecting frame bytes held in memory: every frame and every rejected run
/// of bytes, in file order, rendered by an ``InspectionRenderer`` as text for people or
/// JSON for programs. `groupwire inspect` renders each entry as it reads it instead.
public struct InspectionReport: Sendable {
    /// The file as the user named it.
    public let path: String
    /// The format it was read as.
    public let format: FrameFileFormat
    /// The number of frame bytes (decoded bytes for hex files).
    public let byteCount: Int
    /// One entry per frame or rejected run.
    public let entries: [FrameInspection]

    /// Inspects `contents` with `FrameDecoder/decodeAll(_:)`, so a bad frame
    /// is reported and the frames after it are still read.
    /// - Parameters:
    ///   - contents: the frame file.
    ///   - limits: the limits frames and payload dumps are checked against.
    ///   - dictionaries: dictionaries for bodies compressed with one; a body whose
    ///     dictionary is missing is still reported, with the error naming its id.
    public init(contents: FrameFileContents, limits: Limits = .default, dictionaries: DictionaryStore? = nil) {
        path = contents.path
        format = contents.format
        byteCount = contents.bytes.count
        // Compressed bodies are decompressed to dump their payload.
        let decompressor = try? PayloadCompressor(policy: .never, dictionaries: dictionaries, limits: limits)
        entries = FrameDecoder(limits: limits).decodeAll(contents.bytes).map { event in
            let errorOffset = event.error.map { min($0.offset ?? event.offset, max(0, contents.bytes.count - 1)) }
            return FrameInspection(
                event: event, location: contents.location(ofByte: event.offset),
                errorLocation: errorOffset.flatMap(contents.location(ofByte:)),
                header: event.frame == nil ? nil : FrameHeaderFields(contents.bytes, offset: event.offset, length: event.length),
                limits: limits, decompressor: decompressor)
        }
    }

    /// The number of valid frames.
    public var frameCount: Int { entries.count(where: \.isValid) }
    /// The number of rejected frames or runs.
    public var invalidCount: Int { entries.count - frameCount }
    /// Whether every entry is a valid frame.
    public var allValid: Bool { invalidCount == 0 }

    /// The diagnostic for an invalid entry, compiler-style:
    /// `path:line:column: error: …` for hex files, `path: error: …` for raw ones.
    public func diagnostic(for entry: FrameInspection) -> String? {
        InspectionRenderer(path: path, format: format, style: .text).diagnostic(for: entry)
    }

    /// The report as text (see ``InspectionRenderer/Style/text``).
    public func renderText() -> String {
        render(.text)
    }

    /// The report as JSON (see ``InspectionRenderer/Style/json``).
    public func renderJSON() -> String {
        render(.json)
    }

    private func render(_ style: InspectionRenderer.Style) -> String {
        var renderer = InspectionRenderer(path: path, format: format, style: style)
        var text = renderer.start()
        for entry in entries {
            text += renderer.render(entry)
        }
        return text + renderer.end(byteCount: byteCount)
    }
}
