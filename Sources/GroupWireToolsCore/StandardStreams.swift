import ArgumentParser

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes a command's result to the process's standard streams and ends the command with
/// its exit status.
package enum StandardStreams {
    /// Writes `result` and throws its exit code (unless 0) for ArgumentParser to exit with.
    package static func finish(_ result: ToolResult) throws {
        write(result.output, to: 1)
        write(Array(result.messages.utf8), to: 2)
        if result.status != .ok {
            throw ExitCode(result.status.rawValue)
        }
    }

    /// Reads a command's input from `path`, or standard input when it is nil or `-`.
    package static func input(_ path: String?) throws -> [UInt8] {
        do throws(InputReadingError) {
            if let path, path != "-" {
                return try InputReading.file(path)
            }
            return try InputReading.standardInput()
        } catch {
            try finish(.error(error.message, status: .failure))
            return []
        }
    }

    /// Writes text to standard error.
    package static func standardError(_ text: String) {
        write(Array(text.utf8), to: 2)
    }

    private static func write(_ bytes: [UInt8], to descriptor: Int32) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { raw in
                systemWrite(descriptor, raw.baseAddress, raw.count)
            }
            if written < 0, errno == EINTR { continue }
            guard written > 0 else { return }
            offset += written
        }
    }

    private static func systemWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
        #if canImport(Glibc)
        Glibc.write(descriptor, buffer, count)
        #else
        Darwin.write(descriptor, buffer, count)
        #endif
    }
}
