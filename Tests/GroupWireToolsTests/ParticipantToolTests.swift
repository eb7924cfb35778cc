import Foundation
import GroupWire
import GroupWireCompression
import GroupWireExamplesV3
import GroupWireSession
import GroupWireTestSupport
import GroupWireTesting
import Testing

@testable import GroupWireTools

/// `groupwire participant`'s parts: which specs it runs, its event lines, its frame counts,
/// and its refusals as a process.
@Suite(.heavy) struct ParticipantToolTests {
    @Test func itRunsDrawTogetherVersionsOneAndThreeAndSaysSoForAnyOtherSpec() throws {
        #expect(try ParticipantTool.schema(RepositoryPaths.path("Spec/Examples/DrawTogether.gwspec")).1 == 1)
        #expect(try ParticipantTool.schema(RepositoryPaths.path("Spec/Examples/Versions/DrawTogether-v3.gwspec")).1 == 3)
        for path in ["Spec/Examples/Versions/DrawTogether-v2.gwspec", "Spec/Examples/WatchTogether.gwspec"] {
            do {
                _ = try ParticipantTool.schema(RepositoryPaths.path(path))
                Issue.record("\(path) was accepted")
            } catch {
                #expect(
                    error.result.messages.contains("has generated types for draw.together versions 1 and 3 only"),
                    "\(error.result.messages)")
                #expect(error.result.status == .failure)
            }
        }
    }

    @Test func eventsAreOneJSONLineEachAndReadBack() throws {
        var event = ParticipantEvent(.snapshot)
        event.participant = "467e752c-96c7-8dfd-9838-e97e7a227a22"
        event.points = 12_000
        event.compressed = true
        event.milliseconds = 56.5
        #expect(
            event.line
                == #"{"compressed":true,"event":"snapshot","milliseconds":56.5,"participant":"467e752c-96c7-8dfd-9838-e97e7a227a22","points":12000}"#
                + "\n")
        #expect(ParticipantEvent(line: event.line.dropLast()) == event)
        #expect(ParticipantEvent(line: "groupwire relay: listening on 127.0.0.1:1") == nil)
        #expect(ParticipantEvent(line: #"{"event":"dance"}"#) == nil)
    }

    /// The counts come from the frames' headers: a snapshot over the frame size goes
    /// compressed in fragments, a stroke in one uncompressed frame.
    @Test func theCountingTransportCountsFramesFragmentsAndCompressionByTheirHeaders() async throws {
        let hub = InProcessHub(clock: VirtualClock())
        let counting = CountingTransport(try await hub.join(.numbered(1)))
        _ = try await hub.join(.numbered(2))
        let messenger = Messenger(transport: counting, configuration: MessengerConfiguration(codec: try PayloadCompressor()))
        let snapshot = CanvasVersion3.canvas(strokes: 300, seed: 1)
        try await messenger.send(snapshot)
        try await messenger.send(CanvasVersion3.stroke(0, by: 1))
        let counts = counting.statistics
        let payload = try snapshot.messagePayload()
        let frames = try SendPipeline(codec: try PayloadCompressor()).frames(
            typeID: CanvasSnapshot.wireTypeID, payload: payload, messageID: 0, profile: .default(codec: try PayloadCompressor()))
        #expect(frames.count >= 2)
        #expect(counts.messages == 2 && counts.fragmentedMessages == 1)
        #expect(counts.fragments == frames.count && counts.frames == frames.count + 1)
        #expect(counts.compressedPayloadBytes == payload.count)
        #expect(counts.compressedBodyBytes > 0 && counts.compressedBodyBytes < payload.count)
        let stroke = FrameEncoder.frameSize(
            typeID: UpsertStroke.wireTypeID, compression: nil, fragment: nil, session: nil,
            bodyCount: try CanvasVersion3.stroke(0, by: 1).messagePayload().count)
        #expect(counts.frameBytes == frames.map(\.count).reduce(0, +) + stroke)
        #expect(counts.controlFrames == 0 && counts.jsonBytes == 0)
    }

    @Test func withoutATokenOrARelayItStopsWithAReason() throws {
        let noToken = try CLIRunner.run(["participant", "--port", "9"])
        #expect(noToken.status == 2 && noToken.errors.contains("no token: pass --token or set GROUPWIRE_TOKEN"))
        let badVersion = try CLIRunner.run([
            "participant", "--port", "9", "--token", "x", "--spec", "Spec/Examples/Versions/DrawTogether-v2.gwspec",
        ])
        #expect(badVersion.status == 2 && badVersion.errors.contains("versions 1 and 3 only"))
        // Port 9 (discard) has no relay on loopback: the connection fails, reported as an event too.
        let nobody = try CLIRunner.run(["participant", "--port", "9", "--token", "x", "--timeout", "5"])
        #expect(nobody.status == 1)
        #expect(
            nobody.outputText.contains(#""event":"error""#)
                && nobody.errors.contains("cannot join through the relay at 127.0.0.1:9"))
    }
}
