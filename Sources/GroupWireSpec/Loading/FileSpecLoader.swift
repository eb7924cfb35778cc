import Foundation

/// A loader that reads spec files from the file system, refusing files over a size limit.
public struct FileSpecLoader: SpecLoader {
    /// The largest file it reads, in bytes.
    public var maxFileSize: Int

    /// Creates a loader.
    /// - Parameter maxFileSize: the largest file to read (default ``SpecLimits/maxFileSize``).
    public init(maxFileSize: Int = SpecLimits.default.maxFileSize) {
        self.maxFileSize = maxFileSize
    }

    /// Reads `resolvedPath` as UTF-8 (invalid bytes become U+FFFD).
    public func load(_ resolvedPath: String) throws(SpecError) -> String? {
        let url = URL(fileURLWithPath: resolvedPath)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: resolvedPath, isDirectory: &isDirectory), !isDirectory.boolValue else {
            return nil
        }
        let data: Data
        do {
            let handle = try FileHandle(forReadingFrom: url)
            defer { try? handle.close() }
            // Read one byte past the limit so an oversized file is detected without reading it all.
            data = try handle.read(upToCount: maxFileSize + 1) ?? Data()
        } catch {
            throw SpecError(.unreadable, "cannot read '\(resolvedPath)': \(error.localizedDescription)")
        }
        if data.count > maxFileSize {
            throw SpecError(.limitExceeded, "'\(resolvedPath)' is larger than \(maxFileSize) bytes")
        }
        return String(decoding: data, as: UTF8.self)
    }
}
