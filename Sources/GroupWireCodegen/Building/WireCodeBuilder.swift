import GroupWireJSON
import GroupWireSpec

/// One field (or union case payload) as the wire code sees it.
struct WireField: Sendable, Hashable {
    /// The field number (the case number for a union case).
    var number: UInt64
    /// The spec type.
    var type: TypeRef
    /// Whether the field is optional (written exactly when non-nil).
    var isOptional: Bool
    /// Whether a non-optional scalar equal to its default is left out (false in unions,
    /// whose one field is always written).
    var omitsDefault: Bool
    /// The checked spec default, nil for the zero value.
    var defaultValue: DefaultValue?
    /// `Type.field`, for error messages.
    var label: String
}

/// Builds the statements that size, write and read fields with PayloadWriter/PayloadReader,
/// following Spec/FORMAT.md ("Payload encoding for structured messages", "Canonical writing").
struct WireCodeBuilder: Sendable {
    let types: TypeMapper

    // MARK: Single values

    /// The raw wire type of a value.
    func wireType(_ kind: ValueKind) -> UInt64 {
        switch kind {
        case .scalar(let scalar):
            switch scalar.wireType {
            case .varint: return 0
            case .fixed64: return 1
            case .fixed32: return 5
            default: return 2
            }
        case .enumeration: return 0
        case .nested: return 2
        }
    }

    /// The `WireType` expression of a value.
    func wireTypeExpression(_ kind: ValueKind) -> String {
        switch wireType(kind) {
        case 0: ".varint"
        case 1: ".fixed64"
        case 5: ".fixed32"
        default: ".lengthDelimited"
        }
    }

    /// The bytes of a key.
    func keySize(_ number: UInt64, wireType: UInt64) -> Int {
        SwiftNames.varintLength(number << 3 | wireType)
    }

    /// The size of a value without its key: a constant, or an expression.
    func valueSize(_ kind: ValueKind, _ value: String) -> (constant: Int, expression: String?) {
        switch kind {
        case .scalar(let scalar):
            switch scalar {
            case .bool: return (1, nil)
            case .int64: return (0, "_WireSize.svarint(\(value))")
            case .int8, .int16, .int32: return (0, "_WireSize.svarint(Int64(\(value)))")
            case .uint64: return (0, "_WireSize.uvarint(\(value))")
            case .uint8, .uint16, .uint32: return (0, "_WireSize.uvarint(UInt64(\(value)))")
            case .float32, .fixed32: return (4, nil)
            case .float64, .timestamp, .fixed64: return (8, nil)
            case .string: return (0, "_WireSize.string(\(value))")
            case .bytes: return (0, "_WireSize.lengthDelimited(\(value).count)")
            case .uuid: return (17, nil)
            }
        case .enumeration:
            return (0, "_WireSize.uvarint(UInt64(\(value).rawValue))")
        case .nested:
            return (0, "_WireSize.lengthDelimited(\(value).wireSize)")
        }
    }

    /// The size of a whole field (key and value) as an expression.
    func fieldSize(_ number: UInt64, _ kind: ValueKind, _ value: String) -> String {
        let (constant, expression) = valueSize(kind, value)
        let total = constant + keySize(number, wireType: wireType(kind))
        guard let expression else { return String(total) }
        return "\(total) + \(expression)"
    }

    /// `a + b`, folded into one number when both are constants.
    func sum(_ a: String, _ b: String) -> String {
        if let left = Int(a), let right = Int(b) { return String(left + right) }
        return "\(a) + \(b)"
    }

    /// A statement writing the key of field `number`: a constant byte when it fits one.
    func writeKey(_ number: UInt64, wireType: UInt64) -> CodeItem {
        let key = number << 3 | wireType
        if key < 0x80 {
            return .line("writer.writeByte(0x\(Hex.digits(key, width: 2, uppercase: true)))")
        }
        return .line("writer.writeUVarint(\(key))")
    }

