import GroupWire
import GroupWireDynamic
import GroupWireJSON
import GroupWireSpec
import GroupWireTestSupport
import Testing

// GroupWireDynamic.md: begin
/// A stroke given as JSON, through its frame and back, by the spec alone.
func strokeThroughItsFrame(spec path: String, json text: String) throws -> String {
    let spec = try SpecCompiler().compile(entry: path, loader: FileSpecLoader()).checkedSpec()
    let codec = DynamicCodec(spec: spec)
    let frame = try codec.encodeFrame(try JSONParser().parse(text), message: "UpsertStroke")
    let (message, json) = try codec.decode(frame: try FrameDecoder().decode(frame))
    return "\(message.name): " + JSONWriter().string(json)
}
// GroupWireDynamic.md: end

/// The module article's example, run on the example spec.
@Suite struct ArticleExampleTests {
    @Test func aStrokeGivenAsJSONComesBackFromItsFrame() throws {
        let text = #"{"color": "red", "id": "8D5C1E2A-7B3F-4C6D-9E0F-1A2B3C4D5E6F", "point": {"x": 12.5, "y": -3.25}}"#
        let result = try strokeThroughItsFrame(spec: RepositoryPaths.path("Spec/Examples/DrawTogether.gwspec"), json: text)
        #expect(
            result == #"UpsertStroke: {"color":"red","id":"8D5C1E2A-7B3F-4C6D-9E0F-1A2B3C4D5E6F","point":{"x":12.5,"y":-3.25}}"#)
    }
}
