import GroupWireJSON

/// A schema-less view of a field-tagged payload: every field's number, wire type, offset
/// and value, for inspecting bytes whose message type is unknown.
///
/// Values are shown by wire type. A length-delimited (LEN) value is guessed at, in this
/// order:
/// 1. empty, or valid UTF-8 made only of printable characters (tab, CR and LF allowed):
///    a string. This comes before the message guess because text whose every byte is also
///    a valid key and value is common (`"hello"` is not, but `"hi"` parses as one
///    field), while a real message made only of printable bytes needs every field number
///    to be at least 4 and every length and value printable, which is rare;
/// 2. bytes that parse completely as fields (at least one), when the nesting is still
///    under ``Limits/maxNestingDepth``: a nested message;
/// 3. otherwise raw bytes (a 16-byte value is also shown as a UUID).
///
/// Dumping never traps and never fails: the top-level fields read before a malformed one
/// are kept, and the problem and the bytes not understood are recorded in ``error`` and
/// ``unparsed``. Work is bounded: at most ``Limits/maxCollectionCount`` fields in all, no
/// nesting past ``Limits/maxNestingDepth``, and each byte is examined at most once per
/// nesting level.
public struct PayloadDump: Sendable, Hashable {
    /// One field of a dumped payload.
    public struct Field: Sendable, Hashable {
        /// The field number from the key.
        public let number: UInt32
        /// The wire type from the key.
        public let wireType: WireType
        /// The offset of the field's key in the dumped payload.
        public let offset: Int
        /// The field's value.
        public let value: Value

        /// Creates a field.
        public init(number: UInt32, wireType: WireType, offset: Int, value: Value) {
            self.number = number
            self.wireType = wireType
            self.offset = offset
            self.value = value
        }
    }

    /// A field's value, by wire type, with the guess made for LEN values.
    public indirect enum Value: Sendable, Hashable {
        /// A varint (wire type 0): shown unsigned and zigzag-decoded.
        case varint(UInt64)
        /// Eight bytes (wire type 1): shown unsigned and as a Float64.
        case fixed64(UInt64)
        /// Four bytes (wire type 5): shown unsigned and as a Float32.
        case fixed32(UInt32)
        /// A LEN value that parsed completely as fields.
        case message([Field])
        /// A LEN value that is printable UTF-8 text.
        case string(String)
        /// A LEN value shown as raw bytes.
        case bytes([UInt8])
    }

    /// The top-level fields, in payload order.
    public let fields: [Field]
    /// Why dumping stopped before the end of the payload, if it did.
    public let error: WireError?
    /// The bytes from the malformed field (or the one over the field budget) to the end;
    /// empty when the whole payload was understood.
    public let unparsed: [UInt8]

    /// Dumps `bytes` as a payload.
    /// - Parameters:
    ///   - bytes: the payload (for example a data frame's uncompressed body).
    ///   - limits: bounds on nesting depth and on the number of fields shown.
    public init(_ bytes: [UInt8], limits: Limits = .default) {
        var scanner = Scanner(limits: limits)
        var reader = ByteReader(bytes)
        var fields: [Field] = []
        var error: WireError?
        var failedAt = bytes.count
        while !reader.isAtEnd {
            let start = reader.position
            do throws(WireError) {
                fields.append(try scanner.field(&reader, depth: 0))
            } catch let problem {
                error = problem
                failedAt = start
                break
            }
        }
        self.fields = fields
        self.error = error
        // safe because: failedAt is a reader position, so 0 ... bytes.count.
        self.unparsed = Array(bytes[failedAt...])
    }

    /// Whether every byte of the payload was understood as fields.
    public var isComplete: Bool { error == nil }

    /// Reads fields with a shared budget; one per dump.
    private struct Scanner {
        let limits: Limits
        /// Fields that may still be read, across the whole dump.
        var budget: Int

        init(limits: Limits) {
            self.limits = limits
            budget = max(0, limits.maxCollectionCount)
        }

