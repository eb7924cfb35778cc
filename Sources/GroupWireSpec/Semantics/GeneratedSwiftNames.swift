/// The names generated Swift code declares or refers to, which a spec's own names must not
/// take: one table for the checker and the code generator (GroupWireCodegen), so every
/// spec the semantic checker accepts generates code that compiles.
///
/// GroupWireCodegen's tests generate every example spec and check that each member the
/// generated types declare beyond the spec's own names, and each type name the generated
/// code refers to beyond the spec's own types, is listed here.
public enum GeneratedSwiftNames {
    /// Members generated types declare next to the spec's fields and cases (messages,
    /// structs, enums and unions alike), and the protocol requirements they implement.
    /// `unknownFields` and `unknown` are not listed: the generator renames its own member
    /// when a field or case takes one of those names.
    public static let members: Set<String> = [
        "CodingKeys", "decodeNested", "encode", "encodeFields", "encodeWire", "hash", "hashValue",
        "init", "rawValue", "wireDefault", "wirePayload", "wireSize", "wireTypeID", "wireTypeName",
        "_Cases", "_CaseSpelling", "_DeprecatedCaseSpelling", "_spelling", "_encodeWire", "_exactWireSize",
    ]

    /// Types generated types declare inside themselves: JSON coding keys, and the mirror an
    /// enum or union with deprecated cases switches over (so generated code builds without
    /// deprecation warnings).
    public static let nestedTypes: Set<String> = ["CodingKeys", "_Cases", "_CaseSpelling", "_DeprecatedCaseSpelling"]

    /// Members of the per-file message set enum next to its cases, which are the file's
    /// message names with the first letter lowercased (so no message may be called
    /// `Message` or `MessageTypes`).
    public static let messageSetMembers: Set<String> = ["init", "message", "messageTypes"]

    /// The name of the enum over a file's messages: `DrawTogetherMessage` for package
    /// `draw.together`, else from the file name's stem (`Chat.gwspec` gives `ChatMessage`).
    public static func messageSetName(package: String?, path: String) -> String {
        let fileName = path.split(separator: "/", omittingEmptySubsequences: false).last.map(String.init) ?? path
        let source = package ?? String(fileName.split(separator: ".").first ?? "Spec")
        let words = source.split { !$0.isLetter && !$0.isNumber }
        return words.map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined() + "Message"
    }

    /// Standard library types generated code names; a spec type of the same name would hide them.
    public static let swiftTypes: Set<String> = [
        "Any", "Array", "Bool", "Codable", "CodingKey", "Decodable", "Decoder", "DecodingError",
        "Dictionary", "Double", "Encodable", "Encoder", "EncodingError", "Equatable", "Error",
        "Float", "Hashable", "Hasher", "Int", "Int8", "Int16", "Int32", "Int64", "Never",
        "Optional", "RawRepresentable", "Self", "Sendable", "Set", "String", "UInt", "UInt8",
        "UInt16", "UInt32", "UInt64",
    ]

    /// Foundation modules and types generated code names.
    public static let foundationTypes: Set<String> = [
        "Data", "Date", "Foundation", "FoundationEssentials", "UUID",
    ]

    /// GroupWire module and types generated code names.
    public static let groupWireTypes: Set<String> = [
        "ByteWriter", "FieldKey", "GroupWire", "MessageCodable", "PayloadReader", "PayloadWriter", "_WireCapacity",
        "_WireDefaults", "WireError", "_WireJSONBytes", "_WireJSONFloat", "_WireJSONMap",
        "_WireJSONTimestamp", "_WireMapKey", "WireMessage", "WirePayloadCodable", "_WireSink", "_WireSize",
        "WireMessageSet", "_WireTimestamp", "_WireWriting",
    ]

    /// Where `name` comes from when generated code uses a type (or module) of that name:
    /// "the Swift standard library", "Foundation" or "GroupWire"; nil for a free name.
    public static func typeOrigin(of name: String) -> String? {
        if swiftTypes.contains(name) { return "the Swift standard library" }
        if foundationTypes.contains(name) { return "Foundation" }
        if groupWireTypes.contains(name) { return "GroupWire" }
        return nil
    }
}