    /// A statement writing a value without key (also the packed element form).
    func writeValue(_ kind: ValueKind, _ value: String) -> [CodeItem] {
        switch kind {
        case .scalar(let scalar):
            switch scalar {
            case .bool: return [.line("writer.writeByte(\(value) ? 1 : 0)")]
            case .int64: return [.line("writer.writeSVarint(\(value))")]
            case .int8, .int16, .int32: return [.line("writer.writeSVarint(Int64(\(value)))")]
            case .uint64: return [.line("writer.writeUVarint(\(value))")]
            case .uint8, .uint16, .uint32: return [.line("writer.writeUVarint(UInt64(\(value)))")]
            case .float32: return [.line("writer.writeFixed32LE(\(value).bitPattern)")]
            case .float64: return [.line("writer.writeFixed64LE(\(value).bitPattern)")]
            case .fixed32: return [.line("writer.writeFixed32LE(\(value))")]
            case .fixed64: return [.line("writer.writeFixed64LE(\(value))")]
            case .string, .bytes, .uuid: return [.line("writer.writeLengthPrefixed(\(value))")]
            case .timestamp:
                return [.line("writer.writeFixed64LE(UInt64(bitPattern: _WireTimestamp.nanoseconds(from: \(value))))")]
            }
        case .enumeration:
            return [.line("writer.writeUVarint(UInt64(\(value).rawValue))")]
        case .nested:
            return [
                .line("writer.writeUVarint(UInt64(\(value).wireSize))"),
                .line("\(value).encodeFields(to: &writer)"),
            ]
        }
    }

    /// Statements writing one field: its key, then its value.
    func writeField(_ number: UInt64, _ kind: ValueKind, _ value: String) -> [CodeItem] {
        [writeKey(number, wireType: wireType(kind))] + writeValue(kind, value)
    }

    /// An expression reading one value (after its key) from `reader`.
    func readValue(_ kind: ValueKind, _ reader: String, depth: String = "depth") -> String {
        switch kind {
        case .scalar(let scalar):
            switch scalar {
            case .bool: return "try \(reader).readBool()"
            case .int64: return "try \(reader).readInt()"
            case .int8, .int16, .int32: return "try \(reader).readInt(as: \(TypeMapper.swiftType(scalar)).self)"
            case .uint64: return "try \(reader).readUInt()"
            case .uint8, .uint16, .uint32: return "try \(reader).readUInt(as: \(TypeMapper.swiftType(scalar)).self)"
            case .float32: return "try \(reader).readFloat()"
            case .float64: return "try \(reader).readDouble()"
            case .fixed32: return "try \(reader).readFixed32()"
            case .fixed64: return "try \(reader).readFixed64()"
            case .string: return "try \(reader)._readString()"
            case .bytes: return "try \(reader).readBytes()"
            case .uuid: return "try \(reader)._readUUID()"
            case .timestamp: return "_WireTimestamp.date(nanoseconds: try \(reader).readTimestampNanoseconds())"
            }
        case .enumeration(let name):
            return "\(name)(rawValue: try \(reader).readUInt(as: UInt32.self))"
        case .nested(let name):
            return "try \(name).decodeNested(from: &\(reader), depth: \(depth))"
        }
    }

    /// The condition under which a non-optional value differs from its default.
    func differsFromDefault(_ kind: ValueKind, _ value: String, _ defaultValue: DefaultValue?) -> String? {
        switch kind {
        case .scalar(let scalar):
            switch (scalar, defaultValue) {
            case (.bool, .bool(true)): return "!\(value)"
            case (.bool, _): return value
            case (.float32, .float(let number)) where number != 0 || number.sign == .minus:
                return "\(value).bitPattern != (\(SwiftNames.floatLiteral(number)) as Float).bitPattern"
            case (.float64, .float(let number)) where number != 0 || number.sign == .minus:
                return "\(value).bitPattern != (\(SwiftNames.floatLiteral(number)) as Double).bitPattern"
            case (.float32, _), (.float64, _): return "\(value).bitPattern != 0"
            case (.string, .string(let text)) where !text.isEmpty:
                return "\(value) != \(SwiftNames.stringLiteral(text))"
            case (.string, _), (.bytes, _): return "!\(value).isEmpty"
            case (.uuid, _): return "_WireDefaults.differs(\(value))"
            case (.timestamp, _): return "_WireTimestamp.nanoseconds(from: \(value)) != 0"
            case (_, .signed(let number)): return "\(value) != \(number)"
            case (_, .unsigned(let number)): return "\(value) != \(number)"
            default: return "\(value) != 0"
            }
        case .enumeration:
            if case .enumCase(_, let number) = defaultValue {
                return "\(value).rawValue != \(UInt32(truncatingIfNeeded: number))"
            }
            return "\(value).rawValue != 0"
        case .nested:
            return nil
        }
    }

    // MARK: Packed arrays

