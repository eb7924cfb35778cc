import GroupWire
import GroupWireSpec

/// Encodes and decodes any message or struct of a spec set between JSON and the payload
/// format of Spec/FORMAT.md, without generated code.
///
/// The JSON form follows the team's JSON mapping (the same one generated `Codable` types
/// use): objects keyed by field name, UUIDs as uppercase strings, `Bytes` as base64,
/// `Timestamp` as Int64 nanoseconds, enums as case names (numbers for unknown cases),
/// unions as `{"caseName": payload}`, maps as objects with stringified keys. The bytes are
/// the ones generated code writes for the same value: fields in number order, defaults of
/// non-optional scalars and enums omitted, empty arrays and maps omitted, numbers packed,
/// map entries sorted by key.
///
/// ```swift
/// let codec = DynamicCodec(spec: spec)
/// let payload = try codec.encode(try JSONParser().parse(text), as: "UpsertStroke")
/// let json = try codec.decode(payload, as: "UpsertStroke")
/// ```
public struct DynamicCodec: Sendable {
    /// Choices that change what the codec accepts and produces.
    public struct Options: Sendable, Hashable {
        /// Whether decoding keeps fields the spec does not declare, as base64 of the raw
        /// fields under the member ``DynamicCodec/unknownFieldsKey``, and encoding writes that
        /// member back after the known fields (the way generated types pass unknown fields
        /// through). Off by default: unknown fields are skipped.
        public var keepsUnknownFields: Bool

        /// Creates options.
        public init(keepsUnknownFields: Bool = false) {
            self.keepsUnknownFields = keepsUnknownFields
        }

        /// Unknown fields skipped.
        public static let `default` = Options()
    }

    /// The JSON member that holds kept unknown fields when ``Options/keepsUnknownFields`` is on.
    public static let unknownFieldsKey = "$unknownFields"

    /// The spec set whose types this codec reads and writes.
    public var spec: SpecSet { tables.spec }
    /// The limits decoding checks every length, count and nesting level against, and that
    /// encoding keeps to so that what it writes can be read back.
    public let limits: Limits
    /// The codec's options.
    public let options: Options
    /// The lookups built from the spec.
    var schema: DynamicSchema { tables.schema }

    /// The spec and its lookups, behind one reference: a codec is copied (into a decoder,
    /// out of an array of codecs) once per message a validator reads, and a copy of the
    /// spec's arrays and dictionaries would retain each of them.
    private final class Tables: Sendable {
        let spec: SpecSet
        let schema: DynamicSchema

        init(spec: SpecSet) {
            self.spec = spec
            schema = DynamicSchema(spec)
        }
    }

    private let tables: Tables

    /// Creates a codec for the types of `spec` (a checked set from
    /// `SpecCompilation/checkedSpec()`).
    public init(spec: SpecSet, limits: Limits = .default, options: Options = .default) {
        self.limits = limits
        self.options = options
        tables = Tables(spec: spec)
    }

    /// The message with type id `typeID`, if the spec declares one.
    public func message(typeID: UInt64) -> MessageDecl? {
        guard let name = schema.messageNames[typeID], case .message(let decl)? = spec.declaration(named: name) else { return nil }
        return decl
    }

    /// The name of the message `typeID` names, if the spec declares one (one lookup, no
    /// declaration copied: what a reader of many frames asks per frame).
    public func messageName(typeID: UInt64) -> String? {
        schema.messageNames[typeID]
    }

    /// The message called `name`, if the spec declares one.
    public func message(named name: String) -> MessageDecl? {
        guard case .message(let decl)? = spec.declaration(named: name) else { return nil }
        return decl
    }

    // MARK: Encoding

    /// Encodes a JSON object as the payload of the message or struct called `typeName`.
    /// - Throws: ``JSONInputError`` naming the JSON path of the first problem: a wrong JSON
    ///   type, an unknown member, an integer out of range, a malformed UUID, base64 string or
    ///   case name, a value over a limit, or an unknown `typeName`.
    public func encode(_ json: JSONValue, as typeName: String) throws(JSONInputError) -> [UInt8] {
        guard case .container(let container)? = schema.declaration(typeName) else {
            throw JSONInputError(
                .unknownType, path: "$", "the spec declares no message or struct named \(typeName)\(suggestion(typeName))")
        }
        var encoder = DynamicEncoder(schema: schema, limits: limits, keepsUnknownFields: options.keepsUnknownFields)
        var writer = PayloadWriter()
        try encoder.encodeContainer(container, json, depth: 0, into: &writer)
        guard writer.writer.count <= limits.maxMessageSize else {
            throw JSONInputError(
                .limitExceeded, path: "$",
                "the \(typeName) payload is \(writer.writer.count) bytes, over maxMessageSize \(limits.maxMessageSize)")
        }
        return writer.bytes
    }

    /// Encodes a JSON object as one data frame carrying message `messageName`.
    /// - Throws: ``JSONInputError`` as ``encode(_:as:)`` does, with kind
    ///   ``JSONInputError/Kind/unknownType`` when `messageName` is not a message and
    ///   ``JSONInputError/Kind/frameTooLarge`` when the frame would exceed `Limits/maxFrameSize`.
    public func encodeFrame(_ json: JSONValue, message messageName: String) throws(JSONInputError) -> [UInt8] {
        guard let message = message(named: messageName) else {
            throw JSONInputError(
                .unknownType, path: "$", "the spec declares no message named \(messageName)\(suggestion(messageName))")
        }
        let payload = try encode(json, as: messageName)
        do throws(WireError) {
            return try FrameEncoder(limits: limits).encode(Frame(kind: .data, typeID: message.typeID, body: payload))
        } catch {
            throw JSONInputError(.frameTooLarge, path: "$", error.context)
        }
    }

