import Foundation
import GroupWire
import GroupWireCompression
import GroupWireExamples
import GroupWireSession
import GroupWireTesting
import Testing

// README: begin
func draw(over transport: some Transport) async throws {
    let messenger = Messenger(transport: transport, configuration: .init(codec: try PayloadCompressor()))
    let strokes = try messenger.messages(of: UpsertStroke.self)
    try await messenger.send(UpsertStroke(id: UUID(), color: .red, point: Point(x: 12.5, y: -3.25)))
    for await (stroke, context) in strokes {
        print("\(context.source) drew at \(stroke.point)")
    }
}
// README: end

/// The README's messenger example is this file's `draw(over:)`, compiled here and run
/// over the hub.
@Suite struct ReadmeExampleTests {
    @Test("The README's example is the code compiled here, line for line")
    func readmeMatchesCompiledCode() throws {
        let here = URL(fileURLWithPath: #filePath)
        let root = here.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        let source = try String(contentsOf: here, encoding: .utf8)
        let compiled = source.components(separatedBy: "// README: begin\n")[1].components(separatedBy: "// README: end")[0]
        let marker = "compiled and run by Tests/GroupWireSessionTests/ReadmeExampleTests.swift. -->\n```swift\n"
        let parts = readme.components(separatedBy: marker)
        try #require(parts.count == 2, "the README has one marked example")
        let documented = parts[1].components(separatedBy: "```")[0]
        #expect(documented == compiled)
    }

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
