import Foundation
import GroupWireDynamic
import Testing

/// `groupwire spec diff` as a CI job runs it: `--against` a git revision of a temporary
/// repository, strictness, ignored rules from the command line and the settings file, and
/// the three output formats.
@Suite struct SpecDiffEndToEndTests {
    static let common = """
        package t.common version 1
        struct Point {
            1 x: Int32
            2 y: Int32
        }

        """

    static let entry = """
        package t version 1
        import "common.gwspec"
        message Move @ 1 {
            1 to: Point
            2 label: String
        }

        """

    /// A repository whose first commit holds Spec/entry.gwspec and Spec/common.gwspec.
    struct Repository {
        let root: URL

        init() throws {
            root = try CLIRunner.temporaryDirectory()
            try FileManager.default.createDirectory(at: root.appendingPathComponent("Spec"), withIntermediateDirectories: true)
            try write("Spec/common.gwspec", SpecDiffEndToEndTests.common)
            try write("Spec/entry.gwspec", SpecDiffEndToEndTests.entry)
            try git(["init", "--quiet"])
            try git(["add", "."])
            try git(["-c", "user.name=Test", "-c", "user.email=test@example.com", "commit", "--quiet", "-m", "v1"])
        }

        func write(_ path: String, _ text: String) throws {
            try Data(text.utf8).write(to: root.appendingPathComponent(path))
        }

        func edit(_ path: String, _ from: String, _ to: String) throws {
            let text = String(decoding: try Data(contentsOf: root.appendingPathComponent(path)), as: UTF8.self)
            #expect(text.contains(from), "\(path) has no '\(from)'")
            try write(path, text.replacingOccurrences(of: from, with: to))
        }

        func git(_ arguments: [String]) throws {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["git", "-C", root.path] + arguments
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            process.waitUntilExit()
            #expect(process.terminationStatus == 0, "git \(arguments)")
        }

        func diff(_ arguments: [String]) throws -> CLIRunner.Run {
            try CLIRunner.run(["spec", "diff"] + arguments, in: root)
        }

        func remove() {
            try? FileManager.default.removeItem(at: root)
        }
    }

    @Test func againstTheCommittedRevisionAnUnchangedSpecIsCompatible() throws {
        let repository = try Repository()
        defer { repository.remove() }
        let run = try repository.diff(["Spec/entry.gwspec", "--against", "HEAD"])
        #expect(run.status == 0, "\(run.errors)")
        #expect(run.outputText.hasSuffix("verdict: compatible (0 breaking, 0 warning, 0 info)\n"))
    }

