import GroupWire
import GroupWireDynamic
import GroupWireSpec
import GroupWireTools
import Testing

/// The example specs, compiled from disk.
enum Examples {
    static func draw() throws -> SpecSet {
        try SpecCompiler().compile(entry: CLIRunner.root.appendingPathComponent("Spec/Examples/DrawTogether.gwspec").path,
                                   loader: FileSpecLoader()).checkedSpec()
    }

    static func watch() throws -> SpecSet {
        try SpecCompiler().compile(entry: CLIRunner.root.appendingPathComponent("Spec/Examples/WatchTogether.gwspec").path,
                                   loader: FileSpecLoader()).checkedSpec()
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
    static func encode(_ bytes: [UInt8]) -> String { PayloadDump.hexString(bytes) }
}

/// The public JSON value of GroupWireDynamic (GroupWire has a package-internal namesake).
typealias JSONValue = GroupWireDynamic.JSONValue
