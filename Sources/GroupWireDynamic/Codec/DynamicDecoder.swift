import GroupWire
import GroupWireJSON
import GroupWireSpec

/// Reads payloads into JSON values, walking the spec types (the wire → JSON half of
/// ``DynamicCodec``). Every length, count and nesting level is checked against `Limits`
/// by `PayloadReader` or here before anything is allocated.
struct DynamicDecoder {
    let schema: DynamicSchema
    let limits: Limits
    let keepsUnknownFields: Bool
    /// Whether values are built; without, every check is made and `.null` stands for each
    /// value (``DynamicCodec/validate(_:as:)``), which spares the JSON of large payloads.
    var buildsValues = true
    /// How many enclosing containers' skims refused what this walk reads. A nested value
    /// is skimmed only below two, so that however deep a refusal lies in a large value (a
    /// point in a stroke in a snapshot), its bytes are skimmed at most twice before the
    /// general walk reads them.
    var skimRefusals = 0

    // MARK: Messages and structs

    /// Reads the fields of `container` to the end of `reader` and returns the JSON object:
    /// every non-optional field (absent ones as their default), optional fields only when present.
    /// `depth` is the container's nesting level (0 for the payload itself).
    func decodeContainer(_ container: DynamicSchema.Container, depth: Int, from reader: inout PayloadReader) throws(WireError)
        -> JSONValue
    {
        // Values by field index, each made (one slot per field) when a field needs it: a
        // container of scalars read without building values allocates nothing here.
        var singles: [JSONValue?] = []
        var lists: [[JSONValue]] = []
        // Without values, arrays are only counted (for maxCollectionCount), never filled.
        var counts: [Int] = []
        var maps: [[String: JSONValue]] = []
        var unknown: [UInt8] = []
        while let key = try reader.nextKey() {
            guard let index = container.index(ofNumber: key.number) else {
                if keepsUnknownFields {
                    unknown.append(contentsOf: try reader.captureUnknown(key))
                } else {
                    try reader.skip(key)
                }
                continue
            }
            let label = container.labels[index]
            switch container.shapes[index] {
            case .array(let element, let packed):
                if counts.isEmpty { counts = Array(repeating: 0, count: container.fields.count) }
                if buildsValues, lists.isEmpty { lists = Array(repeating: [], count: container.fields.count) }
                try readElements(
                    element, packed: packed, key: key, label: label, depth: depth, into: &lists, at: index,
                    count: &counts[index], from: &reader)
            case .map(let keyScalar, let valueSlot):
                if maps.isEmpty { maps = Array(repeating: [:], count: container.fields.count) }
                try readEntry(
                    keyScalar, valueSlot, field: index, of: container, key: key, label: label, depth: depth,
                    into: &maps[index], from: &reader)
            case .single(let slot):
                let value = try readSingle(slot, key: key, label: label, depth: depth, from: &reader)
                if buildsValues {
                    if singles.isEmpty { singles = Array(repeating: nil, count: container.fields.count) }
                    singles[index] = value
                }
            }
        }
        guard buildsValues else { return .null }
        var object: [String: JSONValue] = [:]
        object.reserveCapacity(container.fields.count)
        for (index, field) in container.fields.enumerated() {
            switch field.type {
            case .array: object[field.name] = .array(lists.isEmpty ? [] : lists[index])
            case .map: object[field.name] = .object(maps.isEmpty ? [:] : maps[index])
            case .scalar, .named:
                if !singles.isEmpty, let value = singles[index] {
                    object[field.name] = value
                } else if !field.isOptional {
                    object[field.name] = try defaultJSON(field.type, field.defaultValue, depth: 0)
                }
            }
        }
        if !unknown.isEmpty {
            object[DynamicCodec.unknownFieldsKey] = .string(Base64.encode(unknown))
        }
        return .object(object)
    }

    // MARK: Values

