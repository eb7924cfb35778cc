import Foundation
import GroupWireJSON
import GroupWireSpec
import GroupWireTestSupport
import GroupWireTools
import Testing

/// `groupwire negotiate A B`: the agreement two peers on these specs make, as text and JSON,
/// with verdicts equal to `spec diff`'s in each direction and the documented exit statuses.
@Suite struct NegotiateToolTests {
    static let v1 = RepositoryPaths.path("Spec/Examples/DrawTogether.gwspec")
    static let v2 = RepositoryPaths.path("Spec/Examples/Versions/DrawTogether-v2.gwspec")
    static let v3 = RepositoryPaths.path("Spec/Examples/Versions/DrawTogether-v3.gwspec")
    static let breaking = RepositoryPaths.path("Tests/Specs/Negotiation/DrawTogether-breaking.gwspec")
    static let watch = RepositoryPaths.path("Spec/Examples/WatchTogether.gwspec")

    static func spec(_ path: String) throws -> SpecSet {
        try SpecCompiler().compile(entry: path, loader: FileSpecLoader()).checkedSpec()
    }

    @Test func twoDrawTogetherVersionsAgreeAndTheTextSaysHowEachWay() {
        let result = NegotiateTool(pathA: Self.v1, pathB: Self.v2).run()
        #expect(result.status == .ok)
        #expect(
            result.outputText == """
                negotiate: draw.together 1 (91005ed7f5603ca2) <-> draw.together 2 (c43a0e027f9d47a9)
                status: agreed
                envelope version: 1
                A -> B: zstd, no dictionary, max frame 65536, max message 16777216
                B -> A: zstd, no dictionary, max frame 65536, max message 16777216
                type 1 UpsertStroke: A -> B compatible; B -> A compatible
                type 2 CanvasSnapshot: A -> B compatible; B -> A compatible

                """)
        let noZstd = NegotiateTool(pathA: Self.v1, pathB: Self.v2, noZstdB: true).run().outputText
        #expect(noZstd.contains("A -> B: uncompressed, max frame 65536") && noZstd.contains("B -> A: uncompressed"))
        #expect(
            NegotiateTool(pathA: Self.v3, pathB: Self.v3).run().outputText.contains(
                "type 1 UpsertStroke: A -> B same; B -> A same"))
    }

    @Test(arguments: [(v1, v2), (v2, v1), (v1, v3), (v3, v2)])
    func theJSONVerdictsAreSpecDiffsInEachDirection(_ a: String, _ b: String) throws {
        let result = NegotiateTool(pathA: a, pathB: b, format: .json).run()
        #expect(result.status == .ok)
        let json = try JSONParser().parse(result.output)
        #expect(json["status"]?.stringValue == "agreed")
        let aToB = ReaderWriterCompatibility(reader: try Self.spec(b), writer: try Self.spec(a))
        let bToA = ReaderWriterCompatibility(reader: try Self.spec(a), writer: try Self.spec(b))
        let types = try #require(json["types"]?.arrayValue)
        #expect(types.count == 2)
        for type in types {
            let typeID = try #require(type["typeID"].flatMap { UInt64("\($0.rendered())") })
            #expect(type["aToB"]?["verdict"]?.stringValue == aToB.verdict(typeID: typeID)?.name)
            #expect(type["bToA"]?["verdict"]?.stringValue == bToA.verdict(typeID: typeID)?.name)
        }
    }

    @Test func aBreakingSpecNamesTheTypeAndRuleAndExitsOne() throws {
        let result = NegotiateTool(pathA: Self.v1, pathB: Self.breaking).run()
        #expect(result.status == .invalidInput)
        let lines = result.outputText.split(separator: "\n").map(String.init)
        #expect(
            lines.contains(
                "type 1 UpsertStroke: A -> B incompatible (GW004 field-wire-type-changed UpsertStroke.color); B -> A incompatible (GW004 field-wire-type-changed UpsertStroke.color)"
            ))
        #expect(lines.contains("type 2 CanvasSnapshot: A -> B unknown to B; B -> A -"))
        #expect(lines.contains("type 9 EraseAll: A -> B -; B -> A unknown to A"))
        let json = try JSONParser().parse(NegotiateTool(pathA: Self.v1, pathB: Self.breaking, format: .json).run().output)
        let upsert = try #require(json["types"]?.arrayValue?.first)
        let failure = try #require(upsert["aToB"]?["failures"]?.arrayValue?.first)
        #expect(failure["rule"]?.stringValue == "GW004" && failure["name"]?.stringValue == "field-wire-type-changed")
        #expect(failure["path"]?.stringValue == "UpsertStroke.color")
    }

    @Test func anotherPackageIsIncompatibleWithTheReason() throws {
        let result = NegotiateTool(pathA: Self.v1, pathB: Self.watch, format: .json).run()
        #expect(result.status == .invalidInput)
        let json = try JSONParser().parse(result.output)
        #expect(json["status"]?.stringValue == "incompatible")
        #expect(json["reason"]?["kind"]?.stringValue == "otherPackage")
        #expect(json["reason"]?["reason"]?.stringValue == "this peer speaks draw.together 1, the other watch.together 1")
    }

    @Test func aMissingOrBrokenSpecIsAUsageFailure() throws {
        let missing = NegotiateTool(pathA: "no/such.gwspec", pathB: Self.v1).run()
        #expect(missing.status == .failure && missing.output.isEmpty)
        #expect(missing.messages == "groupwire: error: cannot find spec file 'no/such.gwspec'\n")
        let folder = try RepositoryPaths.temporaryDirectory()
        let broken = folder.appendingPathComponent("broken.gwspec")
        try Data("package x version 1\nmessage M @ 1 { 1 a: Nope }\n".utf8).write(to: broken)
        let result = NegotiateTool(pathA: Self.v1, pathB: broken.path).run()
        #expect(result.status == .failure)
        #expect(result.messages.contains("broken.gwspec:2:") && result.messages.hasSuffix("the spec has errors\n"))
    }

    @Test func theBinaryPrintsJSONAndExitsByTheAgreement() throws {
        let run = try CLIRunner.run([
            "negotiate", "Spec/Examples/DrawTogether.gwspec", "Tests/Specs/Negotiation/DrawTogether-breaking.gwspec",
            "--format", "json", "--no-zstd-a",
        ])
        #expect(run.status == 1)
        let json = try JSONParser().parse(run.output)
        #expect(json["aToB"]?["codec"] == .null && json["bToA"]?["codec"] == .null)
        #expect(json["types"]?.arrayValue?.count == 3)
        let usage = try CLIRunner.run(["negotiate", "Spec/Examples/DrawTogether.gwspec"])
        #expect(usage.status == 2 && usage.errors.contains("Missing expected argument"))
    }
}
