import Foundation
import GroupWire
import GroupWireJSON

/// Writes frames to frame files that ``FrameFileReader`` reads back.
public struct FrameFileWriter: Sendable {
    /// How frames are stored: ``FrameFileFormat/raw`` or ``FrameFileFormat/hex``.
    public var format: FrameFileFormat
    /// The encoder that makes each frame's bytes.
    public var encoder: FrameEncoder
    /// Bytes per line in hex output (default 32, 64 digits).
    public var bytesPerHexLine: Int

    /// Creates a writer.
    public init(format: FrameFileFormat = .raw, encoder: FrameEncoder = FrameEncoder(), bytesPerHexLine: Int = 32) {
        self.format = format
        self.encoder = encoder
        self.bytesPerHexLine = max(1, bytesPerHexLine)
    }

    /// The file content for `frames`: back to back when raw; when hex, each frame's bytes
    /// in lowercase hex lines after a `# frame N: comment` line.
    /// - Parameter frames: the frames, each with a comment (used by hex output only).
    /// - Throws: `WireError` when a frame cannot be encoded.
    public func contents(of frames: [(frame: Frame, comment: String)]) throws(WireError) -> [UInt8] {
        var writer = ByteWriter()
        if format == .hex {
            var text = "# GroupWire frames, hex: \(frames.count) frame\(frames.count == 1 ? "" : "s")\n"
            for (index, entry) in frames.enumerated() {
                let bytes = try encoder.encode(entry.frame)
                let comment = entry.comment.split(whereSeparator: \.isNewline).joined(separator: " ")
                text += "# frame \(index): \(comment)\n"
                var start = 0
                while start < bytes.count {
                    let end = min(start + bytesPerHexLine, bytes.count)
                    text += Hex.string(bytes[start..<end]) + "\n"
                    start = end
                }
            }
            writer.write(contentsOf: Array(text.utf8))
        } else {
            for entry in frames {
                try encoder.encode(entry.frame, into: &writer)
            }
        }
        return writer.bytes
    }

    /// Writes `bytes` to the file at `path`, replacing it.
    /// - Throws: ``FrameFileError`` of kind ``FrameFileError/Kind/unwritable``.
    public static func write(_ bytes: [UInt8], toPath path: String) throws(FrameFileError) {
        do {
            try Data(bytes).write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw FrameFileError(.unwritable, path: path, "cannot write the file (\(error.localizedDescription))")
        }
    }
}