    /// Reads one value of a non-collection slot whose key has just been read, in a
    /// container at nesting level `depth`. Nested values are read in place (the reader
    /// narrowed to them, as generated decoders do): no sub-reader to count references to.
    func readSingle(
        _ slot: DynamicSchema.Slot, key: FieldKey, label: String, depth: Int, from reader: inout PayloadReader
    ) throws(WireError) -> JSONValue {
        switch slot {
        case .scalar(let scalar):
            try reader.expect(key, ScalarMapping.wireType(scalar), field: label)
            guard buildsValues else {
                try ScalarMapping.check(scalar, from: &reader)
                return .null
            }
            return try ScalarMapping.read(scalar, from: &reader)
        case .declared(.enumeration(let index)):
            try reader.expect(key, .varint, field: label)
            let number = try reader.readUInt(as: UInt32.self)
            return buildsValues ? enumJSON(schema.enums[index], number) : .null
        case .declared(.container(let index)):
            try reader.expect(key, .lengthDelimited, field: label)
            return try readNested(container: index, depth: depth, from: &reader)
        case .declared(.union(let index)):
            try reader.expect(key, .lengthDelimited, field: label)
            let enclosing = try reader._enterNested(depth: depth)
            // decodeUnion checks that it stops at the nested value's end.
            let value = try decodeUnion(schema.unions[index], label: label, depth: depth + 1, from: &reader)
            reader._leaveNested(restoring: enclosing)
            return value
        case .undeclared(let index):
            throw WireError(
                .unknownType, offset: reader.reader.position,
                "the spec declares no type named \(schema.undeclaredNames[index]) (field \(label))")
        case .collection:
            throw WireError(
                .typeMismatch, offset: reader.reader.position,
                "field \(label) nests a collection directly, which specs do not allow")
        }
    }

    /// A nested message or struct value whose key was read and checked: entered in place,
    /// skimmed when only validating a skimmable container (``skimRefusals`` allowing),
    /// otherwise read by the general walk to its end.
    @inline(__always)
    private func readNested(container index: Int, depth: Int, from reader: inout PayloadReader) throws(WireError) -> JSONValue {
        let enclosing = try reader._enterNested(depth: depth)
        let value: JSONValue
        if !buildsValues, skimRefusals < 2, schema.isSkimmable[index] {
            if skim(container: index, depth: depth + 1, from: &reader) {
                value = .null
            } else {
                var walk = self
                walk.skimRefusals += 1
                value = try walk.decodeContainer(schema.containers[index], depth: depth + 1, from: &reader)
            }
        } else {
            value = try decodeContainer(schema.containers[index], depth: depth + 1, from: &reader)
        }
        reader._leaveNested(restoring: enclosing)
        return value
    }

    /// Validates the fields of a skimmable container (``DynamicSchema/isSkimmable``) at
    /// nesting level `depth`, from the reader's position to its end, without the general
    /// walk: each key one byte with a step (``DynamicSchema/SkimStep``) that accepts the
    /// value after it. What it accepts, the general walk accepts too, with the same decoded
    /// values counted; for anything else (a longer key, an unknown field, a wrong wire
    /// type, a value cut short, not minimal or over a limit, a string not ASCII) it returns
    /// false with the reader where it was, and the general walk reads the value again and
    /// reports what it finds.
    func skim(container index: Int, depth: Int, from reader: inout PayloadReader) -> Bool {
        let start = reader.reader.position
        let end = reader.reader.end
        var values = reader.decodedValues
        let accepted = reader.reader.bytes.withUnsafeBufferPointer { bytes in
            schema.skimSteps.withUnsafeBufferPointer { steps in
                Self.skim(
                    container: index, start: start, end: end, depth: depth, values: &values, limits: limits, bytes: bytes,
                    steps: steps)
            }
        }
        guard accepted else { return false }
        do {
            try reader.reader.skip(count: end - start)
        } catch {
            return false  // unreachable: start <= end, the reader's own bounds
        }
        reader.decodedValues = values
        return true
    }

