import Foundation
import GroupWire
import GroupWireCompression
import GroupWireExamples
import GroupWireSession
import GroupWireTesting
import Testing

// README.md: begin
func draw(over transport: some Transport) async throws {
    let messenger = Messenger(transport: transport, configuration: .init(codec: try PayloadCompressor()))
    let strokes = try messenger.messages(of: UpsertStroke.self)
    try await messenger.send(UpsertStroke(id: UUID(), color: .red, point: Point(x: 12.5, y: -3.25)))
    for await (stroke, context) in strokes {
        print("\(context.source) drew at \(stroke.point)")
    }
}
// README.md: end

/// The README's messenger example is this file's `draw(over:)` (DocumentSnippetTests checks
/// they are the same), run here over the hub.
@Suite struct ReadmeExampleTests {
    @Test("The README's example sends a stroke and receives the others' strokes until the transport closes")
    func readmeExampleRuns() async throws {
        let hub = InProcessHub(clock: VirtualClock())
        let alice = try await hub.join(.numbered(1))
        let bob = Messenger(transport: try await hub.join(.numbered(2)))
        let toBob = try bob.messages(of: UpsertStroke.self)
        let drawing = Task { try await draw(over: alice) }
        // Wait until the example has sent its stroke (and so listens for strokes).
        var polls = 0
        while await hub.inFlightCount == 0, polls < 10_000 {
            await Task.yield()
            polls += 1
        }
        try #require(await hub.inFlightCount == 1)
        try await bob.send(UpsertStroke(id: UUID(), color: .blue, point: Point(x: 1, y: 2)))
        await hub.runUntilIdle()
        await hub.close()
        try await drawing.value
        let got = await collect(toBob)
        #expect(got.map(\.message.point) == [Point(x: 12.5, y: -3.25)])
        #expect(got.map(\.context.source) == [.numbered(1)])
    }
}
