import GroupWire
import GroupWireJSON
import GroupWireSpec

/// Writes JSON values as payloads, walking the spec types (the JSON → wire half of
/// ``DynamicCodec``). Writer rules: Spec/FORMAT.md, "Canonical writing".
struct DynamicEncoder {
    /// How a field treats its default value.
    enum Presence {
        /// Optional fields, array elements, map keys and values, union payloads: always written.
        case always
        /// Non-optional fields: omitted when equal to this default (nil: the zero value).
        case omitDefault(DefaultValue?)
    }

    let schema: DynamicSchema
    let limits: Limits
    let keepsUnknownFields: Bool
    /// Where the encoder is in the JSON document, rendered only for errors.
    private var path: [JSONPathComponent] = []

    init(schema: DynamicSchema, limits: Limits, keepsUnknownFields: Bool) {
        self.schema = schema
        self.limits = limits
        self.keepsUnknownFields = keepsUnknownFields
    }

    private func renderedPath() -> String { JSONPathComponent.render(path) }

    private func error(_ kind: JSONInputError.Kind, _ message: String) -> JSONInputError {
        JSONInputError(kind, path: renderedPath(), message)
    }

    private func mismatch(_ expected: String, _ json: JSONValue) -> JSONInputError {
        error(.typeMismatch, "expected \(expected), found \(json.typeName)")
    }

    // MARK: Messages and structs

    /// Writes the fields of `container` from a JSON object; `json == nil` writes its default.
    mutating func encodeContainer(
        _ container: DynamicSchema.Container, _ json: JSONValue?, depth: Int, into writer: inout PayloadWriter
    ) throws(JSONInputError) {
        var members: [String: JSONValue] = [:]
        if let json {
            guard case .object(let object) = json else { throw mismatch("an object (\(container.name))", json) }
            members = object
            for name in object.keys.sorted() where container.indexByName[name] == nil {
                if keepsUnknownFields, name == DynamicCodec.unknownFieldsKey { continue }
                path.append(.key(name))
                let known = container.fields.map(\.name).joined(separator: ", ")
                throw error(
                    .unknownField,
                    "\(container.name) has no field named \(ScalarMapping.quoted(name)); its fields are \(known.isEmpty ? "(none)" : known)"
                )
            }
        }
        for field in container.fields {
            let value = members[field.name]
            path.append(.key(field.name))
            if field.isOptional {
                if let value, value != .null {
                    try encodeValue(field.type, value, number: field.number, presence: .always, depth: depth, into: &writer)
                }
            } else {
                if value == .null {
                    throw error(
                        .typeMismatch,
                        "\(container.name).\(field.name) is not optional; null is not allowed (leave the member out for the default)"
                    )
                }
                try encodeValue(
                    field.type, value, number: field.number, presence: .omitDefault(field.defaultValue),
                    depth: depth, into: &writer)
            }
            path.removeLast()
        }
        if keepsUnknownFields, let raw = members[DynamicCodec.unknownFieldsKey] {
            path.append(.key(DynamicCodec.unknownFieldsKey))
            writer.writeRaw(try unknownFieldBytes(raw))
            path.removeLast()
        }
    }

    /// Decodes and checks kept unknown fields: base64 of whole fields (keys included).
    private func unknownFieldBytes(_ json: JSONValue) throws(JSONInputError) -> [UInt8] {
        guard case .string(let text) = json else { throw mismatch("a base64 string of payload fields", json) }
        guard let bytes = Base64.decode(text) else { throw error(.invalidValue, "unknown fields are not padded standard base64") }
        var reader = PayloadReader(bytes, limits: limits)
        do throws(WireError) {
            while let key = try reader.nextKey() {
                try reader.skip(key)
            }
        } catch {
            throw self.error(.invalidValue, "unknown fields are not well-formed payload fields: \(error)")
        }
        return bytes
    }

    // MARK: Values

