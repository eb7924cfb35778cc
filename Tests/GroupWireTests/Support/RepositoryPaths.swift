import Foundation

/// Paths inside the repository, found from this source file, so tests read the checked-in
/// vectors and corpora rather than copies.
enum RepositoryPaths {
    static let root: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // Support
        .deletingLastPathComponent()  // GroupWireTests
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()  // root

    static func files(under relative: String, withExtension ext: String? = nil) -> [URL] {
        let folder = root.appendingPathComponent(relative)
        guard let enumerator = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey]) else {
            return []
        }
        return enumerator.compactMap { $0 as? URL }
            .filter { (try? $0.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true }
            .filter { ext == nil || $0.pathExtension == ext }
            .sorted { $0.path < $1.path }
    }
}

/// Bytes from a hex string; nil when it is not hex.
func bytes(hex: String) -> [UInt8]? {
    var result: [UInt8] = []
    result.reserveCapacity(hex.utf8.count / 2)
    var high: UInt8?
    for scalar in hex.utf8 {
        let nibble: UInt8
        switch scalar {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): nibble = scalar - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): nibble = scalar - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): nibble = scalar - UInt8(ascii: "A") + 10
        default: return nil
        }
        if let h = high {
            result.append(h << 4 | nibble)
            high = nil
        } else {
            high = nibble
        }
    }
    return high == nil ? result : nil
}

