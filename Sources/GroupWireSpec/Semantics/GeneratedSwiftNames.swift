/// The names generated Swift code declares or refers to, which a spec's own names must not
/// take: one table for the checker and the code generator (GroupWireCodegen), so every
/// spec ``SemanticChecker`` accepts generates code that compiles.
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
    ]

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
        "ByteWriter", "FieldKey", "GroupWire", "PayloadReader", "PayloadWriter", "WireCapacity",
        "WireDefaults", "WireError", "WireJSONBytes", "WireJSONFloat", "WireJSONMap",
        "WireJSONTimestamp", "WireMessage", "WirePayloadCodable", "WireSink", "WireSize",
        "WireTimestamp", "WireWriting",
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