    /// Writes one field (or, for arrays, its elements) of `type` under `number`.
    /// `json == nil` stands for an absent member: the default.
    mutating func encodeValue(
        _ type: TypeRef, _ json: JSONValue?, number: UInt32, presence: Presence, depth: Int,
        into writer: inout PayloadWriter
    ) throws(JSONInputError) {
        switch type {
        case .scalar(let scalar):
            var defaultValue: DefaultValue?
            if case .omitDefault(let value) = presence { defaultValue = value }
            let wire: WireValue
            if let json {
                wire = try ScalarMapping.wireScalar(scalar, from: json, limits: limits, path: { JSONPathComponent.render(path) })
            } else {
                wire = ScalarMapping.defaultScalar(scalar, defaultValue)
            }
            if case .omitDefault = presence, wire == ScalarMapping.defaultScalar(scalar, defaultValue) { return }
            wire.write(number: number, into: &writer)
        case .named(let name):
            switch schema.declaration(name) {
            case .enum(let decl):
                var defaultNumber: UInt32 = 0
                if case .omitDefault(.enumCase(_, let value)?) = presence, let value32 = UInt32(exactly: value) {
                    defaultNumber = value32
                }
                let value = try json.map { json throws(JSONInputError) in try enumNumber(decl, json) } ?? defaultNumber
                if case .omitDefault = presence, value == defaultNumber { return }
                writer.writeUInt(number, UInt64(value))
            case .container(let decl):
                try nested(number, depth: depth, into: &writer) { encoder, nestedWriter throws(JSONInputError) in
                    try encoder.encodeContainer(decl, json, depth: depth + 1, into: &nestedWriter)
                }
            case .union(let decl):
                try nested(number, depth: depth, into: &writer) { encoder, nestedWriter throws(JSONInputError) in
                    try encoder.encodeUnion(decl, json, depth: depth + 1, into: &nestedWriter)
                }
            case nil:
                throw error(.unknownType, "the spec declares no type named \(name)")
            }
        case .array(let element):
            guard let json else { return }
            guard case .array(let elements) = json else { throw mismatch("an array", json) }
            guard !elements.isEmpty else { return }
            guard elements.count <= limits.maxCollectionCount else {
                throw error(
                    .limitExceeded, "array of \(elements.count) elements is over maxCollectionCount \(limits.maxCollectionCount)")
            }
            if let packed = packedElement(element) {
                // Convert every element first so the packed field is all or nothing.
                var values: [WireValue] = []
                values.reserveCapacity(elements.count)
                for (index, item) in elements.enumerated() {
                    path.append(.index(index))
                    values.append(try packedScalar(packed, item))
                    path.removeLast()
                }
                writer.writeNested(number) { nestedWriter in
                    for value in values { value.writePacked(into: &nestedWriter) }
                }
            } else {
                for (index, item) in elements.enumerated() {
                    path.append(.index(index))
                    try encodeValue(element, item, number: number, presence: .always, depth: depth, into: &writer)
                    path.removeLast()
                }
            }
        case .map(let keyType, let valueType):
            guard let json else { return }
            guard case .object(let members) = json else { throw mismatch("an object (a map)", json) }
            guard !members.isEmpty else { return }
            guard members.count <= limits.maxCollectionCount else {
                throw error(
                    .limitExceeded, "map of \(members.count) entries is over maxCollectionCount \(limits.maxCollectionCount)")
            }
            guard case .scalar(let keyScalar) = keyType else {
                throw error(.invalidValue, "map keys of type \(keyType) are not supported")
            }
            var entries: [MapKey] = []
            entries.reserveCapacity(members.count)
            var seen: [WireValue: String] = [:]
            for text in members.keys.sorted() {
                path.append(.key(text))
                let key = try MapKey(keyScalar, text: text, limits: limits, path: { JSONPathComponent.render(path) })
                if let other = seen.updateValue(text, forKey: key.wire) {
                    throw error(
                        .invalidValue,
                        "map keys \(ScalarMapping.quoted(other)) and \(ScalarMapping.quoted(text)) are the same \(keyScalar.rawValue)"
                    )
                }
                path.removeLast()
                entries.append(key)
            }
            entries.sort()
            for entry in entries {
                path.append(.key(entry.text))
                let value = members[entry.text]
                try nested(number, depth: depth, into: &writer) { encoder, entryWriter throws(JSONInputError) in
                    entry.wire.write(number: 1, into: &entryWriter)
                    try encoder.encodeValue(
                        valueType, value, number: 2, presence: .always, depth: depth + 1,
                        into: &entryWriter)
                }
                path.removeLast()
            }
        }
    }

