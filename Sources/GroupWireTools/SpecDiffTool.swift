import Foundation
import GroupWireSpec

/// `groupwire spec diff OLD NEW` (or `spec diff NEW --against REV`): whether peers on the two
/// spec versions can talk, by the rules of the compatibility checker (Spec/LANGUAGE.md).
package struct SpecDiffTool: Sendable {
    /// Output formats.
    package enum Format: String, Sendable, CaseIterable {
        /// The checker's text report.
        case text
        /// The checker's JSON report.
        case json
        /// GitHub Actions workflow commands (`::error file=…,line=…,col=…::message`).
        case github
    }

    /// The name of the settings file read from the new spec's folder.
    package static let configFileName = "groupwire-diff.conf"

    /// The old spec's path, or `nil` with ``against``.
    package var oldPath: String?
    /// The new spec's path.
    package var newPath: String
    /// A git revision whose copy of ``newPath`` is the old version (instead of ``oldPath``).
    package var against: String?
    /// The report format.
    package var format: Format
    /// Whether warnings fail the comparison too.
    package var strict: Bool
    /// Rules (ids or names) whose changes are left out of the report and the verdict.
    package var ignoredRules: [String]

    /// Creates the tool.
    package init(
        oldPath: String?, newPath: String, against: String? = nil, format: Format = .text,
        strict: Bool = false, ignoredRules: [String] = []
    ) {
        self.oldPath = oldPath
        self.newPath = newPath
        self.against = against
        self.format = format
        self.strict = strict
        self.ignoredRules = ignoredRules
    }

    /// Compares the specs.
    /// - Returns: the report on standard output; status 0 when compatible, 1 when a change
    ///   breaks (or, strictly, warns), 2 on a usage error, when either spec cannot be read or
    ///   has errors, or when the settings file is invalid.
    package func run() -> ToolResult {
        do throws(ToolFailure) {
            let settings = try DiffSettings.load(folder: Self.folder(of: newPath))
            var ignored = settings.ignoredRules
            for name in ignoredRules {
                guard let rule = CompatibilityRule.named(name) else {
                    throw ToolFailure(
                        "unknown rule '\(name)' for --ignore; rules are GW001...GW\(CompatibilityRule.all.count) or their names")
                }
                ignored.insert(rule)
            }
            let strict = strict || settings.strict
            let old = try loadOld()
            let new = try SpecLoading.load(newPath).spec
            let report = CompatibilityChecker.compare(old: old, new: new).ignoring(ignored)
            let text: String
            switch format {
            case .text: text = report.renderText()
            case .json: text = report.renderJSON()
            case .github:
                text = report.renderAnnotations(
                    newFiles: Set(new.files.map(\.path)), fallbackFile: SpecPath.normalize(newPath),
                    strict: strict)
            }
            return ToolResult(output: Array(text.utf8), status: report.verdict(strict: strict) == .breaking ? .invalidInput : .ok)
        } catch {
            return error.result
        }
    }

    private func loadOld() throws(ToolFailure) -> SpecSet {
        switch (oldPath, against) {
        case (let path?, nil): return try SpecLoading.load(path).spec
        case (nil, let revision?): return try loadAtRevision(revision)
        case (_?, _?): throw ToolFailure("give either an old spec file or --against REV, not both")
        case (nil, nil): throw ToolFailure("give the old spec file, or --against REV to compare with a git revision")
        }
    }

    /// Compiles the copy of ``newPath`` at `revision`, imports read at the same revision.
    private func loadAtRevision(_ revision: String) throws(ToolFailure) -> SpecSet {
        let folder = Self.folder(of: newPath)
        let repository: String
        let prefix: String
        do throws(Git.Failure) {
            repository = try Git.run(["rev-parse", "--show-toplevel"], in: folder)
            prefix = try Git.run(["rev-parse", "--show-prefix"], in: folder)
        } catch {
            throw ToolFailure("--against needs \(newPath) inside a git work tree: \(error.message)")
        }
        do throws(Git.Failure) {
            _ = try Git.run(["rev-parse", "--verify", "--quiet", "\(revision)^{commit}"], in: repository)
        } catch {
            throw ToolFailure("--against: '\(revision)' is not a git revision of \(repository)")
        }
        let file = newPath.split(separator: "/").last.map(String.init) ?? newPath
        let loader = GitRevisionSpecLoader(
            repository: repository, revision: revision, maxFileSize: SpecLimits.default.maxFileSize)
        return try SpecLoading.load(prefix + file, loader: loader).spec
    }

    /// The folder holding `path` (`.` for a bare file name).
    static func folder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }
}

/// The settings file next to the new spec (`groupwire-diff.conf`, format in Spec/LANGUAGE.md):
/// one setting per line, `#` starts a comment, `strict` or `ignore RULE...`.
struct DiffSettings {
    var strict = false
    var ignoredRules: Set<CompatibilityRule> = []

    /// Reads `folder/groupwire-diff.conf`; no file means no settings.
    /// - Throws: ``ToolFailure`` (status 2) for an unreadable file, an unknown setting or rule.
    static func load(folder: String) throws(ToolFailure) -> DiffSettings {
        let path = folder + "/" + SpecDiffTool.configFileName
        guard FileManager.default.fileExists(atPath: path) else { return DiffSettings() }
        guard let data = FileManager.default.contents(atPath: path), data.count <= 65_536 else {
            throw ToolFailure("\(path): cannot read the settings file (or it is larger than 64 KiB)")
        }
        return try parse(String(decoding: data, as: UTF8.self), path: path)
    }

    /// Parses the settings text; `path` names it in errors (`path:line: …`).
    static func parse(_ text: String, path: String) throws(ToolFailure) -> DiffSettings {
        var settings = DiffSettings()
        for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = rawLine.prefix { $0 != "#" }
            let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" }).map(String.init)
            guard let setting = words.first else { continue }
            switch setting {
            case "strict" where words.count == 1:
                settings.strict = true
            case "ignore" where words.count > 1:
                for name in words.dropFirst() {
                    guard let rule = CompatibilityRule.named(name) else {
                        throw ToolFailure("\(path):\(index + 1): unknown rule '\(name)'")
                    }
                    settings.ignoredRules.insert(rule)
                }
            default:
                throw ToolFailure(
                    "\(path):\(index + 1): expected 'strict' or 'ignore RULE...', found '\(line.trimmingCharacters(in: .whitespaces))'"
                )
            }
        }
        return settings
    }
}