    /// The size of one packed element: a constant, or an expression.
    func packedElementSize(_ kind: ValueKind, _ value: String) -> (constant: Int, expression: String?) {
        switch kind {
        case .scalar(let scalar):
            switch scalar {
            case .bool: return (1, nil)
            case .float32, .fixed32: return (4, nil)
            case .float64, .timestamp, .fixed64: return (8, nil)
            default: return valueSize(kind, value)
            }
        default:
            return valueSize(kind, value)
        }
    }

    /// Statements computing `packedSize` for the array `value`.
    func packedSizeStatements(_ kind: ValueKind, _ value: String) -> [CodeItem] {
        let (constant, expression) = packedElementSize(kind, "element")
        guard let expression else {
            return [.line("let packedSize = \(value).count * \(constant)")]
        }
        return [
            .line("var packedSize = 0"),
            .block("for element in \(value) {", [.line("packedSize += \(expression)")]),
        ]
    }

    // MARK: Fields

    /// Statements adding the field's encoded size to `size`.
    func sizeStatements(_ field: WireField, _ value: String) -> [CodeItem] {
        switch field.type {
        case .array(let element):
            guard let kind = types.kind(of: element) else { return [] }
            if types.isPacked(element) {
                let body =
                    packedSizeStatements(kind, value)
                    + [.line("size += \(keySize(field.number, wireType: 2)) + _WireSize.lengthDelimited(packedSize)")]
                return field.omitsDefault ? [.block("if !\(value).isEmpty {", body)] : [.block("do {", body)]
            }
            let (constant, expression) = valueSize(kind, "element")
            if expression == nil {
                return [.line("size += \(value).count * \(constant + keySize(field.number, wireType: wireType(kind)))")]
            }
            return [.block("for element in \(value) {", [.line("size += \(fieldSize(field.number, kind, "element"))")])]
        case .map(let key, let mapValue):
            guard let keyKind = types.kind(of: key), let valueKind = types.kind(of: mapValue) else { return [] }
            let keyPart = fieldSize(1, keyKind, "key")
            let valuePart = fieldSize(2, valueKind, "value")
            let entry = sum(keyPart, valuePart)
            if let constant = Int(entry) {
                let perEntry = keySize(field.number, wireType: 2) + SwiftNames.varintLength(UInt64(max(constant, 0))) + constant
                return [.line("size += \(value).count * \(perEntry)")]
            }
            let pattern = "(\(Int(keyPart) == nil ? "key" : "_"), \(Int(valuePart) == nil ? "value" : "_"))"
            return [
                .block(
                    "for \(pattern) in \(value) {",
                    [
                        .line("size += \(keySize(field.number, wireType: 2)) + _WireSize.lengthDelimited(\(entry))")
                    ])
            ]
        case .scalar, .named:
            guard let kind = types.kind(of: field.type) else { return [] }
            if field.isOptional {
                let size = fieldSize(field.number, kind, "value")
                if Int(size) != nil {
                    return [.block("if \(value) != nil {", [.line("size += \(size)")])]
                }
                return [.block("if let value = \(value) {", [.line("size += \(size)")])]
            }
            let add = CodeItem.line("size += \(fieldSize(field.number, kind, value))")
            if field.omitsDefault, let condition = differsFromDefault(kind, value, field.defaultValue) {
                return [.block("if \(condition) {", [add])]
            }
            return [add]
        }
    }

    /// Statements writing the field.
    func encodeStatements(_ field: WireField, _ value: String) -> [CodeItem] {
        switch field.type {
        case .array(let element):
            guard let kind = types.kind(of: element) else { return [] }
            if types.isPacked(element) {
                let body =
                    packedSizeStatements(kind, value) + [
                        writeKey(field.number, wireType: 2),
                        .line("writer.writeUVarint(UInt64(packedSize))"),
                        .block("for element in \(value) {", writeValue(kind, "element")),
                    ]
                return field.omitsDefault ? [.block("if !\(value).isEmpty {", body)] : [.block("do {", body)]
            }
            return [.block("for element in \(value) {", writeField(field.number, kind, "element"))]
        case .map(let key, let mapValue):
            guard let keyKind = types.kind(of: key), let valueKind = types.kind(of: mapValue) else { return [] }
            let entry = sum(fieldSize(1, keyKind, "entryKey"), fieldSize(2, valueKind, "entryValue"))
            return [
                .block(
                    "\(value).forEachWireSorted { entryKey, entryValue in",
                    [
                        writeKey(field.number, wireType: 2),
                        .line("writer.writeUVarint(UInt64(\(entry)))"),
                    ] + writeField(1, keyKind, "entryKey") + writeField(2, valueKind, "entryValue")
                )
            ]
        case .scalar, .named:
            guard let kind = types.kind(of: field.type) else { return [] }
            if field.isOptional {
                return [.block("if let value = \(value) {", writeField(field.number, kind, "value"))]
            }
            if field.omitsDefault, let condition = differsFromDefault(kind, value, field.defaultValue) {
                return [.block("if \(condition) {", writeField(field.number, kind, value))]
            }
            return writeField(field.number, kind, value)
        }
    }