    /// ``skim(container:depth:from:)`` of a whole message, `range` of `bytes` (within its
    /// bounds), at depth 0 with no value decoded yet: what validating a message tries
    /// first, without making a reader or a decoder (their making and destruction cost as
    /// much as skimming a short message).
    static func skim(
        container index: Int, _ bytes: [UInt8], in range: Range<Int>, schema: DynamicSchema, limits: Limits
    ) -> Bool {
        var values = 0
        return bytes.withUnsafeBufferPointer { bytes in
            schema.skimSteps.withUnsafeBufferPointer { steps in
                skim(
                    container: index, start: range.lowerBound, end: range.upperBound, depth: 0, values: &values,
                    limits: limits, bytes: bytes, steps: steps)
            }
        }
    }

    /// ``skim(container:depth:from:)`` over `start..<end` of `bytes` (within its bounds),
    /// counting decoded values in `values`.
    private static func skim(
        container index: Int, start: Int, end: Int, depth: Int, values: inout Int, limits: Limits,
        bytes: UnsafeBufferPointer<UInt8>, steps: UnsafeBufferPointer<DynamicSchema.SkimStep>
    ) -> Bool {
        let table = index &* 128  // safe because: index < containers.count, and steps has 128 per container
        // The elements of this container's arrays, all fields together: at least each
        // one's own count, which the general walk checks against maxCollectionCount.
        var elements = 0
        // Decoded values, written back only when the whole container is accepted.
        var counted = values
        var position = start
        while position < end {
            // safe because: start <= position < end <= bytes.count.
            let key = Int(bytes[position])
            guard key < 128 else { return false }
            // safe because: the table has 128 entries for each container, and key < 128.
            let step = steps[table &+ key]
            position &+= 1
            let left = end &- position  // the bytes after the key, >= 0
            switch step.kind {
            case .refuse:
                return false
            case .fixed:
                let width = Int(truncatingIfNeeded: step.argument)
                guard width <= left else { return false }
                position &+= width
            case .varint:
                guard left > 0 else { return false }
                let first = bytes[position]  // safe because: left > 0 puts position below end
                if first < 0x80 {
                    guard UInt64(first) <= step.argument else { return false }
                    position &+= 1
                } else {
                    guard let value = varint(bytes, at: &position, end: end), value <= step.argument else { return false }
                }
            case .uuid:
                // safe because: left >= 17 puts position below end.
                guard left >= 17, bytes[position] == 16 else { return false }
                position &+= 17
            case .string, .bytes:
                guard counted < limits.maxDecodedValues else { return false }
                let limit = step.kind == .string ? limits.maxStringLength : limits.maxBytesLength
                guard let length = self.length(bytes, at: &position, end: end, limit: limit) else { return false }
                let first = position
                position &+= length  // safe because: length <= end - position
                if step.kind == .string {
                    // safe because: first...position - 1 lies below end.
                    for offset in first..<position where bytes[offset] >= 0x80 { return false }
                }
                counted &+= 1  // safe because: below maxDecodedValues, an Int
            case .nested, .element, .fixedNested:
                if step.kind == .element {
                    guard elements < limits.maxCollectionCount else { return false }
                    elements &+= 1  // safe because: below maxCollectionCount, an Int
                }
                guard depth < limits.maxNestingDepth, counted < limits.maxDecodedValues,
                    let length = self.length(bytes, at: &position, end: end, limit: limits.maxMessageSize)
                else { return false }
                counted &+= 1  // safe because: below maxDecodedValues, an Int
                let first = position
                position &+= length  // safe because: length <= end - position
                let nested = Int(truncatingIfNeeded: step.argument)
                if step.kind == .fixedNested {
                    guard skimFixed(container: nested, start: first, end: position, bytes: bytes, steps: steps) else {
                        return false
                    }
                } else {
                    guard
                        skim(
                            container: nested, start: first, end: position, depth: depth &+ 1, values: &counted,
                            limits: limits, bytes: bytes, steps: steps)
                    else { return false }
                }
            case .fixedElement:
                // A run of elements (a stroke's points), each key the same byte: taken in
                // this loop, the limits read once, without going back to the table.
                guard depth < limits.maxNestingDepth else { return false }
                let repeated = UInt8(truncatingIfNeeded: key)
                let nested = Int(truncatingIfNeeded: step.argument)
                // The elements the run may take before the element count or the value count
                // refuses one (each element is one value).
                let room = min(limits.maxCollectionCount &- elements, limits.maxDecodedValues &- counted)
                let maxSize = limits.maxMessageSize
                var taken = 0
                while true {
                    guard taken < room, let length = self.length(bytes, at: &position, end: end, limit: maxSize) else {
                        return false
                    }
                    taken &+= 1  // safe because: below room, an Int
                    let first = position
                    position &+= length  // safe because: length <= end - position
                    guard skimFixed(container: nested, start: first, end: position, bytes: bytes, steps: steps) else {
                        return false
                    }
                    // safe because: position < end <= bytes.count.
                    guard position < end, bytes[position] == repeated else { break }
                    position &+= 1
                }
                elements &+= taken  // safe because: taken <= maxCollectionCount - elements
                counted &+= taken  // safe because: taken <= maxDecodedValues - counted
            }
        }
        values = counted
        return true
    }

