import Foundation

/// Runs the real `zstd` command-line tool for interop and bomb tests.
enum ZstdCLI {
    static let path = "/usr/bin/zstd"

    static var isAvailable: Bool {
        FileManager.default.isExecutableFile(atPath: path)
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// A fresh temporary directory, removed by the caller.
    static func makeTemporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("groupwire-zstd-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Runs `executable` with `arguments`, feeding `input` on stdin; returns stdout.
    @discardableResult
    static func run(_ executable: String, _ arguments: [String], input: [UInt8] = []) throws -> [UInt8] {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let inputURL = directory.appendingPathComponent("stdin")
        let outputURL = directory.appendingPathComponent("stdout")
        let errorURL = directory.appendingPathComponent("stderr")
        try Data(input).write(to: inputURL)
        _ = FileManager.default.createFile(atPath: outputURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errorURL.path, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardInput = try FileHandle(forReadingFrom: inputURL)
        process.standardOutput = try FileHandle(forWritingTo: outputURL)
        process.standardError = try FileHandle(forWritingTo: errorURL)
        try process.run()
        process.waitUntilExit()
        let stderr = String(decoding: try Data(contentsOf: errorURL), as: UTF8.self)
        guard process.terminationStatus == 0 else {
            throw Failure(description: "\(executable) \(arguments) exited \(process.terminationStatus): \(stderr)")
        }
        return Array(try Data(contentsOf: outputURL))
    }

    /// Runs `zstd` with `arguments` on `input` and returns its stdout.
    @discardableResult
    static func zstd(_ arguments: [String], input: [UInt8] = []) throws -> [UInt8] {
        try run(path, ["-q", "-c"] + arguments, input: input)
    }

    /// Runs a shell pipeline and returns its stdout.
    static func shell(_ script: String) throws -> [UInt8] {
        try run("/bin/sh", ["-c", script])
    }
}

/// Peak resident memory of this process, from /proc/self/status (Linux).
enum ProcessMemory {
    /// A status field in bytes, e.g. "VmHWM" or "VmRSS".
    static func statusField(_ name: String) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else {
            return nil
        }
        for line in status.split(separator: "\n") where line.hasPrefix(name + ":") {
            let digits = line.dropFirst(name.count + 1).filter(\.isNumber)
            return Int(digits).map { $0 * 1024 }
        }
        return nil
    }

    /// Resets the peak (VmHWM) to the current resident size; false if the kernel refuses.
    static func resetPeak() -> Bool {
        guard let handle = FileHandle(forWritingAtPath: "/proc/self/clear_refs") else {
            return false
        }
        defer { try? handle.close() }
        return (try? handle.write(contentsOf: Data("5".utf8))) != nil
    }

    /// Runs `body` and returns how far peak resident memory rose above the resident size
    /// before it, in bytes (nil where /proc is unavailable).
    static func peakGrowth(during body: () throws -> Void) rethrows -> Int? {
        let reset = resetPeak()
        let before = reset ? statusField("VmRSS") : statusField("VmHWM")
        try body()
        guard let before, let peak = statusField("VmHWM") else {
            return nil
        }
        return peak - before
    }
}