    // MARK: Decoding

    /// Decodes the payload of the message or struct called `typeName` to JSON: every
    /// non-optional field (absent ones as their default), optional fields when present.
    /// - Throws: `WireError` with the byte offset of the problem;
    ///   `WireError/Kind/unknownType` when the spec has no such type.
    public func decode(_ payload: [UInt8], as typeName: String) throws(WireError) -> JSONValue {
        guard case .container(let container)? = schema.declaration(typeName) else {
            throw WireError(.unknownType, "the spec declares no message or struct named \(typeName)")
        }
        var reader = PayloadReader(payload, limits: limits)
        let decoder = DynamicDecoder(schema: schema, limits: limits, keepsUnknownFields: options.keepsUnknownFields)
        return try decoder.decodeContainer(container, depth: 0, from: &reader)
    }

    /// Checks the payload of the message or struct called `typeName` as ``decode(_:as:)``
    /// does (every key, wire type, length, value, enum, union and limit), without making
    /// its JSON: what `groupwire validate` runs on every message.
    /// - Throws: what ``decode(_:as:)`` would throw for the same payload.
    public func validate(_ payload: [UInt8], as typeName: String) throws(WireError) {
        guard case .container(let container)? = schema.declaration(typeName) else {
            throw WireError(.unknownType, "the spec declares no message or struct named \(typeName)")
        }
        var refusals = 0
        if let index = schema.containerIndex(typeName), schema.isSkimmable[index] {
            if DynamicDecoder.skim(container: index, payload, in: payload.indices, schema: schema, limits: limits) { return }
            refusals = 1
        }
        var reader = PayloadReader(payload, limits: limits)
        var decoder = DynamicDecoder(schema: schema, limits: limits, keepsUnknownFields: false)
        decoder.buildsValues = false
        decoder.skimRefusals = refusals
        _ = try decoder.decodeContainer(container, depth: 0, from: &reader)
    }

    /// ``validate(_:as:)`` for the message `typeID` names, reading its payload where it
    /// stands: at `range` of `bytes` (a frame's body, say), without copying it out. Error
    /// offsets count from the payload's first byte, as ``validate(_:as:)``'s do.
    /// - Throws: `unknownType` when `typeID` names no message of the spec, or what
    ///   ``validate(_:as:)`` throws.
    public func validate(_ bytes: [UInt8], in range: Range<Int>, typeID: UInt64) throws(WireError) {
        guard let index = schema.messageContainer(typeID: typeID) else {
            throw WireError(.unknownType, "type id \(typeID) is not a message of the spec")
        }
        var refusals = 0
        if range.lowerBound >= 0, range.upperBound <= bytes.count, schema.isSkimmable[index] {
            if DynamicDecoder.skim(container: index, bytes, in: range, schema: schema, limits: limits) { return }
            refusals = 1
        }
        // The general walk, which also says what is wrong with a range outside the bytes.
        var reader = PayloadReader(reader: try ByteReader(bytes, range: range), limits: limits)
        var decoder = DynamicDecoder(schema: schema, limits: limits, keepsUnknownFields: false)
        decoder.buildsValues = false
        decoder.skimRefusals = refusals
        do {
            _ = try decoder.decodeContainer(schema.containers[index], depth: 0, from: &reader)
        } catch {
            throw WireError(error.kind, offset: error.offset.map { $0 - range.lowerBound }, error.context)
        }
    }

    /// Decodes an uncompressed data frame whose type id names a message of the spec.
    /// - Returns: the message declaration and its JSON.
    /// - Throws: `WireError`: `WireError/Kind/unknownType` for a type id
    ///   the spec does not declare, `WireError/Kind/unsupportedFrame` for control,
    ///   fragment or compressed frames, or the payload's decoding error.
    public func decode(frame: Frame) throws(WireError) -> (message: MessageDecl, json: JSONValue) {
        let message = try message(of: frame)
        return (message, try decode(frame.body, as: message.name))
    }

    /// Writes the JSON of an uncompressed data frame's message as ``writeJSON(_:as:writer:indent:emit:)``
    /// does, after the checks of ``decode(frame:)``.
    /// - Returns: the message declaration.
    /// - Throws: what ``decode(frame:)`` would throw, before anything is written.
    @discardableResult
    public func writeJSON(frame: Frame, writer: JSONWriter, indent: Int = 0, emit: ([UInt8]) -> Void) throws(WireError)
        -> MessageDecl
    {
        let message = try message(of: frame)
        try writeJSON(frame.body, as: message.name, writer: writer, indent: indent, emit: emit)
        return message
    }

    /// The message an uncompressed, whole data frame carries.
    private func message(of frame: Frame) throws(WireError) -> MessageDecl {
        guard frame.kind == .data, frame.fragment == nil else {
            throw WireError(
                .unsupportedFrame, "a \(frame.kind) frame does not carry one whole message; only data frames decode to JSON")
        }
        guard frame.compression == nil else {
            throw WireError(.unsupportedFrame, "the frame is compressed; decompress it before decoding its payload")
        }
        guard let message = message(typeID: frame.typeID) else {
            throw WireError(.unknownType, "the spec declares no message with type id \(frame.typeID)")
        }
        return message
    }

    private func suggestion(_ name: String) -> String {
        let names = spec.messages.map(\.name)
        let lowered = name.lowercased()
        if let close = names.first(where: { $0.lowercased() == lowered }) {
            return "; did you mean \(close)?"
        }
        return names.isEmpty ? "" : "; its messages are \(names.joined(separator: ", "))"
    }
}

extension WireError.Kind {
    /// A frame the dynamic codec cannot turn into one message (control, fragment or compressed).
    public static let unsupportedFrame = WireError.Kind(name: "unsupportedFrame")
}
