import Foundation
import Testing

@testable import GroupWireSpec

/// The changes between two in-memory versions, as `RULE path` strings.
private func changes(_ old: String, _ new: String) throws -> [String] {
    try report(old, new).changes.map { "\($0.rule.id) \($0.path)" }
}

private func report(_ old: String, _ new: String) throws -> CompatibilityReport {
    CompatibilityChecker.compare(old: try validSpec(old, path: "old.gwspec"), new: try validSpec(new, path: "new.gwspec"))
}

private let v1 = """
    package t version 1
    enum Color {
        0 black
        1 red
    }
    union Shape {
        1 circle: Float64
        2 square: Float64
    }
    message M @ 1 {
        1 id: UUID
        2 count: Int32
        3 color: Color
        4 name: String?
        5 shape: Shape
        6 ratio: Float64 = 1
        reserved 9
    }
    """

/// Applies one textual edit to `v1` and bumps the version.
private func edited(_ from: String, _ to: String) -> String {
    v1.replacingOccurrences(of: from, with: to).replacingOccurrences(of: "version 1", with: "version 2")
}

@Suite struct CompatibilityCheckerTests {
    @Test func drawTogetherV1ToV2IsCompatibleAndListsEveryAddition() throws {
        let report = CompatibilityChecker.compare(
            old: try Examples.spec("DrawTogether.gwspec"),
            new: try Examples.spec("Versions/DrawTogether-v2.gwspec"))
        #expect(report.verdict == .compatible)
        #expect(
            report.changes.map { "\($0.rule.id) \($0.path)" } == [
                "GW003 Stroke.width", "GW018 StrokeColor.purple", "GW003 UpsertStroke.drawnAt", "GW003 UpsertStroke.width",
            ])
        #expect(
            report.changes.first?.message
                == "field 4 'width: Float32' was added; old readers skip it, new readers use 3.0 when it is absent")
    }

    @Test func drawTogetherV2ToV3IsCompatibleWithTheRemovedFieldReserved() throws {
        let report = CompatibilityChecker.compare(
            old: try Examples.spec("Versions/DrawTogether-v2.gwspec"),
            new: try Examples.spec("Versions/DrawTogether-v3.gwspec"))
        #expect(report.verdict == .compatible)
        #expect(
            report.changes.map { "\($0.rule.id) \($0.path)" } == [
                "GW003 CanvasSnapshot.authors", "GW018 StrokeColor.orange", "GW002 UpsertStroke.drawnAt",
                "GW003 UpsertStroke.pressure",
            ])
        let removal = try #require(report.changes.first { $0.rule == .fieldRemoved })
        #expect(removal.direction == .none)
        #expect(removal.newReaderOldData == .decodes)
        #expect(removal.oldReaderNewData.failure == .defaulted)
        #expect(removal.severity == .info)
    }

    @Test func drawTogetherV1ToV3IsCompatible() throws {
        let report = CompatibilityChecker.compare(
            old: try Examples.spec("DrawTogether.gwspec"),
            new: try Examples.spec("Versions/DrawTogether-v3.gwspec"))
        #expect(report.verdict == .compatible)
        #expect(report.count(.breaking) == 0)
    }

    @Test func anIdenticalSpecHasNoChanges() throws {
        #expect(try changes(v1, v1) == [])
    }

    @Test(arguments: [
        ("removing a field without reserving it", "    2 count: Int32\n", "", "GW001 M.count", "warning"),
        ("changing Int32 to String", "2 count: Int32", "2 count: String", "GW004 M.count", "breaking"),
        ("changing Float64 to Timestamp", "6 ratio: Float64 = 1", "6 ratio: Timestamp", "GW005 M.ratio", "breaking"),
        ("widening Int32 to Int64", "2 count: Int32", "2 count: Int64", "GW006 M.count", "warning"),
        ("narrowing Int32 to Int8", "2 count: Int32", "2 count: Int8", "GW007 M.count", "breaking"),
        ("changing Int32 to UInt32", "2 count: Int32", "2 count: UInt32", "GW008 M.count", "breaking"),
        ("making an optional field required", "4 name: String?", "4 name: String", "GW009 M.name", "breaking"),
        ("reusing a reserved number", "    reserved 9\n", "    9 extra: Bool\n", "GW010 M.extra", "breaking"),
        ("renumbering a field", "2 count: Int32", "7 count: Int32", "GW011 M.count", "breaking"),
        ("renaming a field", "2 count: Int32", "2 total: Int32", "GW012 M.total", "warning"),
        ("changing a default", "6 ratio: Float64 = 1", "6 ratio: Float64 = 2", "GW013 M.ratio", "breaking"),
        ("changing the type id", "message M @ 1", "message M @ 2", "GW014 M", "breaking"),
        ("renaming a message", "message M @ 1", "message N @ 1", "GW017 M", "warning"),
        ("removing an enum case", "    1 red\n", "", "GW019 Color.red", "warning"),
        ("renumbering an enum case", "1 red", "2 red", "GW020 Color.red", "breaking"),
        ("renaming an enum case", "1 red", "1 crimson", "GW021 Color.crimson", "warning"),
        ("adding a union case", "2 square: Float64\n", "2 square: Float64\n        3 dot\n", "GW022 Shape.dot", "warning"),
        ("removing a union case", "    2 square: Float64\n", "", "GW023 Shape.square", "breaking"),
        ("changing a union payload", "2 square: Float64", "2 square: String", "GW024 Shape.square", "breaking"),
        ("renumbering a union case", "2 square: Float64", "3 square: Float64", "GW025 Shape.square", "breaking"),
        ("renaming a union case", "2 square: Float64", "2 box: Float64", "GW026 Shape.box", "warning"),
        ("dropping a reservation", "    reserved 9\n", "", "GW029 M", "warning"),
    ])
    func aSingleEditIsReportedUnderItsRule(_ name: String, _ from: String, _ to: String, _ expected: String, _ severity: String)
        throws
    {
        let new = edited(from, to)
        #expect(new != v1.replacingOccurrences(of: "version 1", with: "version 2"), "edit did not apply: \(name)")
        let found = try report(v1, new)
        #expect(found.changes.map { "\($0.rule.id) \($0.path)" } == [expected])
        #expect(found.changes.first?.severity.rawValue == severity)
        #expect(found.verdict == (severity == "breaking" ? .breaking : .compatible))
    }

    @Test func removingAMessageBreaksOldWritersLoudly() throws {
        let new = "package t version 2\nmessage Other @ 5 {\n}\n"
        let found = try report("package t version 1\nmessage M @ 1 {\n}\n", new)
        #expect(
            found.changes.map {
                "\($0.rule.id) \($0.path) \($0.direction.rawValue): \($0.newReaderOldData) / \($0.oldReaderNewData)"
            } == [
                "GW015 M old-writer-new-reader: loud unknownType (for every message of the type) / decodes",
                "GW016 Other new-writer-old-reader: decodes / loud unknownType (for every message of the type; negotiation keeps senders from sending it)",
            ])
        #expect(found.verdict == .breaking)
    }

    @Test func changingADeclarationKindIsBreaking() throws {
        let found = try changes(
            "package t version 1\nstruct P {\n}\nmessage M @ 1 {\n    1 p: P\n}\n",
            "package t version 2\nunion P {\n    1 a\n}\nmessage M @ 1 {\n    1 p: P\n}\n")
        #expect(found == ["GW027 P"])
    }

    @Test func renamingAStructWithTheSameMembersIsOnlyAWarning() throws {
        let found = try report(
            "package t version 1\nstruct P {\n    1 x: Int32\n}\nmessage M @ 1 {\n    1 p: P\n}\n",
            "package t version 2\nstruct Q {\n    1 x: Int32\n}\nmessage M @ 1 {\n    1 p: Q\n}\n")
        #expect(found.changes.map { "\($0.rule.id) \($0.path)" } == ["GW032 M.p", "GW028 P"])
        #expect(found.verdict == .compatible)
    }

    @Test func pointingAFieldAtADifferentStructIsBreaking() throws {
        let found = try changes(
            "package t version 1\nstruct P {\n    1 x: Int32\n}\nstruct Q {\n    1 y: String\n}\nmessage M @ 1 {\n    1 p: P\n}\n",
            "package t version 2\nstruct P {\n    1 x: Int32\n}\nstruct Q {\n    1 y: String\n}\nmessage M @ 1 {\n    1 p: Q\n}\n"
        )
        #expect(found == ["GW005 M.p"])
    }

    @Test func aShapeChangeWithoutAVersionBumpIsAWarning() throws {
        let found = try changes(v1, v1.replacingOccurrences(of: "2 count: Int32", with: "2 count: Int64"))
        #expect(found == ["GW006 M.count", "GW031 package"])
    }

    @Test func renamingThePackageIsAWarning() throws {
        let found = try changes(v1, v1.replacingOccurrences(of: "package t version 1", with: "package u version 1"))
        #expect(found == ["GW030 package"])
    }

    @Test func elementTypesOfArraysAreComparedLikeFields() throws {
        let found = try report(
            "package t version 1\nstruct S {\n    1 a: [Int32]\n}\n",
            "package t version 2\nstruct S {\n    1 a: [UInt32]\n}\n")
        #expect(found.changes.map(\.rule) == [.integerSignednessChanged])
        #expect(
            found.changes.first?.message
                == "type of elements of field 1 'a' changed from Int32 to UInt32; zigzag and plain varints decode to different numbers"
        )
    }

    @Test func rulesHaveUniqueStableIds() {
        let ids = CompatibilityRule.all.map(\.id)
        #expect(ids.count == 32)
        #expect(Set(ids).count == ids.count)
        #expect(ids == (1...32).map { "GW" + String(repeating: "0", count: 3 - String($0).count) + String($0) })
        #expect(Set(CompatibilityRule.all.map(\.name)).count == ids.count)
    }

    @Test func theLanguageTableListsEveryRuleWithBothDirections() throws {
        let text = String(decoding: try Data(contentsOf: Examples.root.appendingPathComponent("Spec/LANGUAGE.md")), as: UTF8.self)
        let rows = text.split(separator: "\n").filter { $0.hasPrefix("| GW") }.map(String.init)
        #expect(
            rows
                == CompatibilityRule.all.map {
                    "| \($0.id) | \($0.name) | \($0.severity.rawValue) | \($0.newReaderOldData) | \($0.oldReaderNewData) |"
                })
    }

    @Test func aReaderWithoutTheMovedTypeIDRejectsItAsAnUnknownType() throws {
        let old = try validSpec(v1, path: "old.gwspec")
        let new = try validSpec(edited("message M @ 1", "message M @ 7"), path: "new.gwspec")
        let view = ReaderWriterCompatibility(reader: new, writer: old)
        #expect(view.messages.map(\.typeID) == [1])
        #expect(view.messages.first?.readerName == nil)
        #expect(
            view.verdict(typeID: 1)
                == .incompatible([
                    ReaderFailure(rule: .typeIDChanged, path: "M", effect: .loud("unknownType", "for every message of the type"))
                ]))
        #expect(ReaderWriterCompatibility(reader: old, writer: new).verdict(typeID: 7)?.isCompatible == false)
    }

    @Test func rulesAreFoundByIdOrName() {
        #expect(CompatibilityRule.named("GW006") == .integerWidened)
        #expect(CompatibilityRule.named("gw006") == .integerWidened)
        #expect(CompatibilityRule.named("integer-widened") == .integerWidened)
        #expect(CompatibilityRule.named("GW099") == nil)
    }

    @Test func strictnessAndIgnoredRulesChangeTheVerdict() throws {
        let widened = try report(v1, edited("2 count: Int32", "2 count: Int64"))
        #expect(widened.verdict == .compatible)
        #expect(widened.verdict(strict: true) == .breaking)
        let ignored = widened.ignoring([.integerWidened])
        #expect(ignored.changes.isEmpty)
        #expect(ignored.verdict(strict: true) == .compatible)
        #expect(widened.messages.first?.oldReaderNewData?.isCompatible == false)
        #expect(ignored.messages.first?.oldReaderNewData == .compatible)
    }

    @Test func gitHubAnnotationsEscapeAndLocateEachChange() throws {
        let found = try report(v1, edited("2 count: Int32", "2 count: String"))
        #expect(
            found.renderAnnotations(newFiles: ["new.gwspec"], fallbackFile: "new.gwspec") == """
                ::error file=new.gwspec,line=12,col=14,title=GW004 field-wire-type-changed::M.count: type of field 2 'count' changed from Int32 to String (wire type VARINT to LEN); readers fail with a type mismatch (new reader of old data: loud typeMismatch (when the field is present); old reader of new data: loud typeMismatch (when the field is present))
                ::notice title=groupwire spec diff::compatibility: breaking (1 breaking, 0 warning, 0 info)

                """)
        #expect(CompatibilityReport.escapeData("50%\nnext\r") == "50%25%0Anext%0D")
        #expect(CompatibilityReport.escapeProperty("file=a:b,c.gwspec") == "file=a%3Ab%2Cc.gwspec")
    }

    @Test func theTextRenderingListsEachChangeWithItsDirectionAndTheVerdict() throws {
        let found = try report(v1, edited("2 count: Int32", "2 count: String"))
        #expect(
            found.renderText() == """
                compatibility: t 1 (\(found.old.fingerprint)) -> t 2 (\(found.new.fingerprint))
                GW004 breaking field-wire-type-changed M.count: type of field 2 'count' changed from Int32 to String (wire type VARINT to LEN); readers fail with a type mismatch
                    new reader of old data: loud typeMismatch (when the field is present); old reader of new data: loud typeMismatch (when the field is present); at new.gwspec:12:14
                message 1 M: new reader of old data: incompatible (GW004); old reader of new data: incompatible (GW004)
                verdict: breaking (1 breaking, 0 warning, 0 info)

                """)
    }

    @Test func theJSONRenderingIsStable() throws {
        let found = try report(v1, edited("1 red", "1 crimson"))
        #expect(
            found.renderJSON() == """
                {
                  "changes": [
                    {
                      "breaks": "none",
                      "location": "new.gwspec:4:5",
                      "message": "enum case 1 was renamed from 'red' to 'crimson'",
                      "newReaderOldData": {
                        "detail": "",
                        "error": null,
                        "failure": "none"
                      },
                      "oldReaderNewData": {
                        "detail": "",
                        "error": null,
                        "failure": "none"
                      },
                      "path": "Color.crimson",
                      "rule": "GW021",
                      "ruleName": "enum-case-renamed",
                      "severity": "warning"
                    }
                  ],
                  "messages": [
                    {
                      "newName": "M",
                      "newReaderOldData": {
                        "failures": [],
                        "verdict": "compatible"
                      },
                      "oldName": "M",
                      "oldReaderNewData": {
                        "failures": [],
                        "verdict": "compatible"
                      },
                      "typeID": 1
                    }
                  ],
                  "new": {
                    "fingerprint": "\(found.new.fingerprint)",
                    "package": "t",
                    "version": 2
                  },
                  "old": {
                    "fingerprint": "\(found.old.fingerprint)",
                    "package": "t",
                    "version": 1
                  },
                  "summary": {
                    "breaking": 0,
                    "info": 0,
                    "warning": 1
                  },
                  "verdict": "compatible"
                }

                """)
    }
}
