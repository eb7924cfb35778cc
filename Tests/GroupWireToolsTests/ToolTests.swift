import GroupWire
import GroupWireDynamic
import GroupWireTools
import Testing

/// The command logic in process: results, statuses and messages without a subprocess.
@Suite struct ToolTests {
    static let draw = CLIRunner.root.appendingPathComponent("Spec/Examples/DrawTogether.gwspec").path

    @Test func hexTextIgnoresWhitespaceAndRejectsStrayCharacters() throws {
        #expect(try HexText.decode(Array("c7 01\n0A".utf8)).get() == [0xC7, 0x01, 0x0A])
        guard case .failure(let error) = HexText.decode(Array("c70".utf8)) else {
            Issue.record("odd digits decoded")
            return
        }
        #expect(error.offset == 2)
        #expect(HexText.encode([0x00, 0xAB, 0xFF]) == "00abff")
        #expect(HexText.looksLikeHex(Array("  c7".utf8)))
        #expect(!HexText.looksLikeHex([0xC7, 0x01]))
    }

    @Test func decodeEnvelopesCarryEachFramesOffsetInTheInput() throws {
        let first = try FrameHex.frame(typeID: 2, body: [0x10, 0x05])
        let second = try FrameHex.frame(typeID: 1, body: [])
        let result = DecodeTool(specPath: Self.draw, envelope: true).run(input: first + [0x00] + second)
        #expect(result.status == .invalidInput)
        #expect(result.outputText == """
            {"offset":0,"type":"CanvasSnapshot","typeID":2,"value":{"pointCount":5,"strokes":[]}}
            {"offset":\(first.count + 1),"type":"UpsertStroke","typeID":1,"value":{"color":"black","id":"00000000-0000-0000-0000-000000000000","point":{"x":0,"y":0}}}

            """)
        #expect(result.messages == "groupwire: error: frame at offset \(first.count): badMagic at offset \(first.count): 1 byte before the next frame are not a frame (no magic byte 0xC7)\n")
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