    /// ``skim(container:start:end:depth:values:limits:bytes:steps:)`` of a container whose
    /// fields are all fixed-width (no value to count, nothing nested): each key's step is
    /// ``DynamicSchema/SkimStep/Kind/fixed`` and its bytes follow.
    @inline(__always)
    private static func skimFixed(
        container index: Int, start: Int, end: Int, bytes: UnsafeBufferPointer<UInt8>,
        steps: UnsafeBufferPointer<DynamicSchema.SkimStep>
    ) -> Bool {
        let table = index &* 128  // safe because: index < containers.count, and steps has 128 per container
        var position = start
        while position < end {
            // safe because: start <= position < end <= bytes.count.
            let key = Int(bytes[position])
            guard key < 128 else { return false }
            // safe because: the table has 128 entries for each container, and key < 128.
            let step = steps[table &+ key]
            let width = Int(truncatingIfNeeded: step.argument)
            guard step.kind == .fixed, width < end &- position else { return false }
            position &+= 1 &+ width  // safe because: position + 1 + width <= end
        }
        return true
    }

    /// The varint at `position` (``Varint/read(_:at:end:failure:)``), which moves past
    /// it; nil for one cut short, not minimal or over 64 bits, all of which the general
    /// walk reports.
    private static func varint(_ bytes: UnsafeBufferPointer<UInt8>, at position: inout Int, end: Int) -> UInt64? {
        var failure = Varint.Failure.truncated
        return Varint.read(bytes, at: &position, end: end, failure: &failure)
    }

    /// The length prefix at `position` (a varint, as ``varint(_:at:end:)`` reads it) when
    /// it is at most `limit` and the bytes before `end` hold that many after it; the
    /// position moves past the prefix.
    @inline(__always)
    private static func length(_ bytes: UnsafeBufferPointer<UInt8>, at position: inout Int, end: Int, limit: Int) -> Int? {
        guard position < end else { return nil }
        let first = bytes[position]  // safe because: position < end <= bytes.count
        guard first < 0x80 else { return longLength(bytes, at: &position, end: end, limit: limit) }
        let value = Int(first)
        guard value <= limit, value < end &- position else { return nil }
        position &+= 1
        return value
    }

    /// ``length(_:at:end:limit:)`` of a prefix of two bytes or more.
    private static func longLength(_ bytes: UnsafeBufferPointer<UInt8>, at position: inout Int, end: Int, limit: Int) -> Int? {
        var cursor = position
        guard let value = varint(bytes, at: &cursor, end: end) else { return nil }
        let room = min(limit, end &- cursor)
        guard room >= 0, value <= UInt64(room) else { return nil }
        position = cursor
        return Int(value)  // safe because: at most room, an Int
    }