        /// Reads one field; `depth` is the nesting level of the message holding it.
        mutating func field(_ reader: inout ByteReader, depth: Int) throws(WireError) -> Field {
            guard budget > 0 else {
                throw WireError(
                    .limitExceeded, offset: reader.position,
                    "payload has more than maxCollectionCount \(limits.maxCollectionCount) fields")
            }
            budget -= 1
            let offset = reader.position
            var payload = PayloadReader(reader: reader, limits: limits, depth: depth)
            // Not at the end (callers check), so nextKey returns a key or throws.
            guard let key = try payload.nextKey() else {
                throw WireError(.truncated, offset: offset, "expected a field key")
            }
            let value: Value
            switch key.wireType {
            case .varint:
                value = .varint(try payload.reader.readUVarint())
            case .fixed64:
                value = .fixed64(try payload.reader.readFixed64LE())
            case .fixed32:
                value = .fixed32(try payload.reader.readFixed32LE())
            case .lengthDelimited:
                let count = try payload.readLength(limit: limits.maxMessageSize, "LEN value of field \(key.number)")
                var sub = try payload.reader.subReader(count: count, "LEN value of field \(key.number)")
                value = guess(&sub, depth: depth + 1)
            default:
                // nextKey rejects undefined wire types; this catches any defined later.
                throw WireError(.unknownWireType, offset: offset, "wire type \(key.wireType.rawValue) cannot be dumped")
            }
            reader = payload.reader
            return Field(number: key.number, wireType: key.wireType, offset: offset, value: value)
        }

        /// Classifies a LEN value's bytes; `depth` is the level a nested message would have.
        mutating func guess(_ sub: inout ByteReader, depth: Int) -> Value {
            let start = sub.position
            let end = sub.end
            // safe because: sub was cut from its parent by subReader, so start...end is in bounds.
            let slice = sub.bytes[start..<end]
            if let text = PayloadDump.printableText(slice) {
                return .string(text)
            }
            if depth <= limits.maxNestingDepth {
                let saved = budget
                var fields: [Field] = []
                var nested = sub
                do throws(WireError) {
                    while !nested.isAtEnd {
                        fields.append(try field(&nested, depth: depth))
                    }
                    return .message(fields)
                } catch {
                    budget = saved  // the fields of a failed guess are not shown
                }
            }
            return .bytes(Array(slice))
        }
    }

    /// The text in `bytes` when it is valid UTF-8 without control characters other than
    /// tab, CR and LF, line or paragraph separators, unassigned or private-use code points;
    /// otherwise nil.
    static func printableText(_ bytes: ArraySlice<UInt8>) -> String? {
        guard let text = String(validating: bytes, as: UTF8.self) else { return nil }
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\t", "\n", "\r": continue
            default:
                switch scalar.properties.generalCategory {
                case .control, .unassigned, .privateUse, .surrogate, .lineSeparator, .paragraphSeparator:
                    return nil
                default:
                    continue
                }
            }
        }
        return text
    }
}

// MARK: - Rendering

extension PayloadDump {
    /// The dump as indented text, one field per line, nested messages indented by
    /// `indent` more spaces per level.
    ///
    /// Line forms (N is the field number):
    /// `N: varint 300 (sint 150)`, `N: fixed64 4614253070214989087 (double 3.14)`,
    /// `N: fixed32 1078523331 (float 3.14)`, `N: string "text"`,
    /// `N: bytes[3] 0a0b0c`, `N: bytes[16] … (uuid …)`, `N: message[12] {` … `}`.
    /// A dump that stopped early ends with `error: …` and `unparsed[K]: hex`.
    public func renderText(indent: Int = 2, prefix: String = "") -> String {
        var lines: [String] = []
        Self.appendLines(fields, to: &lines, indent: indent, prefix: prefix)
        if let error {
            lines.append(prefix + "error: " + error.description)
            lines.append(prefix + "unparsed[\(unparsed.count)]: " + Hex.string(unparsed))
        }
        return lines.joined(separator: "\n")
    }

    private static func appendLines(_ fields: [Field], to lines: inout [String], indent: Int, prefix: String) {
        for field in fields {
            let head = prefix + "\(field.number): "
            switch field.value {
            case .varint(let value):
                lines.append(head + "varint \(value) (sint \(Varint.unzigzag(value)))")
            case .fixed64(let value):
                lines.append(head + "fixed64 \(value) (double \(Double(bitPattern: value)))")
            case .fixed32(let value):
                lines.append(head + "fixed32 \(value) (float \(Float(bitPattern: value)))")
            case .string(let text):
                lines.append(head + "string " + quoted(text))
            case .bytes(let bytes):
                var line = head + "bytes[\(bytes.count)] " + Hex.string(bytes)
                if let uuid = uuidString(bytes) { line += " (uuid \(uuid))" }
                lines.append(line)
            case .message(let nested):
                lines.append(head + "message {")
                appendLines(
                    nested, to: &lines, indent: indent,
                    prefix: prefix + String(repeating: " ", count: indent))
                lines.append(prefix + "}")
            }
        }
    }

