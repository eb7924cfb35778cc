import GroupWire
import GroupWireDynamic
import GroupWireTools
import Testing

/// The command logic in process: results, statuses and messages without a subprocess.
@Suite struct ToolTests {
    static let draw = CLIRunner.root.appendingPathComponent("Spec/Examples/DrawTogether.gwspec").path

    /// Two DrawTogether frames and the JSON `decode` prints for them.
    static func twoFrames() throws -> (bytes: [UInt8], firstLength: Int, output: String) {
        let first = try FrameHex.frame(typeID: 2, body: [0x10, 0x05])
        let second = try FrameHex.frame(typeID: 2, body: [0x10, 0x07])
        return (first + second, first.count, "{\"pointCount\":5,\"strokes\":[]}\n{\"pointCount\":7,\"strokes\":[]}\n")
    }

    @Test(arguments: ["plain", "demo", "xxd", "hexdump"])
    func decodeReadsEveryHexLayoutInspectReads(layout: String) throws {
        let (bytes, firstLength, expected) = try Self.twoFrames()
        let hex = bytes.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }
        let text: String
        switch layout {
        case "plain":
            text = hex.joined(separator: " ") + "\n"
        case "demo":  // what `groupwire demo --hex` writes: comment lines, then hex lines
            text =
                "# GroupWire frames, hex: 2 frames\n# frame 0: first\n" + hex.prefix(firstLength).joined()
                + "\n# frame 1: second\n"
                + hex.dropFirst(firstLength).joined() + "\n"
        case "xxd":
            text =
                "00000000: "
                + stride(from: 0, to: hex.count, by: 2).map { hex[$0..<min($0 + 2, hex.count)].joined() }
                .joined(separator: " ") + "  " + String(repeating: ".", count: bytes.count) + "\n"
        default:  // hexdump -C
            text =
                "00000000  " + hex.joined(separator: " ") + "  |" + String(repeating: ".", count: bytes.count) + "|\n"
                + String(repeating: "0", count: 6) + String(bytes.count, radix: 16) + "\n"
        }
        let result = DecodeTool(specPath: Self.draw).run(input: Array(text.utf8))
        #expect(result.messages == "")
        #expect(result.status == .ok)
        #expect(result.outputText == expected)
    }

    @Test func decodePrintsBothMessagesAroundThreeStrayBytesThatLookLikeAFrameStart() throws {
        let (bytes, firstLength, _) = try Self.twoFrames()
        let input = Array(bytes[..<firstLength]) + [0xC7, 0x01, 0x30] + bytes[firstLength...]
        let result = DecodeTool(specPath: Self.draw, envelope: true).run(input: input)
        #expect(result.status == .invalidInput)
        #expect(
            result.outputText == """
                {"offset":0,"type":"CanvasSnapshot","typeID":2,"value":{"pointCount":5,"strokes":[]}}
                {"offset":\(firstLength + 3),"type":"CanvasSnapshot","typeID":2,"value":{"pointCount":7,"strokes":[]}}

                """)
        #expect(
            result.messages.hasPrefix("groupwire: error: frame at offset \(firstLength): truncated at offset \(firstLength): "))
    }

    @Test func decodeEnvelopesCarryEachFramesOffsetInTheInput() throws {
        let first = try FrameHex.frame(typeID: 2, body: [0x10, 0x05])
        let second = try FrameHex.frame(typeID: 1, body: [])
        let result = DecodeTool(specPath: Self.draw, envelope: true).run(input: first + [0x00] + second)
        #expect(result.status == .invalidInput)
        #expect(
            result.outputText == """
                {"offset":0,"type":"CanvasSnapshot","typeID":2,"value":{"pointCount":5,"strokes":[]}}
                {"offset":\(first.count + 1),"type":"UpsertStroke","typeID":1,"value":{"color":"black","id":"00000000-0000-0000-0000-000000000000","point":{"x":0,"y":0}}}

                """)
        #expect(
            result.messages
                == "groupwire: error: frame at offset \(first.count): badMagic at offset \(first.count): 1 byte before the next frame are not a frame (no magic byte 0xC7)\n"
        )
    }

    @Test func encodeOfEmptyInputIsInvalidJSON() {
        let result = EncodeTool(specPath: Self.draw, typeName: "UpsertStroke").run(input: [])
        #expect(result.status == .invalidInput)
        #expect(result.messages.hasPrefix("groupwire: error: invalid JSON at line 1, column 1"))
    }

    @Test func aMissingSpecIsAnErrorWithStatusTwo() {
        let result = DecodeTool(specPath: "/no/such/spec.gwspec").run(input: [0xC7])
        #expect(result.status == .failure)
        #expect(result.messages.hasPrefix("groupwire: error:"))
        #expect(result.output.isEmpty)
    }
}