    /// The `case` label matching the raw key of field `number` with `wireType`.
    func keyLabel(_ number: UInt64, wireType: UInt64) -> String {
        "case 0x\(Hex.digits(number << 3 | wireType, width: 2, uppercase: true)):"
    }

    /// The switch cases (on the raw key varint) reading one occurrence of the field into
    /// the local variable `variable` (appending for arrays, inserting for maps). A known
    /// field number with another wire type falls to the decoder's `default`.
    func decodeCases(_ field: WireField, into variable: String) -> [SwitchCase] {
        switch field.type {
        case .array(let element):
            guard let kind = types.kind(of: element) else { return [] }
            guard types.isPacked(element) else {
                // One field per element: the first one read, reserve for elements of its size
                // before it is stored, so the array is allocated once.
                let element: [CodeItem] = [
                    .line("if mayPassLimit { try reader._checkElementCount(\(variable).count) }"),
                    .line("let decodedElement = \(readValue(kind, "reader"))"),
                    .block(
                        "if \(variable).isEmpty {",
                        [
                            .line(
                                "_WireCapacity.reserve(&\(variable), elementBytes: reader.reader.position - keyOffset, remaining: end - reader.reader.position)"
                            )
                        ]),
                    .line("\(variable).append(decodedElement)"),
                ]
                let key = field.number << 3 | wireType(kind)
                // Elements usually follow one another: while the next byte is this one-byte
                // key again, it is taken here rather than by the loop's switch.
                let next = "} while reader._nextIsKey(0x\(Hex.digits(key, width: 2, uppercase: true)), before: end)"
                // The count limit is checked per element only when this run could reach it.
                let check = CodeItem.line(
                    "let mayPassLimit = reader._elementsMayPassLimit(\(variable).count, before: end)")
                let body: [CodeItem] = key < 0x80 ? [check, .block("repeat {", element, footer: next)] : [check] + element
                return [SwitchCase(label: keyLabel(field.number, wireType: wireType(kind)), body: body)]
            }
            // Every element counts against maxCollectionCount, however the array is split into
            // packed runs and single elements.
            let single = SwitchCase(
                label: keyLabel(field.number, wireType: wireType(kind)),
                body: [
                    .line("try reader._checkElementCount(\(variable).count)"),
                    .line("\(variable).append(\(readValue(kind, "reader")))"),
                ])
            let packed = SwitchCase(
                label: keyLabel(field.number, wireType: 2),
                body: [
                    .block(
                        "try reader.readPacked { (packed: inout PayloadReader) throws(WireError) in",
                        [
                            .line("try packed._checkElementCount(\(variable).count)"),
                            .line("\(variable).append(\(readValue(kind, "packed")))"),
                        ])
                ])
            return [packed, single]
        case .map(let key, let mapValue):
            guard let keyKind = types.kind(of: key), let valueKind = types.kind(of: mapValue) else { return [] }
            let keyType = types.swiftType(key)
            let valueType = types.swiftType(mapValue)
            let label = SwiftNames.stringLiteral(field.label)
            // The entry is read in place, one level deeper than the value holding it, as
            // every nested value is (and as the dynamic codec reads it): no sub-reader.
            let body: [CodeItem] = [
                .line("let entryOffset = reader.reader.position"),
                .line("let entryEnclosingEnd = try reader._enterNested(depth: depth)"),
                .line("var entryKey: \(keyType) = \(types.zeroExpression(key))"),
                .line("var entryValue: \(valueType) = \(types.zeroExpression(mapValue))"),
                .block(
                    "while let entryField = try reader.nextKey() {",
                    [
                        .switchBlock(
                            "switch entryField.number {",
                            [
                                SwitchCase(
                                    label: "case 1:",
                                    body: [
                                        .line("try reader.expect(entryField, \(wireTypeExpression(keyKind)), field: \(label))"),
                                        .line("entryKey = \(readValue(keyKind, "reader", depth: "depth + 1"))"),
                                    ]),
                                SwitchCase(
                                    label: "case 2:",
                                    body: [
                                        .line("try reader.expect(entryField, \(wireTypeExpression(valueKind)), field: \(label))"),
                                        .line("entryValue = \(readValue(valueKind, "reader", depth: "depth + 1"))"),
                                    ]),
                                SwitchCase(label: "default:", body: [.line("try reader.skip(entryField)")]),
                            ])
                    ]),
                .line("reader._leaveNested(restoring: entryEnclosingEnd)"),
                .line("try reader._checkEntryCount(\(variable), adding: entryKey, entryOffset: entryOffset)"),
                .block(
                    "if \(variable).isEmpty {",
                    [
                        .line(
                            "_WireCapacity.reserve(&\(variable), elementBytes: reader.reader.position - keyOffset, remaining: end - reader.reader.position)"
                        )
                    ]),
                .line("\(variable)[entryKey] = entryValue"),
            ]
            return [SwitchCase(label: keyLabel(field.number, wireType: 2), body: body)]
        case .scalar, .named:
            guard let kind = types.kind(of: field.type) else { return [] }
            return [
                SwitchCase(
                    label: keyLabel(field.number, wireType: wireType(kind)),
                    body: [.line("\(variable) = \(readValue(kind, "reader"))")])
            ]
        }
    }
}