    /// Reads array elements from one field: a packed run or a single element, counted in
    /// `count` and, when values are built, appended to `lists[index]`.
    private func readElements(
        _ element: DynamicSchema.Slot, packed: WireType?, key: FieldKey, label: String, depth: Int,
        into lists: inout [[JSONValue]], at index: Int, count: inout Int, from reader: inout PayloadReader
    ) throws(WireError) {
        if let packed, key.wireType == .lengthDelimited, packed != .lengthDelimited {
            try reader.readPacked { (nested) throws(WireError) in
                guard count < limits.maxCollectionCount else {
                    throw WireError(
                        .limitExceeded, offset: nested.reader.position,
                        "array \(label) has more than maxCollectionCount \(limits.maxCollectionCount) elements")
                }
                let value = try readPackedElement(element, from: &nested)
                count += 1
                if buildsValues { lists[index].append(value) }
            }
            return
        }
        // An array's elements usually follow one another: while the next byte is this
        // field's one-byte key again, the key is taken here, as the container's loop would
        // take it (same checks, same order, same offsets), without that loop's lookups.
        let repeatedKey: UInt8? = key.encoded < 0x80 ? UInt8(key.encoded) : nil
        // Validating an array of skimmable containers (a stroke's points): each element is
        // read as `readSingle` would after its wire type check, without its switch.
        var skimmable: Int?
        if !buildsValues, key.wireType == .lengthDelimited, case .declared(.container(let container)) = element,
            schema.isSkimmable[container]
        {
            skimmable = container
        }
        while true {
            guard count < limits.maxCollectionCount else {
                throw WireError(
                    .limitExceeded, offset: reader.reader.position,
                    "array \(label) has more than maxCollectionCount \(limits.maxCollectionCount) elements")
            }
            if let container = skimmable {
                _ = try readNested(container: container, depth: depth, from: &reader)
                count += 1
            } else {
                let value = try readSingle(element, key: key, label: label, depth: depth, from: &reader)
                count += 1
                if buildsValues { lists[index].append(value) }
            }
            let next = reader.reader.position
            guard let repeatedKey, next < reader.reader.end, reader.reader.bytes[next] == repeatedKey else { return }
            try reader.reader.skip(count: 1)
        }
    }

    /// Reads one element of a packed run: a number, a Bool or an enum value.
    func readPackedElement(_ element: DynamicSchema.Slot, from reader: inout PayloadReader) throws(WireError) -> JSONValue {
        switch element {
        case .scalar(let scalar):
            guard buildsValues else {
                try ScalarMapping.check(scalar, from: &reader)
                return .null
            }
            return try ScalarMapping.read(scalar, from: &reader)
        case .declared(.enumeration(let index)):
            let number = try reader.readUInt(as: UInt32.self)
            return buildsValues ? enumJSON(schema.enums[index], number) : .null
        case .declared(let reference):
            throw WireError(
                .typeMismatch, offset: reader.reader.position, "\(schema.name(of: reference)) values cannot be packed")
        case .undeclared(let index):
            throw WireError(
                .typeMismatch, offset: reader.reader.position, "\(schema.undeclaredNames[index]) values cannot be packed")
        case .collection:
            throw WireError(.typeMismatch, offset: reader.reader.position, "collections cannot be packed")
        }
    }

    /// Reads one map entry `{1: key, 2: value}` of field `field` of `container`; an absent
    /// key or value is its default, a repeated key keeps the last value.
    func readEntry(
        _ keyScalar: ScalarType?, _ valueSlot: DynamicSchema.Slot, field: Int, of container: DynamicSchema.Container,
        key: FieldKey, label: String, depth: Int, into map: inout [String: JSONValue], from reader: inout PayloadReader
    ) throws(WireError) {
        try reader.expect(key, .lengthDelimited, field: label)
        guard let keyScalar else {
            throw WireError(.typeMismatch, offset: reader.reader.position, "map \(label) has a key type that is not a scalar")
        }
        let entryOffset = reader.reader.position
        // The entry is read in place to its end, one level deeper.
        let enclosing = try reader._enterNested(depth: depth)
        var entryKey: JSONValue?
        var entryValue: JSONValue?
        while let entryField = try reader.nextKey() {
            switch entryField.number {
            case 1:
                // Keys are built even when values are not: they tell entries apart for the count limit.
                var keys = self
                keys.buildsValues = true
                entryKey = try keys.readSingle(
                    .scalar(keyScalar), key: entryField, label: "\(label) key", depth: depth + 1, from: &reader)
            case 2:
                entryValue = try readSingle(valueSlot, key: entryField, label: "\(label) value", depth: depth + 1, from: &reader)
            default: try reader.skip(entryField)
            }
        }
        reader._leaveNested(restoring: enclosing)
        let text = MapKey.jsonText(entryKey ?? ScalarMapping.defaultJSON(keyScalar, nil), type: keyScalar)
        if map[text] == nil, map.count >= limits.maxCollectionCount {
            throw WireError(
                .limitExceeded, offset: entryOffset,
                "map \(label) has more than maxCollectionCount \(limits.maxCollectionCount) entries")
        }
        if let entryValue {
            map[text] = entryValue
        } else if buildsValues, case .map(_, let valueType) = container.fields[field].type {
            map[text] = try defaultJSON(valueType, nil, depth: 0)
        } else {
            map[text] = .null
        }
    }

