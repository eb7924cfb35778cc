import Foundation
import GroupWire
import GroupWireDynamic
import GroupWireSpec
import GroupWireTestSupport
import Testing

/// The example specs and an in-memory spec that uses every kind of type.
enum TestSpecs {
    /// The repository root.
    static var root: URL { RepositoryPaths.root }

    /// The absolute path of a file under Spec/Examples.
    static func examplePath(_ name: String) -> String {
        root.appendingPathComponent("Spec/Examples").appendingPathComponent(name).path
    }

    /// Compiles an example spec from disk; it must be free of errors.
    static func example(_ name: String) throws -> SpecSet {
        let compilation = try SpecCompiler().compile(entry: examplePath(name), loader: FileSpecLoader())
        #expect(!compilation.hasErrors, "\(compilation.renderedDiagnostics)")
        return try compilation.checkedSpec()
    }

    /// The bytes of Spec/Examples/Samples/NAME.json.
    static func sample(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: root.appendingPathComponent("Spec/Examples/Samples/\(name).json")))
    }

    /// A spec with every scalar type, packed arrays, maps, unions and optionals.
    static let everythingSource = """
        package test.everything version 1

        enum Color {
            0 none
            1 red
            2 blue
        }

        struct Inner {
            1 a: Int32
            2 label: String?
        }

        union Choice {
            1 number: Int64
            2 text: String
            3 empty
            4 inner: Inner
        }

        message Everything @ 7 {
            1 flag: Bool
            2 small: Int8
            3 count: UInt32
            4 big: Int64
            5 ratio: Float32
            6 scale: Float64 = 2.5
            7 text: String
            8 blob: Bytes
            9 id: UUID?
            10 at: Timestamp
            11 color: Color = red
            12 ints: [Int32]
            13 colors: [Color]
            14 names: [String]
            15 byCount: [UInt64: String]
            16 choice: Choice
            17 maybe: Choice?
            18 inner: Inner?
            19 byID: [UUID: Inner]
            20 bySign: [Int16: Bool]
            21 huge: UInt64
            22 doubles: [Float64]
        }
        """

    /// The compiled ``everythingSource``.
    static func everything() throws -> SpecSet {
        let compilation = SpecCompiler().compile(source: everythingSource, path: "everything.gwspec")
        #expect(!compilation.hasErrors, "\(compilation.renderedDiagnostics)")
        return try compilation.checkedSpec()
    }
}

/// Parses JSON text, failing the test on a syntax error.
func json(_ text: String) throws -> JSONValue {
    try JSONParser().parse(text)
}

/// Runs `body` and returns the JSONInputError it throws, or nil.
func jsonError(_ body: () throws(JSONInputError) -> Void) -> JSONInputError? {
    do throws(JSONInputError) {
        try body()
        return nil
    } catch {
        return error
    }
}

/// Runs `body` and returns the WireError it throws, or nil.
func wireError(_ body: () throws(WireError) -> Void) -> WireError? {
    do throws(WireError) {
        try body()
        return nil
    } catch {
        return error
    }
}

/// The public JSON value of GroupWireDynamic (GroupWire has a package-internal namesake).
typealias JSONValue = GroupWireDynamic.JSONValue
