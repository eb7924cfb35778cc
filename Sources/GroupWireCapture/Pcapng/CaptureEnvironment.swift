import Foundation

/// Capture switched on from the environment, so that any program built on GroupWire (the
/// relay included) records its frames without code changes.
///
/// - `GROUPWIRE_CAPTURE=PATH`: capture to the pcapng file `PATH`. In `PATH`, `%p` becomes
///   the process id and `%n` the program's name, so that several processes capturing at
///   once write files of their own (`/tmp/gw-%n-%p.pcapng`). A `PATH` that names a
///   directory, or ends with `/`, captures to `PATH/NAME-PID.pcapng` there. Without either,
///   processes given the same path overwrite each other's file.
/// - `GROUPWIRE_CAPTURE_FILE_SIZE=N`: rotate files at `N` bytes (suffixes `k`, `M`, `G`:
///   powers of 1024), as `tcpdump -C`.
/// - `GROUPWIRE_CAPTURE_FILE_COUNT=W`: keep at most `W` files, overwriting the oldest, as
///   `tcpdump -W` (only with a file size).
///
/// A setting that cannot be used (a bad number, a file that cannot be created) is
/// reported once on standard error and the program runs without capture.
public enum CaptureEnvironment {
    /// The environment variable that names the capture file.
    public static let pathVariable = "GROUPWIRE_CAPTURE"
    /// The environment variable that bounds each file's size.
    public static let fileSizeVariable = "GROUPWIRE_CAPTURE_FILE_SIZE"
    /// The environment variable that bounds the number of files.
    public static let fileCountVariable = "GROUPWIRE_CAPTURE_FILE_COUNT"

    /// The process's capture writer, made on first use from the environment; nil when
    /// `GROUPWIRE_CAPTURE` is unset or empty, or its settings cannot be used.
    public static let writer: CaptureWriter? = {
        let environment = ProcessInfo.processInfo.environment
        switch settings(environment, processID: Int(getpid()), programName: ProcessInfo.processInfo.processName) {
        case nil:
            return nil
        case .failure(let problem):
            warn(problem.description)
            return nil
        case .success(let (path, rotation)):
            do throws(FrameFileError) {
                return try CaptureWriter(path: path, rotation: rotation)
            } catch {
                warn("\(error)")
                return nil
            }
        }
    }()

    /// A problem with the capture settings.
    public struct SettingsProblem: Error, Sendable, Hashable, CustomStringConvertible {
        /// What is wrong, naming the variable.
        public let description: String
    }

    /// The capture path and rotation that `environment` asks for, nil when capture is off.
    /// - Parameters:
    ///   - environment: the variables.
    ///   - processID: what `%p` becomes.
    ///   - programName: what `%n` becomes.
    public static func settings(_ environment: [String: String], processID: Int, programName: String)
        -> Result<(path: String, rotation: CaptureWriter.Rotation?), SettingsProblem>?
    {
        guard let raw = environment[pathVariable], !raw.isEmpty else { return nil }
        let name = programName.isEmpty ? "groupwire" : programName
        var path = raw.replacingOccurrences(of: "%p", with: "\(processID)").replacingOccurrences(of: "%n", with: name)
        var isDirectory: ObjCBool = false
        if path.hasSuffix("/")
            || (FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue)
        {
            if !path.hasSuffix("/") { path += "/" }
            path += "\(name)-\(processID).pcapng"
        }
        var rotation: CaptureWriter.Rotation?
        if let sizeText = environment[fileSizeVariable], !sizeText.isEmpty {
            guard let size = byteCount(sizeText), size > 0 else {
                return .failure(
                    SettingsProblem(
                        description:
                            "\(fileSizeVariable)='\(sizeText)' is not a size in bytes (a whole number, optionally with k, M or G)"
                    ))
            }
            rotation = CaptureWriter.Rotation(maxFileBytes: size)
        }
        if let countText = environment[fileCountVariable], !countText.isEmpty {
            guard let count = Int(countText), count > 0 else {
                return .failure(
                    SettingsProblem(description: "\(fileCountVariable)='\(countText)' is not a positive whole number"))
            }
            guard let size = rotation?.maxFileBytes else {
                return .failure(
                    SettingsProblem(
                        description: "\(fileCountVariable) needs \(fileSizeVariable) (the size at which files rotate)"))
            }
            rotation = CaptureWriter.Rotation(maxFileBytes: size, maxFiles: count)
        }
        return .success((path, rotation))
    }

    /// `N`, `Nk`, `NM` or `NG` in bytes (powers of 1024), nil when not such a number or too large.
    static func byteCount(_ text: String) -> Int? {
        var digits = Substring(text)
        var scale = 1
        switch text.last {
        case "k", "K": scale = 1 << 10
        case "m", "M": scale = 1 << 20
        case "g", "G": scale = 1 << 30
        default: break
        }
        if scale != 1 { digits = digits.dropLast() }
        guard let value = Int(digits) else { return nil }
        let (product, overflow) = value.multipliedReportingOverflow(by: scale)
        return overflow ? nil : product
    }

    private static func warn(_ message: String) {
        FileHandle.standardError.write(Data("groupwire: warning: no capture: \(message)\n".utf8))
    }
}