// MARK: Observed decoding

extension WireCodeBuilder {
    /// The line that tells the observer a field is about to be read (`key` and `keyOffset`
    /// in scope, the reader at the value).
    static let willRead = CodeItem.line("try observer.willRead(key, keyOffset: keyOffset, in: Self.self, reader: reader)")

    /// The switch cases of an observed decoder for one field: as ``decodeCases(_:into:)``,
    /// with the observer told before the field is read and after each value, and nested
    /// structs and messages read by their own observed decoders. Arrays take one element per
    /// turn of the decoder's loop (no run of keys read ahead), so each element's key is seen.
    func observedDecodeCases(_ field: WireField, into variable: String) -> [SwitchCase] {
        switch field.type {
        case .array(let element):
            guard let kind = types.kind(of: element) else { return [] }
            let single = SwitchCase(
                label: keyLabel(field.number, wireType: wireType(kind)),
                body: [Self.willRead, .line("try reader._checkElementCount(\(variable).count)")]
                    + observedRead(kind, "reader", store: "\(variable).append(value)"))
            guard types.isPacked(element) else { return [single] }
            let packed = SwitchCase(
                label: keyLabel(field.number, wireType: 2),
                body: [
                    Self.willRead,
                    .block(
                        "try reader.readPacked { (packed: inout PayloadReader) throws(WireError) in",
                        [.line("try packed._checkElementCount(\(variable).count)")]
                            + observedRead(kind, "packed", store: "\(variable).append(value)")),
                ])
            return [packed, single]
        case .map:
            // The entry as the plain decoder reads it, reported as one (key, value) pair.
            return decodeCases(field, into: variable).map { plain in
                var body = plain.body
                let store = body.removeLast()
                body.append(
                    .line(
                        "try observer.didRead((key: entryKey, value: entryValue), key: key, keyOffset: keyOffset, valueOffset: entryOffset, in: Self.self)"
                    ))
                body.append(store)
                return SwitchCase(label: plain.label, body: [Self.willRead] + body)
            }
        case .scalar, .named:
            guard let kind = types.kind(of: field.type) else { return [] }
            return [
                SwitchCase(
                    label: keyLabel(field.number, wireType: wireType(kind)),
                    body: [Self.willRead] + observedRead(kind, "reader", store: "\(variable) = value"))
            ]
        }
    }

    /// Reads one value into `value`, tells the observer, then runs `store`.
    private func observedRead(_ kind: ValueKind, _ reader: String, store: String) -> [CodeItem] {
        let read: String
        if case .nested(let name) = kind, types.isObservable(name) {
            read = "try \(name).decodeNested(from: &\(reader), depth: depth, observer: &observer)"
        } else {
            read = readValue(kind, reader)
        }
        return [
            .line("let valueOffset = \(reader).reader.position"),
            .line("let value = \(read)"),
            .line("try observer.didRead(value, key: key, keyOffset: keyOffset, valueOffset: valueOffset, in: Self.self)"),
            .line(store),
        ]
    }
}