    /// Writes a union's single field from `{"caseName": payload}`; `json == nil` writes the
    /// default (the lowest-numbered case with its payload's default).
    mutating func encodeUnion(
        _ union: DynamicSchema.Union, _ json: JSONValue?, depth: Int, into writer: inout PayloadWriter
    ) throws(JSONInputError) {
        let names = union.cases.map(\.name).joined(separator: ", ")
        let chosen: DynamicSchema.UnionCase
        let payload: JSONValue?
        if let json {
            guard case .object(let members) = json else {
                throw mismatch("an object with one member naming a case of \(union.name)", json)
            }
            guard members.count == 1, let (name, value) = members.first else {
                throw error(
                    .invalidValue,
                    "a \(union.name) is an object with exactly one member (one of \(names)), found \(members.count)")
            }
            path.append(.key(name))
            guard let index = union.indexByName[name] else {
                throw error(
                    .invalidValue, "\(union.name) has no case named \(ScalarMapping.quoted(name)); its cases are \(names)")
            }
            chosen = union.cases[index]
            payload = value
        } else {
            guard let first = union.cases.first else { throw error(.invalidValue, "union \(union.name) has no cases") }
            chosen = first
            payload = nil
            path.append(.key(first.name))
        }
        if let payloadType = chosen.payload {
            if payload == .null { throw mismatch("the \(union.name).\(chosen.name) payload", .null) }
            try encodeValue(payloadType, payload, number: chosen.number, presence: .always, depth: depth, into: &writer)
        } else {
            if let payload, payload != .object([:]) {
                throw error(
                    .invalidValue,
                    "case \(union.name).\(chosen.name) has no payload; write {} as its value, found \(payload.typeName == "object" ? "a non-empty object" : payload.typeName)"
                )
            }
            writer.writeKey(chosen.number, .lengthDelimited)
            writer.writer.write(0)
        }
        path.removeLast()
    }

    /// Writes a nested LEN field whose content `body` writes, checking the nesting depth
    /// the same way `PayloadReader/readNested(_:)` will.
    private mutating func nested(
        _ number: UInt32, depth: Int, into writer: inout PayloadWriter,
        _ body: (inout DynamicEncoder, inout PayloadWriter) throws(JSONInputError) -> Void
    ) throws(JSONInputError) {
        guard depth < limits.maxNestingDepth else {
            throw error(.limitExceeded, "nesting is deeper than maxNestingDepth \(limits.maxNestingDepth)")
        }
        var failure: JSONInputError?
        writer.writeNested(number) { nestedWriter in
            do throws(JSONInputError) {
                try body(&self, &nestedWriter)
            } catch {
                failure = error
            }
        }
        if let failure { throw failure }
    }

    // MARK: Enums and packed elements

    /// The scalar kind of a packed array element, or nil when arrays of it are not packed.
    enum PackedElement {
        case scalar(ScalarType)
        case enumeration(DynamicSchema.Enum)
    }

    private func packedElement(_ element: TypeRef) -> PackedElement? {
        switch element {
        case .scalar(let scalar): scalar.isPackable ? .scalar(scalar) : nil
        case .named(let name):
            if case .enum(let decl) = schema.declaration(name) { .enumeration(decl) } else { nil }
        case .array, .map: nil
        }
    }

    private func packedScalar(_ element: PackedElement, _ json: JSONValue) throws(JSONInputError) -> WireValue {
        switch element {
        case .scalar(let scalar):
            try ScalarMapping.wireScalar(scalar, from: json, limits: limits, path: { JSONPathComponent.render(path) })
        case .enumeration(let decl):
            .varint(UInt64(try enumNumber(decl, json)))
        }
    }

    /// An enum value from its case name or number (0...2^32-1).
    private func enumNumber(_ decl: DynamicSchema.Enum, _ json: JSONValue) throws(JSONInputError) -> UInt32 {
        switch json {
        case .string(let name):
            guard let number = decl.numberByName[name] else {
                let names = decl.numberByName.sorted { $0.value < $1.value }.map(\.key).joined(separator: ", ")
                throw error(
                    .invalidValue,
                    "\(decl.name) has no case named \(ScalarMapping.quoted(name)); its cases are \(names) (or a number)")
            }
            return number
        case .number(let number):
            guard let value = number.uint64, let value32 = UInt32(exactly: value) else {
                throw error(.outOfRange, "enum number \(number) is outside 0...\(UInt32.max)")
            }
            return value32
        default:
            throw mismatch("a case name of \(decl.name) or a number", json)
        }
    }
}
