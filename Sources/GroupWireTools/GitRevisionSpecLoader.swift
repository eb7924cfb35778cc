import Foundation
import GroupWireSpec

/// A loader that reads spec files as they were at a git revision, by running `git`.
///
/// Paths are repository-relative and shown as `REV:path` (git's own notation), so
/// diagnostics and locations never pass for the work tree's files. Relative imports resolve
/// inside the revision as they do on disk; absolute imports and imports that leave the
/// repository cannot be read at a revision and are reported as unreadable files.
struct GitRevisionSpecLoader: SpecLoader {
    /// The work tree's top folder.
    let repository: String
    /// The revision, as given (`main`, `HEAD~1`, a commit id).
    let revision: String
    /// The largest file it reads, in bytes.
    let maxFileSize: Int

    private var prefix: String { revision + ":" }

    /// Resolves `importPath` inside the revision: `REV:` and a normalized repository-relative path.
    func resolve(_ importPath: String, from importingFile: String?) -> String {
        if importPath.hasPrefix("/") { return importPath }
        let base = importingFile.map { $0.hasPrefix(prefix) ? String($0.dropFirst(prefix.count)) : $0 }
        return prefix + SpecPath.resolve(importPath, from: base)
    }

    /// Reads `REV:path` from the repository; `nil` when the revision has no such file.
    func load(_ resolvedPath: String) throws(SpecError) -> String? {
        guard resolvedPath.hasPrefix(prefix) else {
            throw SpecError(
                .unreadable,
                "cannot read '\(resolvedPath)' at git revision '\(revision)': only relative imports inside the repository can be read at a revision"
            )
        }
        let path = String(resolvedPath.dropFirst(prefix.count))
        if path == ".." || path.hasPrefix("../") {
            throw SpecError(.unreadable, "cannot read '\(resolvedPath)': the import leaves the repository")
        }
        let object = prefix + path
        guard let type = try? Git.run(["cat-file", "-t", object], in: repository), type == "blob" else { return nil }
        let size: Int
        do {
            size = Int(try Git.run(["cat-file", "-s", object], in: repository)) ?? Int.max
        } catch {
            throw SpecError(.unreadable, "cannot read '\(resolvedPath)': \(error.message)")
        }
        if size > maxFileSize {
            throw SpecError(.limitExceeded, "'\(resolvedPath)' is larger than \(maxFileSize) bytes")
        }
        do {
            return try Git.run(["cat-file", "blob", object], in: repository, trimming: false)
        } catch {
            throw SpecError(.unreadable, "cannot read '\(resolvedPath)': \(error.message)")
        }
    }
}

/// Runs `git` as a child process.
enum Git {
    /// A failed git run: its standard error, or why it could not start.
    struct Failure: Error {
        let message: String
    }

    /// Runs `git arguments...` in `folder` and returns its standard output (UTF-8, trailing
    /// whitespace trimmed unless `trimming` is false).
    /// - Throws: ``Failure`` when git cannot start or exits with a non-zero status.
    static func run(_ arguments: [String], in folder: String, trimming: Bool = true) throws(Failure) -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["git", "-C", folder] + arguments
        var environment = ProcessInfo.processInfo.environment
        environment["GIT_TERMINAL_PROMPT"] = "0"
        environment["LC_ALL"] = "C"
        process.environment = environment
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            throw Failure(message: "cannot run git: \(error.localizedDescription)")
        }
        // git writes little to standard error, so reading standard output to its end first cannot deadlock.
        let data = output.fileHandleForReading.readDataToEndOfFile()
        let errorData = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            let text = String(decoding: errorData, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            throw Failure(
                message: text.isEmpty ? "git \(arguments.first ?? "") exited with status \(process.terminationStatus)" : text)
        }
        let text = String(decoding: data, as: UTF8.self)
        return trimming ? text.trimmingCharacters(in: .whitespacesAndNewlines) : text
    }
}