    /// Reads a union's content: exactly one field, a known case.
    private func decodeUnion(
        _ union: DynamicSchema.Union, label: String, depth: Int, from reader: inout PayloadReader
    ) throws(WireError) -> JSONValue {
        let start = reader.reader.position
        guard let key = try reader.nextKey() else {
            throw WireError(
                .missingField, offset: start, "union \(union.name) (\(label)) is empty; it must hold exactly one case")
        }
        guard let index = union.indexByNumber[key.number] else {
            throw WireError(.invalidValue, offset: start, "union \(union.name) (\(label)) has no case numbered \(key.number)")
        }
        let chosen = union.cases[index]
        let value: JSONValue
        if let slot = chosen.slot {
            value = try readSingle(slot, key: key, label: chosen.label, depth: depth, from: &reader)
        } else {
            try reader.expect(key, .lengthDelimited, field: chosen.label)
            try reader.skip(key)
            value = .object([:])
        }
        guard reader.isAtEnd else {
            throw WireError(
                .invalidValue, offset: reader.reader.position,
                "union \(union.name) (\(label)) holds more than one field; it must hold exactly one case")
        }
        return .object([chosen.name: value])
    }

    // MARK: Enums and defaults

    /// An enum value as its case name, or its number when the case is unknown.
    private func enumJSON(_ decl: DynamicSchema.Enum, _ number: UInt32) -> JSONValue {
        if let name = decl.nameByNumber[number] { return .string(name) }
        return .number(JSONNumber(UInt64(number)))
    }

    /// The JSON of a value of `type` that is absent: its declared or zero default.
    func defaultJSON(_ type: TypeRef, _ value: DefaultValue?, depth: Int) throws(WireError) -> JSONValue {
        // A checked spec has no type containing itself by value, so a default nests at most
        // one level per message, struct and union: the bound only guards specs built by hand.
        // It is not maxNestingDepth, which bounds the input: an absent field reads nothing,
        // and generated code makes the same default however deep it nests.
        let declarations = schema.containers.count + schema.unions.count
        guard depth <= declarations else {
            throw WireError(
                .depthExceeded,
                "the default value of \(type) nests deeper than the spec's \(declarations) messages, structs and unions: a type contains itself"
            )
        }
        switch type {
        case .scalar(let scalar):
            return ScalarMapping.defaultJSON(scalar, value)
        case .array:
            return .array([])
        case .map:
            return .object([:])
        case .named(let name):
            switch schema.declaration(name) {
            case .enum(let decl):
                if case .enumCase(let caseName, _) = value { return .string(caseName) }
                return enumJSON(decl, 0)
            case .container(let decl):
                var object: [String: JSONValue] = [:]
                for field in decl.fields where !field.isOptional {
                    object[field.name] = try defaultJSON(field.type, field.defaultValue, depth: depth + 1)
                }
                return .object(object)
            case .union(let decl):
                guard let first = decl.cases.first else { return .object([:]) }
                let payload = try first.payload.map { (payload) throws(WireError) in
                    try defaultJSON(payload, nil, depth: depth + 1)
                }
                return .object([first.name: payload ?? .object([:])])
            case nil:
                throw WireError(.unknownType, "the spec declares no type named \(name)")
            }
        }
    }
}
