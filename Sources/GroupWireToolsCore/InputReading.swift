#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Bounded reads of command input: standard input or a file, never more than a limit.
package enum InputReading {
    /// The most input a command reads (64 MiB).
    package static let defaultLimit = 64 << 20

    /// Reads standard input to its end.
    /// - Throws: a message for the command line when the input is over `limit` bytes or unreadable.
    package static func standardInput(limit: Int = defaultLimit) throws(InputReadingError) -> [UInt8] {
        try read(descriptor: 0, name: "standard input", limit: limit)
    }

    /// Reads a whole file.
    /// - Throws: a message for the command line when the file cannot be opened, is over
    ///   `limit` bytes or cannot be read.
    package static func file(_ path: String, limit: Int = defaultLimit) throws(InputReadingError) -> [UInt8] {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else {
            throw InputReadingError(message: "cannot open \(path): \(String(cString: strerror(errno)))")
        }
        defer { close(descriptor) }
        return try read(descriptor: descriptor, name: path, limit: limit)
    }

    private static func read(descriptor: Int32, name: String, limit: Int) throws(InputReadingError) -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            // Qualified: `read` alone would name this type's own method.
            let count = chunk.withUnsafeMutableBytes { raw in
                #if canImport(Glibc)
                    Glibc.read(descriptor, raw.baseAddress, raw.count)
                #else
                    Darwin.read(descriptor, raw.baseAddress, raw.count)
                #endif
            }
            if count == 0 { return bytes }
            if count < 0 {
                if errno == EINTR { continue }
                throw InputReadingError(message: "cannot read \(name): \(String(cString: strerror(errno)))")
            }
            guard bytes.count + count <= limit else {
                throw InputReadingError(message: "\(name) is over the input limit of \(limit) bytes")
            }
            bytes.append(contentsOf: chunk[0..<count])
        }
    }
}

/// Input that could not be read.
package struct InputReadingError: Error, Sendable, Hashable {
    /// What went wrong, for a `groupwire: error:` line.
    package let message: String
}