    @Test func againstARevisionTheImportedFileIsReadAtThatRevisionToo() throws {
        let repository = try Repository()
        defer { repository.remove() }
        try repository.edit("Spec/common.gwspec", "1 x: Int32", "1 x: Int64")
        try repository.edit("Spec/entry.gwspec", "version 1", "version 2")
        let run = try repository.diff(["Spec/entry.gwspec", "--against", "HEAD"])
        #expect(run.status == 0, "a widened integer is a warning: \(run.outputText) \(run.errors)")
        #expect(run.outputText.contains("GW006 warning  integer-widened Point.x"))
        #expect(
            run.outputText.contains(
                "old reader of new data: loud invalidValue (for values that do not fit Int32); at Spec/common.gwspec:3:10"))
        #expect(
            run.outputText.contains(
                "message 1 Move: new reader of old data: compatible; old reader of new data: incompatible (GW006)"))
        // Run from inside the spec folder: the path at the revision is found from the work tree's prefix.
        let inside = try CLIRunner.run(
            ["spec", "diff", "entry.gwspec", "--against", "HEAD"], in: repository.root.appendingPathComponent("Spec"))
        #expect(inside.status == 0, "\(inside.errors)")
        #expect(inside.outputText.contains("GW006 warning  integer-widened Point.x"))
    }

    @Test func strictFailsOnWarningsFromTheFlagOrTheSettingsFileAndIgnoredRulesDoNotCount() throws {
        let repository = try Repository()
        defer { repository.remove() }
        try repository.edit("Spec/common.gwspec", "1 x: Int32", "1 x: Int64")
        try repository.edit("Spec/entry.gwspec", "version 1", "version 2")
        #expect(try repository.diff(["Spec/entry.gwspec", "--against", "HEAD", "--strict"]).status == 1)
        let ignored = try repository.diff(["Spec/entry.gwspec", "--against", "HEAD", "--strict", "--ignore", "GW006"])
        #expect(ignored.status == 0)
        #expect(!ignored.outputText.contains("GW006"))
        try repository.write("Spec/groupwire-diff.conf", "# CI settings\nstrict\n")
        #expect(try repository.diff(["Spec/entry.gwspec", "--against", "HEAD"]).status == 1)
        try repository.write("Spec/groupwire-diff.conf", "strict  # fail on warnings\nignore integer-widened GW031\n")
        let configured = try repository.diff(["Spec/entry.gwspec", "--against", "HEAD"])
        #expect(configured.status == 0, "\(configured.outputText)")
        #expect(configured.outputText.hasSuffix("verdict: compatible (0 breaking, 0 warning, 0 info)\n"))
    }

    @Test func aBreakingChangeExitsOneWithGitHubAnnotationsAtTheNewLocation() throws {
        let repository = try Repository()
        defer { repository.remove() }
        try repository.edit("Spec/entry.gwspec", "2 label: String", "2 label: Int32")
        try repository.edit("Spec/entry.gwspec", "version 1", "version 2")
        let run = try repository.diff(["Spec/entry.gwspec", "--against", "HEAD", "--format", "github"])
        #expect(run.status == 1)
        let lines = run.outputText.split(separator: "\n").map(String.init)
        #expect(
            lines.first?.hasPrefix(
                "::error file=Spec/entry.gwspec,line=5,col=14,title=GW004 field-wire-type-changed::Move.label: type of field 2 'label' changed from String to Int32"
            ) == true,
            "\(lines)")
        #expect(lines.last == "::notice title=groupwire spec diff::compatibility: breaking (1 breaking, 0 warning, 0 info)")
        let json = try repository.diff(["Spec/entry.gwspec", "--against", "HEAD", "--format", "json"])
        #expect(json.status == 1)
        let parsed = try JSONParser().parse(json.output)
        #expect(parsed["verdict"] == "breaking")
        #expect(parsed["messages"]?.arrayValue?.first?["oldReaderNewData"]?["verdict"] == "incompatible")
        #expect(parsed["changes"]?.arrayValue?.first?["newReaderOldData"]?["error"] == "typeMismatch")
    }

    @Test func aRemovedMessageIsAnnotatedOnTheNewFileWithItsOldLocation() throws {
        let repository = try Repository()
        defer { repository.remove() }
        try repository.edit(
            "Spec/entry.gwspec", "message Move @ 1 {\n    1 to: Point\n    2 label: String\n}",
            "message Jump @ 2 {\n    1 to: Point\n}")
        try repository.edit("Spec/entry.gwspec", "version 1", "version 2")
        let run = try repository.diff(["Spec/entry.gwspec", "--against", "HEAD", "--format", "github"])
        #expect(run.status == 1)
        let lines = run.outputText.split(separator: "\n").map(String.init)
        #expect(lines.count == 3, "\(lines)")
        #expect(
            lines.first?.hasPrefix("::notice file=Spec/entry.gwspec,line=3,col=1,title=GW016 message-added::Jump: ") == true,
            "\(lines)")
        #expect(
            lines.dropFirst().first?.hasPrefix("::error file=Spec/entry.gwspec,title=GW015 message-removed::Move: ") == true,
            "\(lines)")
        #expect(lines.dropFirst().first?.hasSuffix(" [old version at HEAD:Spec/entry.gwspec:3:1]") == true, "\(lines)")
    }

    @Test func againstOutsideAGitWorkTreeOrAnUnknownRevisionIsAUsageError() throws {
        let folder = try CLIRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(Self.entry.utf8).write(to: folder.appendingPathComponent("entry.gwspec"))
        let outside = try CLIRunner.run(["spec", "diff", "entry.gwspec", "--against", "HEAD"], in: folder)
        #expect(outside.status == 2)
        #expect(
            outside.errors.hasPrefix("groupwire: error: --against needs entry.gwspec inside a git work tree"), "\(outside.errors)"
        )

        let repository = try Repository()
        defer { repository.remove() }
        let unknown = try repository.diff(["Spec/entry.gwspec", "--against", "no-such-branch"])
        #expect(unknown.status == 2)
        #expect(unknown.errors.contains("'no-such-branch' is not a git revision"), "\(unknown.errors)")
        try repository.write("Spec/new.gwspec", Self.common)
        let missing = try repository.diff(["Spec/new.gwspec", "--against", "HEAD"])
        #expect(missing.status == 2)
        #expect(missing.errors.contains("cannot find spec file 'Spec/new.gwspec'"), "\(missing.errors)")
    }

    @Test func badArgumentsAndSettingsExitTwo() throws {
        let repository = try Repository()
        defer { repository.remove() }
        let both = try repository.diff(["Spec/entry.gwspec", "Spec/entry.gwspec", "--against", "HEAD"])
        #expect(both.status == 2)
        #expect(both.errors.contains("with --against, give only the NEW spec file"))
        let rule = try repository.diff(["Spec/entry.gwspec", "Spec/entry.gwspec", "--ignore", "GW999"])
        #expect(rule.status == 2)
        #expect(rule.errors.contains("unknown rule 'GW999' for --ignore"))
        try repository.write("Spec/groupwire-diff.conf", "strict\nignore\n")
        let settings = try repository.diff(["Spec/entry.gwspec", "Spec/entry.gwspec"])
        #expect(settings.status == 2)
        #expect(
            settings.errors.contains("Spec/groupwire-diff.conf:2: expected 'strict' or 'ignore RULE...', found 'ignore'"),
            "\(settings.errors)")
    }
}