    /// The dump as a JSON value. Schema (keys sorted when rendered):
    /// `{"fields": [Field], "error": null | {"kind", "offset", "message"}, "unparsedHex": "…"}`
    /// where a Field is `{"number", "wireType", "offset", …}` plus, by wire type:
    /// varint `"uint", "sint"`; fixed64 `"uint", "double"`; fixed32 `"uint", "float"`;
    /// LEN `"length"` and one of `"string"`, `"message"` (array of Field),
    /// `"bytes"` (lowercase hex) with `"uuid"` for 16 bytes.
    package var json: JSONValue {
        var object: [String: JSONValue] = [
            "fields": .array(fields.map(Self.json(of:))),
            "unparsedHex": .string(Hex.string(unparsed)),
        ]
        if let error {
            object["error"] = Self.json(of: error)
        } else {
            object["error"] = .null
        }
        return .object(object)
    }

    /// A ``WireError`` as `{"kind", "offset", "message"}`.
    package static func json(of error: WireError) -> JSONValue {
        .object([
            "kind": .string(error.kind.name),
            "offset": error.offset.map { .int(Int64($0)) } ?? .null,
            "message": .string(error.context),
        ])
    }

    private static func json(of field: Field) -> JSONValue {
        var object: [String: JSONValue] = [
            "number": .uint(UInt64(field.number)),
            "wireType": .string(field.wireType.description),
            "offset": .int(Int64(field.offset)),
        ]
        switch field.value {
        case .varint(let value):
            object["uint"] = .uint(value)
            object["sint"] = .int(Varint.unzigzag(value))
        case .fixed64(let value):
            object["uint"] = .uint(value)
            object["double"] = .double(Double(bitPattern: value))
        case .fixed32(let value):
            object["uint"] = .uint(UInt64(value))
            object["float"] = .float(Float(bitPattern: value))
        case .string(let text):
            object["length"] = .int(Int64(text.utf8.count))
            object["string"] = .string(text)
        case .bytes(let bytes):
            object["length"] = .int(Int64(bytes.count))
            object["bytes"] = .string(Hex.string(bytes))
            if let uuid = uuidString(bytes) { object["uuid"] = .string(uuid) }
        case .message(let nested):
            object["message"] = .array(nested.map(json(of:)))
        }
        return .object(object)
    }

    /// The canonical uppercase UUID text of 16 bytes, else nil.
    static func uuidString(_ bytes: [UInt8]) -> String? {
        guard bytes.count == 16 else { return nil }
        let hex = Hex.string(bytes).uppercased()
        var out = ""
        for (index, character) in hex.enumerated() {
            if index == 8 || index == 12 || index == 16 || index == 20 { out += "-" }
            out.append(character)
        }
        return out
    }

    /// `text` in double quotes with quotes, backslashes and line breaks escaped, as in
    /// JSON (dumped strings hold no other control characters).
    static func quoted(_ text: String) -> String {
        JSONValue.string(text).rendered(pretty: false)
    }
}

// MARK: - Re-encoding

extension PayloadDump {
    /// The dump as JSON text with sorted keys (see ``renderText(indent:prefix:)`` for the
    /// text form; the schema is documented on the `json` property).
    public func renderJSONText() -> String {
        json.rendered()
    }

    /// The payload bytes the dumped fields and the unparsed tail make, written back with
    /// minimal varints. Since readers only accept minimal varints, this equals the bytes
    /// that were dumped: nothing is lost or invented by dumping.
    public func encodedBytes() -> [UInt8] {
        var writer = ByteWriter()
        Self.encode(fields, into: &writer)
        writer.write(contentsOf: unparsed)
        return writer.bytes
    }

    private static func encode(_ fields: [Field], into writer: inout ByteWriter) {
        for field in fields {
            writer.writeUVarint(FieldKey(number: field.number, wireType: field.wireType).encoded)
            switch field.value {
            case .varint(let value):
                writer.writeUVarint(value)
            case .fixed64(let value):
                writer.writeFixed64LE(value)
            case .fixed32(let value):
                writer.writeFixed32LE(value)
            case .string(let text):
                writer.writeUVarint(UInt64(text.utf8.count))
                writer.write(contentsOf: text.utf8)
            case .bytes(let bytes):
                writer.writeUVarint(UInt64(bytes.count))
                writer.write(contentsOf: bytes)
            case .message(let nested):
                var inner = ByteWriter()
                encode(nested, into: &inner)
                writer.writeUVarint(UInt64(inner.count))
                writer.write(contentsOf: inner.bytes)
            }
        }
    }
}
