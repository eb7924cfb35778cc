import Foundation
import GroupWireTestSupport

/// Runs the real `zstd` command-line tool for interop and bomb tests.
enum ZstdCLI {
    static let path = "/usr/bin/zstd"

    static var isAvailable: Bool {
        FileManager.default.isExecutableFile(atPath: path)
    }

    /// A fresh temporary directory, removed by the caller.
    static func makeTemporaryDirectory() throws -> URL {
        try RepositoryPaths.temporaryDirectory(prefix: "groupwire-zstd")
    }

    /// Runs `executable` with `arguments`, feeding `input` on stdin; returns stdout.
    /// - Throws: ``GroupWireTestSupport/ChildProcess/Failure`` when it exits non-zero.
    @discardableResult
    static func run(_ executable: String, _ arguments: [String], input: [UInt8] = []) throws -> [UInt8] {
        try ChildProcess.output(URL(fileURLWithPath: executable), arguments, input: input)
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
