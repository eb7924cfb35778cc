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

    /// An output that writes standard output through a 64 KiB buffer (flushed when full,
    /// when the command waits for input, and by ``exit(_:)``) and standard error at once.
    package static func streaming() -> ToolOutput {
        ToolOutput(
            output: { standardOutput.write($0) },
            messages: { text in
                standardOutput.flush()
                write(Array(text.utf8), to: 2)
            },
            flush: { standardOutput.flush() })
    }

    /// Flushes standard output and throws `status`'s exit code (unless 0) for
    /// ArgumentParser to exit with.
    package static func exit(_ status: ToolStatus) throws {
        standardOutput.flush()
        if status != .ok {
            throw ExitCode(status.rawValue)
        }
    }

    /// The buffer behind ``streaming``; commands run on one thread.
    nonisolated(unsafe) private static let standardOutput = BufferedOutput(descriptor: 1)

    /// Bytes for a descriptor, written in large pieces.
    private final class BufferedOutput {
        let descriptor: Int32
        var buffer: [UInt8] = []

        init(descriptor: Int32) {
            self.descriptor = descriptor
            buffer.reserveCapacity(1 << 16)
        }

        func write(_ bytes: [UInt8]) {
            buffer += bytes
            if buffer.count >= 1 << 16 { flush() }
        }

        func flush() {
            guard !buffer.isEmpty else { return }
            StandardStreams.write(buffer, to: descriptor)
            buffer.removeAll(keepingCapacity: true)
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

    /// Writes `text` to standard output at once (unbuffered), for a line another program
    /// waits for while the command keeps running.
    package static func standardOutput(_ text: String) {
        write(Array(text.utf8), to: 1)
    }

    fileprivate static func write(_ bytes: [UInt8], to descriptor: Int32) {
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
