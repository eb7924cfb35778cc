import Foundation
import GroupWire
import GroupWireCapture
import GroupWireCompression
import GroupWireExamples
import GroupWireTools
import Testing

/// The demo file's messages: generated example types, a compressed and fragmented
/// snapshot, and the same bytes on every run.
@Suite struct DemoMessagesTests {
    @Test func theDemoHasThreeDataFramesThenOneCompressedSnapshotInFragments() throws {
        let frames = try DemoMessages.frames().map(\.frame)
        #expect(frames.prefix(3).map(\.typeID) == [1, 2, 10])
        #expect(frames.prefix(3).allSatisfy { $0.kind == .data && $0.compression == nil && $0.fragment == nil })
        let fragments = Array(frames.dropFirst(3))
        #expect(fragments.count >= 2)
        for (index, fragment) in fragments.enumerated() {
            #expect(fragment.kind == .fragment)
            #expect(fragment.typeID == 2)
            #expect(fragment.flags.contains(.compressed))
            let compression = try #require(fragment.compression)
            #expect(compression.codec == CompressionInfo.zstdCodec)
            #expect(compression.dictionaryID == 0)
            let info = try #require(fragment.fragment)
            #expect(info.messageID == DemoMessages.largeMessageID)
            #expect(info.index == UInt32(index))
            #expect(info.count == UInt32(fragments.count))
        }
        #expect(try FrameEncoder().encode(frames[3]).count <= Limits.default.maxFrameSize)
    }

    @Test func theDataFramesDecodeWithTheGeneratedTypesToTheDemoValues() throws {
        let frames = try DemoMessages.frames().map(\.frame)
        let stroke = try UpsertStroke(wirePayload: frames[0].body)
        #expect(stroke.color == .red)
        #expect(stroke.point == Point(x: 10.5, y: 20.25))
        let snapshot = try CanvasSnapshot(wirePayload: frames[1].body)
        #expect(snapshot.strokes.map(\.points.count) == [4, 3, 2])
        #expect(snapshot.strokes.map(\.color) == [.red, .blue, .green])
        #expect(snapshot.pointCount == 9)
        let state = try PlaybackState(wirePayload: frames[2].body)
        #expect(state.title == "Movie night")
        #expect(state.position == 42.5)
        #expect(state.isPlaying)
        #expect(state.event == .play)
        #expect(state.changedBy.displayName == "Ada")
        #expect(state.source == .catalog(CatalogItem(contentID: DemoMessages.contentID)))
        #expect(state.metadata == ["room": "living room"])
    }

    @Test func theFragmentsReassembleAndDecompressToTheLargeSnapshot() throws {
        let frames = try DemoMessages.frames().map(\.frame)
        var reassembler = Reassembler<Int>(clock: ReassemblyClock { .zero })
        var whole: [Frame] = []
        for frame in frames.dropFirst(3) {
            let result = reassembler.receive(frame, from: 0)
            #expect(result.drops.isEmpty)
            whole.append(contentsOf: result.message.map { [$0] } ?? [])
        }
        let message = try #require(whole.count == 1 ? whole.first : nil)
        let compression = try #require(message.compression)
        let payload = try PayloadCompressor().decompress(message.body, info: compression)
        #expect(UInt64(payload.count) == compression.contentSize)
        #expect(message.body.count < payload.count)
        let snapshot = try CanvasSnapshot(wirePayload: payload)
        #expect(snapshot == DemoMessages.largeCanvasSnapshot())
        #expect(snapshot.strokes.count == 200)
        #expect(snapshot.strokes.allSatisfy { $0.points.count == 50 })
        #expect(snapshot.pointCount == 10_000)
        #expect(Set(snapshot.strokes.map(\.id)).count == 200)
    }

    @Test func neighbouringPointsOfAStrokeAreAtMostThreeApartOnEachAxis() {
        for stroke in DemoMessages.largeCanvasSnapshot().strokes + DemoMessages.canvasSnapshot().strokes {
            for (a, b) in zip(stroke.points, stroke.points.dropFirst()) {
                #expect(abs(a.x - b.x) <= 3 && abs(a.y - b.y) <= 3)
            }
        }
    }

    @Test func theDemoFileIsTheSameOnEveryRun() throws {
        let first = try FrameFileWriter().contents(of: DemoMessages.frames())
        let second = try FrameFileWriter().contents(of: DemoMessages.frames())
        #expect(first == second)
        #expect(DemoMessages.upsertStroke().id == DemoMessages.upsertStroke().id)
        #expect(DemoMessages.upsertStroke().id.uuidString == "511752AD-96A5-4D5D-944E-33C53795E1C7")
    }

    @Test func decodeReassemblesTheDemoAndReportsAMissingFragment() throws {
        let spec = CLIRunner.root.appendingPathComponent("Spec/Examples/Demo.gwspec").path
        let frames = try DemoMessages.frames()
        let tool = DecodeTool(specPath: spec, inputFormat: .raw, envelope: true)

        let full = tool.run(input: try FrameFileWriter().contents(of: frames))
        #expect(full.status == .ok)
        #expect(full.messages == "")
        let documents = try full.outputText.split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        #expect(documents.map { $0["type"] as? String } == ["UpsertStroke", "CanvasSnapshot", "PlaybackState", "CanvasSnapshot"])
        let large = try #require(documents.last?["value"] as? [String: Any])
        #expect((large["strokes"] as? [Any])?.count == 200)
        #expect(large["pointCount"] as? Int == 10_000)

        let truncated = tool.run(input: try FrameFileWriter().contents(of: Array(frames.dropLast())))
        #expect(truncated.status == .invalidInput)
        #expect(truncated.outputText.split(separator: "\n").count == 3)
        #expect(
            truncated.messages
                == "groupwire: error: the input ends inside 1 fragmented message(s) whose fragments are not all there\n")
    }
}
