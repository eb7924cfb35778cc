import Foundation

/// The frames' bytes read from a frame file, with how they were stored.
public struct FrameFileContents: Sendable {
    /// The file as the user named it.
    public let path: String
    /// The format the file was read as.
    public let format: FrameFileFormat
    /// The frame bytes: the file itself when raw, the decoded bytes when hex.
    public let bytes: [UInt8]
    /// The parsed dump, for hex files (it maps byte offsets back to lines and columns).
    public let hexDump: HexDump?

    /// Creates contents from frame bytes.
    public init(path: String, format: FrameFileFormat, bytes: [UInt8], hexDump: HexDump? = nil) {
        self.path = path
        self.format = format
        self.bytes = bytes
        self.hexDump = hexDump
    }

    /// Where byte `offset` of the frames is in a hex file, or nil for raw files.
    public func location(ofByte offset: Int) -> HexDump.Location? {
        hexDump?.location(ofByte: offset)
    }
}

/// Reads frame files: raw frames back to back, or a hex dump of them.
public struct FrameFileReader: Sendable {
    /// The largest file read, in bytes (default 256 MiB).
    public var maxFileSize: Int

    /// Creates a reader.
    public init(maxFileSize: Int = 256 << 20) {
        self.maxFileSize = maxFileSize
    }

    /// Reads the file at `path`.
    /// - Parameters:
    ///   - path: the file to read.
    ///   - format: the format to read it as; nil detects it (``FrameFileFormat/detect(_:)``).
    /// - Throws: ``FrameFileError`` when the file is missing, unreadable, too large, or a
    ///   hex dump with a bad digit (with its line and column).
    public func read(path: String, format: FrameFileFormat? = nil) throws(FrameFileError) -> FrameFileContents {
        let bytes = try readBytes(path: path)
        return try parse(bytes, path: path, format: format)
    }

    /// Interprets a file's bytes.
    /// - Parameters:
    ///   - fileBytes: the file's content.
    ///   - path: the name used in diagnostics.
    ///   - format: the format to read it as; nil detects it.
    /// - Throws: ``FrameFileError`` for a malformed hex dump.
    public func parse(_ fileBytes: [UInt8], path: String, format: FrameFileFormat? = nil) throws(FrameFileError)
        -> FrameFileContents
    {
        let format = format ?? FrameFileFormat.detect(fileBytes)
        if format == .hex {
            let dump = try HexDump(parsing: fileBytes, path: path)
            return FrameFileContents(path: path, format: .hex, bytes: dump.bytes, hexDump: dump)
        }
        return FrameFileContents(path: path, format: format, bytes: fileBytes)
    }

    /// The bytes of the file at `path`.
    /// - Throws: ``FrameFileError`` of kind ``FrameFileError/Kind/fileNotFound``,
    ///   ``FrameFileError/Kind/unreadable`` or ``FrameFileError/Kind/fileTooLarge``.
    public func readBytes(path: String) throws(FrameFileError) -> [UInt8] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw FrameFileError(.fileNotFound, path: path, "no such file")
        }
        guard !isDirectory.boolValue else {
            throw FrameFileError(.unreadable, path: path, "is a directory, not a frame file")
        }
        if let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber,
            size.int64Value > Int64(maxFileSize)
        {
            throw FrameFileError(
                .fileTooLarge, path: path, "file of \(size.int64Value) bytes is over the limit of \(maxFileSize) bytes")
        }
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw FrameFileError(.unreadable, path: path, "cannot read the file (\(error.localizedDescription))")
        }
        guard data.count <= maxFileSize else {
            throw FrameFileError(
                .fileTooLarge, path: path, "file of \(data.count) bytes is over the limit of \(maxFileSize) bytes")
        }
        return [UInt8](data)
    }
}
