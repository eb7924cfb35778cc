import Foundation
import GroupWire
import GroupWireDynamic
import GroupWireJSON
import GroupWireSpec
import GroupWireTools
import Testing

/// The example specs, compiled from disk.
enum Examples {
    static func draw() throws -> SpecSet {
        try SpecCompiler().compile(
            entry: CLIRunner.root.appendingPathComponent("Spec/Examples/DrawTogether.gwspec").path,
            loader: FileSpecLoader()
        ).checkedSpec()
    }

    static func watch() throws -> SpecSet {
        try SpecCompiler().compile(
            entry: CLIRunner.root.appendingPathComponent("Spec/Examples/WatchTogether.gwspec").path,
            loader: FileSpecLoader()
        ).checkedSpec()
    }

    /// 300 variations of Spec/Examples/Samples/PlaybackState.json (position and title
    /// change), encoded as payloads: samples to train a dictionary on.
    static func playbackStateVariations() throws -> [[UInt8]] {
        let text = String(decoding: try CLIRunner.file("Spec/Examples/Samples/PlaybackState.json"), as: UTF8.self)
        let codec = DynamicCodec(spec: try watch())
        return try (0..<300).map { index in
            let varied = text.replacingOccurrences(of: "1234.5", with: "\(index * 7).25")
                .replacingOccurrences(of: "The Long Film", with: "The Long Film, part \(index)")
            return try codec.encode(try JSONParser().parse(Array(varied.utf8)), as: "PlaybackState")
        }
    }
}

/// Frames built from parts, for inputs the JSON encoder would never produce.
enum FrameHex {
    static func frame(typeID: UInt64, body: [UInt8]) throws -> [UInt8] {
        try FrameEncoder().encode(Frame(kind: .data, typeID: typeID, body: body))
    }
}

/// Hex as `groupwire encode --hex` writes it.
enum HexTextForTests {
    static func encode(_ bytes: [UInt8]) -> String { Hex.string(bytes) }
}
