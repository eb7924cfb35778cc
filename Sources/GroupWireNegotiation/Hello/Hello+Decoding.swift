import GroupWire
import GroupWireSpec

extension Hello {
    /// Decodes and checks a hello body from a peer.
    ///
    /// Checks, in this order (Spec/FORMAT.md, "Reading a hello"): the body size; each field
    /// as it is read (wire types, ranges, lengths and counts against `limits`); the
    /// required fields; the version range; duplicate codecs and dictionaries; the schema
    /// table (names unique, type ids unique, type references inside the table, the rules of
    /// the spec language); the fingerprints, each message's, then the spec's.
    /// - Parameters:
    ///   - payload: the control frame's body.
    ///   - limits: the bounds on what the peer controls.
    /// - Throws: `WireError` with the kind and the offset in `payload`: `limitExceeded`,
    ///   `missingField`, `invalidValue`, `invalidVersionRange`, `duplicateCodec`,
    ///   `duplicateTypeName`, `duplicateTypeID`, `invalidSchema`, `fingerprintMismatch`,
    ///   and the payload reader's errors (`truncated`, `typeMismatch`, `invalidUTF8`, ...).
    public init(payload: [UInt8], limits: HelloLimits = .default) throws(WireError) {
        guard payload.count <= limits.maxHelloSize else {
            throw WireError(
                .limitExceeded, offset: 0, "a hello of \(payload.count) bytes is over maxHelloSize \(limits.maxHelloSize)")
        }
        // The generated decoder reads; the checks observe each field as it is read.
        var reader = PayloadReader(
            payload,
            limits: Limits(
                maxMessageSize: limits.maxHelloSize, maxNestingDepth: 4, maxCollectionCount: limits.maxHelloSize,
                maxStringLength: max(limits.maxNameLength, limits.maxStringLength), maxBytesLength: limits.maxHelloSize))
        var checks = HelloChecks(limits: limits)
        let body = try HelloBody(decodingWire: &reader, observer: &checks)
        self = try checks.hello(from: body, size: payload.count)
    }
}

/// The hello's checks (Spec/FORMAT.md, "Reading a hello"): those of step 2 as the generated
/// decoder reads each field (ranges, lengths, counts, names, the required fields of a spec,
/// codec or dictionary when it ends), recording the offsets the later steps report; then,
/// from the decoded `HelloBody`, steps 3 to 6.
private struct HelloChecks: WireDecodingObserver {
    /// A schema entry with its offsets, before its type references are resolved.
    struct RawEntry {
        var offset: Int
        var name: String?
        var kind: SchemaEntry.Kind?
        var typeID: UInt64?
        /// The key offset of the type id (field 3), for a check that concerns it.
        var typeIDOffset: Int?
        var fingerprint: (value: UInt64, offset: Int)?
        var fields: [RawMember] = []
        var cases: [RawMember] = []
        var reservedNumbers: [ClosedRange<UInt64>] = []
        var reservedNames: [String] = []
        var isImported = false
        var end: Int
    }

    /// A field (entry field 5) or a case (entry field 6) with its offsets: both have a number
    /// (1), a name (2) and a type expression (3: a field's type, a case's payload); only a
    /// field has the optional flag (4) and a default (5), which in a case are unknown fields.
    struct RawMember {
        var offset: Int
        var number: UInt64?
        var name: String?
        var type: (codes: [UInt64], offset: Int)?
        var isOptional = false
        var defaultValue: RawDefault?
        var end: Int
    }

    /// A field's default as read: its key's offset and wire type, the bits of a number or
    /// the text of a string.
    struct RawDefault {
        var offset: Int
        var wireType: WireType
        var bits: UInt64 = 0
        var text = ""
    }

    let limits: HelloLimits
    private var codecOffsets: [(codec: Int, dictionaries: [Int])] = []
    private var maxVersionOffset = 0
    private var specFingerprintOffset = 0
    /// The entries read so far, with their offsets; the last one is being read while
    /// `inEntry`.
    private var entries: [RawEntry] = []
    private var inEntry = false
    /// The field or case being read.
    private var member: RawMember?
    private var reservedCount = 0

    init(limits: HelloLimits) {
        self.limits = limits
    }

    // MARK: Step 2, as each field is read

    mutating func willRead<Container>(_ key: FieldKey, keyOffset: Int, in container: Container.Type, reader: PayloadReader)
        throws(WireError)
    {
        switch (container, key.number) {
        case (is HelloBody.Type, 4):
            guard codecOffsets.count < limits.maxCodecs else {
                throw WireError(.limitExceeded, offset: keyOffset, "more than maxCodecs \(limits.maxCodecs) codecs")
            }
            codecOffsets.append((keyOffset, []))
        case (is HelloBody.Type, 7):
            guard entries.count < limits.maxTypes else {
                throw WireError(.limitExceeded, offset: keyOffset, "more than maxTypes \(limits.maxTypes) declarations")
            }
            entries.append(RawEntry(offset: keyOffset, end: keyOffset))
            inEntry = true
            reservedCount = 0
        case (is HelloBodySpec.Type, 1), (is HelloBodyType.Type, 1), (is HelloBodyField.Type, 2), (is HelloBodyCase.Type, 2):
            try Self.checkLength(reader, limit: limits.maxNameLength, "name")
        case (is HelloBodyCodec.Type, 2):
            guard let last = codecOffsets.indices.last, codecOffsets[last].dictionaries.count < limits.maxDictionaries else {
                throw WireError(
                    .limitExceeded, offset: keyOffset, "more than maxDictionaries \(limits.maxDictionaries) dictionaries")
            }
            codecOffsets[last].dictionaries.append(keyOffset)
        case (is HelloBodyType.Type, 5), (is HelloBodyType.Type, 6):
            let members = entries.last.map { $0.fields.count + $0.cases.count } ?? 0
            guard members < limits.maxMembers else {
                throw WireError(
                    .limitExceeded, offset: keyOffset,
                    "more than maxMembers \(limits.maxMembers) fields or cases in one declaration")
            }
            member = RawMember(offset: keyOffset, end: keyOffset)
        case (is HelloBodyType.Type, 7):
            try checkReservedNumbers(key, keyOffset: keyOffset, reader: reader)
        case (is HelloBodyType.Type, 8):
            guard reservedCount < limits.maxReserved else {
                throw WireError(
                    .limitExceeded, offset: keyOffset,
                    "more than maxReserved \(limits.maxReserved) reservations in one declaration")
            }
            try Self.checkLength(reader, limit: limits.maxNameLength, "name")
            reservedCount += 1
        case (is HelloBodyField.Type, 3), (is HelloBodyCase.Type, 3):
            var probe = reader
            member?.type = (try Self.readTypeCodes(&probe, limits: limits), keyOffset)
        case (is HelloBodyField.Type, 5):
            // The default: not declared (its wire type is the field type's), read here.
            var probe = reader
            var value = RawDefault(offset: keyOffset, wireType: key.wireType)
            switch key.wireType {
            case .varint: value.bits = try probe.readUInt()
            case .fixed64: value.bits = try probe.readFixed64()
            case .fixed32: value.bits = UInt64(try probe.readFixed32())
            default:
                try Self.checkLength(probe, limit: limits.maxStringLength, "string default")
                value.text = try probe.readString()
            }
            member?.defaultValue = value
        default:
            break
        }
    }

    mutating func didRead<Container, Value>(
        _ value: Value, key: FieldKey, keyOffset: Int, valueOffset: Int, in container: Container.Type
    ) throws(WireError) {
        switch (container, key.number, value) {
        case (is HelloBody.Type, 1, let version as UInt8), (is HelloBody.Type, 2, let version as UInt8):
            try Self.check(UInt64(version), 1...255, "an envelope version", at: valueOffset)
            if key.number == 2 { maxVersionOffset = keyOffset }
        case (is HelloBody.Type, 5, let size as UInt32):
            try Self.check(UInt64(size), 64...UInt64(UInt32.max), "maxFrameSize", at: valueOffset)
        case (is HelloBody.Type, 6, let size as UInt32):
            try Self.check(UInt64(size), 1...UInt64(UInt32.max), "maxMessageSize", at: valueOffset)
        case (is HelloBodySpec.Type, 1, let name as String):
            // At its length, as every other name is.
            try Self.checkPackageName(name, at: valueOffset)
        case (is HelloBodySpec.Type, 3, _):
            specFingerprintOffset = keyOffset
        case (is HelloBodyCodec.Type, 1, let codec as UInt8):
            try Self.check(UInt64(codec), 1...255, "codec id", at: valueOffset)
        case (is HelloBodyDictionary.Type, 1, let id as UInt32):
            try Self.check(UInt64(id), 1...UInt64(UInt32.max), "dictionary id", at: valueOffset)
        case (is HelloBodyType.Type, 1, let name as String), (is HelloBodyType.Type, 8, let name as String),
            (is HelloBodyField.Type, 2, let name as String), (is HelloBodyCase.Type, 2, let name as String):
            try Self.checkIdentifier(name, at: valueOffset)
        case (is HelloBodyType.Type, 2, let kind as UInt8):
            try Self.check(UInt64(kind), 1...4, "declaration kind", at: valueOffset)
        case (is HelloBodyType.Type, 3, let typeID as UInt32):
            try Self.check(UInt64(typeID), 1...UInt64(UInt32.max), "type id", at: valueOffset)
            if inEntry { entries[entries.count - 1].typeIDOffset = keyOffset }
        case (is HelloBodyType.Type, 4, let fingerprint as UInt64):
            if inEntry { entries[entries.count - 1].fingerprint = (fingerprint, keyOffset) }
        default:
            break
        }
    }

    mutating func didDecode<Value>(_ value: Value, start: Int, end: Int) throws(WireError) {
        switch value {
        case let spec as HelloBodySpec where spec.package == nil || spec.version == nil || spec.fingerprint == nil:
            throw WireError(.missingField, offset: end, "the spec needs its package (1), version (2) and fingerprint (3)")
        case let codec as HelloBodyCodec where codec.codec == nil:
            throw WireError(.missingField, offset: end, "a codec entry needs its codec id (1)")
        case let dictionary as HelloBodyDictionary where dictionary.id == nil || dictionary.contentHash == nil:
            throw WireError(.missingField, offset: end, "a dictionary needs its id (1) and content hash (2)")
        case let field as HelloBodyField:
            finishMember(number: field.number, name: field.name, isOptional: field.optional, end: end, isField: true)
        case let item as HelloBodyCase:
            finishMember(number: item.number, name: item.name, isOptional: false, end: end, isField: false)
        case is HelloBodyType where inEntry:
            entries[entries.count - 1].end = end
            inEntry = false
        default:
            break
        }
    }

    private mutating func finishMember(number: UInt64?, name: String?, isOptional: Bool, end: Int, isField: Bool) {
        guard var done = member, inEntry else { return }
        done.number = number
        done.name = name
        done.isOptional = isOptional
        done.end = end
        if isField { entries[entries.count - 1].fields.append(done) } else { entries[entries.count - 1].cases.append(done) }
        member = nil
    }

    /// `7 reserved numbers`, a packed run only (FORMAT.md: packed varints), checked once
    /// read: more than `maxReserved` reservations, an odd count, a pair upside down, each
    /// at the field's key.
    private mutating func checkReservedNumbers(_ key: FieldKey, keyOffset: Int, reader: PayloadReader) throws(WireError) {
        guard key.wireType == .lengthDelimited else {
            throw WireError(
                .typeMismatch, offset: keyOffset, "reserved numbers have wire type \(key.wireType), expected a packed run")
        }
        var probe = reader
        var values: [UInt64] = []
        var tooMany = false
        let reservedSoFar = reservedCount
        let limits = limits
        try probe.readPacked { (element) throws(WireError) in
            guard reservedSoFar + (values.count + 2) / 2 <= limits.maxReserved else {
                tooMany = true; _ = try element.readUInt(); return
            }
            values.append(try element.readUInt())
        }
        guard !tooMany else {
            throw WireError(
                .limitExceeded, offset: keyOffset, "more than maxReserved \(limits.maxReserved) reservations in one declaration")
        }
        guard values.count % 2 == 0 else {
            throw WireError(
                .invalidValue, offset: keyOffset, "reserved numbers come in pairs (low, high); \(values.count) values")
        }
        for index in stride(from: 0, to: values.count, by: 2) where values[index] > values[index + 1] {
            throw WireError(
                .invalidValue, offset: keyOffset, "reserved range \(values[index])...\(values[index + 1]) is upside down")
        }
        reservedCount += values.count / 2
    }

    /// `value` in `range`, else `invalidValue` at the value.
    private static func check(_ value: UInt64, _ range: ClosedRange<UInt64>, _ what: String, at offset: Int) throws(WireError) {
        guard range.contains(value) else {
            throw WireError(
                .invalidValue, offset: offset, "\(what) \(value) is outside \(range.lowerBound)...\(range.upperBound)")
        }
    }

    /// A string of at most `limit` UTF-8 bytes at `reader`, else `limitExceeded` at its length.
    private static func checkLength(_ reader: PayloadReader, limit: Int, _ what: String) throws(WireError) {
        var probe = reader.reader
        let offset = probe.position
        let length = try probe.readUVarint()
        guard length <= UInt64(limit) else {
            throw WireError(.limitExceeded, offset: offset, "\(what) of \(length) bytes is over the limit of \(limit)")
        }
    }

    private static func readTypeCodes(_ reader: inout PayloadReader, limits: HelloLimits) throws(WireError) -> [UInt64] {
        let offset = reader.reader.position
        var codes: [UInt64] = []
        try reader.readPacked { (element) throws(WireError) in
            guard codes.count < limits.maxTypeCodes else {
                throw WireError(
                    .limitExceeded, offset: offset, "a type expression of more than maxTypeCodes \(limits.maxTypeCodes) codes")
            }
            codes.append(try element.readUInt())
        }
        return codes
    }

    /// A name: `[A-Za-z_][A-Za-z0-9_]*`; else `invalidSchema` at its length.
    private static func checkIdentifier(_ name: String, at offset: Int) throws(WireError) {
        guard isIdentifier(Substring(name)) else {
            throw WireError(.invalidSchema, offset: offset, "'\(name)' is not an identifier ([A-Za-z_][A-Za-z0-9_]*)")
        }
    }

    private static func isIdentifier(_ name: Substring) -> Bool {
        guard let first = name.utf8.first, first == 0x5F || (first | 0x20) >= 0x61 && (first | 0x20) <= 0x7A else { return false }
        return name.utf8.allSatisfy { $0 == 0x5F || ($0 | 0x20) >= 0x61 && ($0 | 0x20) <= 0x7A || (0x30...0x39).contains($0) }
    }

    /// A package name: identifiers joined by dots.
    private static func checkPackageName(_ name: String, at offset: Int) throws(WireError) {
        guard name.split(separator: ".", omittingEmptySubsequences: false).allSatisfy(isIdentifier) else {
            throw WireError(.invalidSchema, offset: offset, "'\(name)' is not a package name (identifiers joined by dots)")
        }
    }

    // MARK: Steps 3 to 6, on the decoded body

    func hello(from body: HelloBody, size: Int) throws(WireError) -> Hello {
        guard let minVersion = body.minVersion, let maxVersion = body.maxVersion else {
            throw WireError(.missingField, offset: size, "a hello needs its lowest (1) and highest (2) envelope versions")
        }
        if !body.types.isEmpty && body.spec == nil {
            throw WireError(.missingField, offset: size, "a hello with a schema table needs its spec (3)")
        }
        guard minVersion <= maxVersion else {
            throw WireError(
                .invalidVersionRange, offset: maxVersionOffset, "envelope versions \(minVersion)...\(maxVersion) are upside down")
        }
        // Present, as the checks at each end made sure.
        let codecs = body.codecs.map { codec in
            HelloCodec(
                codec: codec.codec ?? 0,
                dictionaries: codec.dictionaries.map { dictionary in
                    // The digest's bytes in digest order, read as a u64le: byte-swapped to the big-endian value.
                    HelloDictionary(
                        id: dictionary.id ?? 0, contentHash: DictionaryHash(value: (dictionary.contentHash ?? 0).byteSwapped))
                })
        }
        var seenCodecs: Set<UInt8> = []
        for (codec, offsets) in zip(codecs, codecOffsets) {
            guard seenCodecs.insert(codec.codec).inserted else {
                throw WireError(.duplicateCodec, offset: offsets.codec, "codec \(codec.codec) is listed twice")
            }
            var seenIDs: Set<UInt32> = []
            for (dictionary, offset) in zip(codec.dictionaries, offsets.dictionaries)
            where !seenIDs.insert(dictionary.id).inserted {
                throw WireError(
                    .duplicateCodec, offset: offset, "dictionary \(dictionary.id) of codec \(codec.codec) is listed twice")
            }
        }
        var schema: HelloSchema?
        if let spec = body.spec {
            schema = try Self.schema(
                spec.package ?? "", spec.version ?? 0, Fingerprint(value: spec.fingerprint ?? 0),
                specFingerprintOffset: specFingerprintOffset, entries: rawEntries(body.types))
        }
        return Hello(
            envelopeVersions: minVersion...maxVersion, codecs: codecs, maxFrameSize: Int(body.maxFrameSize),
            maxMessageSize: Int(body.maxMessageSize), schema: schema)
    }

    /// The decoded table entries with the offsets recorded while reading them.
    private func rawEntries(_ types: [HelloBodyType]) -> [RawEntry] {
        zip(types, entries).map { type, marks in
            var entry = marks
            entry.name = type.name
            entry.kind = type.kind.flatMap { SchemaEntry.Kind(rawValue: UInt64($0)) }
            entry.typeID = type.typeID.map(UInt64.init)
            entry.reservedNumbers = stride(from: 0, to: type.reservedNumbers.count - 1, by: 2).map {
                type.reservedNumbers[$0]...type.reservedNumbers[$0 + 1]
            }
            entry.reservedNames = type.reservedNames
            entry.isImported = type.imported
            return entry
        }
    }

    // MARK: The table

    private static func schema(
        _ package: String, _ version: UInt64, _ fingerprint: Fingerprint, specFingerprintOffset: Int,
        entries raw: [RawEntry]
    ) throws(WireError) -> HelloSchema {
        // Per entry: required fields and what its kind allows.
        for entry in raw {
            guard entry.name != nil, let kind = entry.kind else {
                throw WireError(.missingField, offset: entry.end, "a declaration needs its name (1) and kind (2)")
            }
            if kind == .message {
                guard entry.typeID != nil, entry.fingerprint != nil else {
                    throw WireError(.missingField, offset: entry.end, "a message needs its type id (3) and fingerprint (4)")
                }
            } else if let offset = entry.fingerprint?.offset {
                throw WireError(.invalidSchema, offset: offset, "only messages have a fingerprint")
            } else if let offset = entry.typeIDOffset {
                throw WireError(.invalidSchema, offset: offset, "only messages have a type id")
            }
            if kind == .enum || kind == .union, let field = entry.fields.first {
                throw WireError(.invalidSchema, offset: field.offset, "an \(kind) has cases, not fields")
            }
            if kind == .message || kind == .struct, let item = entry.cases.first {
                throw WireError(.invalidSchema, offset: item.offset, "a \(kind) has fields, not cases")
            }
            for field in entry.fields where field.number == nil || field.name == nil || field.type == nil {
                throw WireError(.missingField, offset: field.end, "a field needs its number (1), name (2) and type (3)")
            }
            for item in entry.cases where item.number == nil || item.name == nil {
                throw WireError(.missingField, offset: item.end, "a case needs its number (1) and name (2)")
            }
            if kind == .enum, let item = entry.cases.first(where: { $0.type != nil }), let payload = item.type {
                throw WireError(.invalidSchema, offset: payload.offset, "enum cases have no payload")
            }
        }
        // Across entries: names, then type ids, unique.
        var seenNames: Set<String> = []
        for entry in raw where !seenNames.insert(entry.name ?? "").inserted {
            throw WireError(.duplicateTypeName, offset: entry.offset, "the schema table declares '\(entry.name ?? "")' twice")
        }
        var seenIDs: [UInt64: String] = [:]
        for entry in raw where entry.kind == .message {
            let typeID = entry.typeID ?? 0
            if let first = seenIDs[typeID] {
                throw WireError(
                    .duplicateTypeID, offset: entry.offset, "'\(entry.name ?? "")' and '\(first)' both use type id \(typeID)")
            }
            seenIDs[typeID] = entry.name
        }
        // Type references, then defaults, resolved against the table.
        let names = raw.map { $0.name ?? "" }
        var entries: [SchemaEntry] = []
        var offsets = SchemaOffsets(specFingerprint: specFingerprintOffset)
        for entry in raw {
            var resolved = SchemaEntry(
                name: entry.name ?? "", kind: entry.kind ?? .struct, typeID: entry.typeID ?? 0,
                fingerprint: entry.fingerprint.map { Fingerprint(value: $0.value) },
                reservedNumbers: entry.reservedNumbers, reservedNames: entry.reservedNames, isImported: entry.isImported)
            for field in entry.fields {
                let (codes, typeOffset) = field.type ?? ([], field.offset)
                let type = try SchemaTypeCode.type(of: codes, names: names, offset: typeOffset)
                let value = try field.defaultValue.map { (value) throws(WireError) in
                    try defaultValue(value, type: type, raw: raw)
                }
                resolved.fields.append(
                    SchemaField(
                        number: field.number ?? 0, name: field.name ?? "", type: type,
                        isOptional: field.isOptional, defaultValue: value))
            }
            for item in entry.cases {
                let payload = try item.type.map { (payload) throws(WireError) in
                    try SchemaTypeCode.type(of: payload.codes, names: names, offset: payload.offset)
                }
                resolved.cases.append(SchemaCase(number: item.number ?? 0, name: item.name ?? "", payload: payload))
            }
            entries.append(resolved)
            offsets.entry.append(entry.offset)
            offsets.fields.append(entry.fields.map(\.offset))
            offsets.defaults.append(entry.fields.map { $0.defaultValue?.offset ?? $0.offset })
            offsets.cases.append(entry.cases.map(\.offset))
            offsets.fingerprints.append(entry.fingerprint?.offset ?? entry.offset)
        }
        return try HelloSchema(package: package, version: version, fingerprint: fingerprint, entries: entries, offsets: offsets)
    }

    /// A default, read as a value of the field's type in the payload encoding.
    private static func defaultValue(_ raw: RawDefault, type: TypeRef, raw entries: [RawEntry]) throws(WireError) -> DefaultValue
    {
        func expect(_ wireType: WireType) throws(WireError) {
            guard raw.wireType == wireType else {
                throw WireError(
                    .typeMismatch, offset: raw.offset,
                    "the default of a \(type) field has wire type \(raw.wireType), expected \(wireType)")
            }
        }
        switch type {
        case .scalar(.bool):
            try expect(.varint)
            guard raw.bits <= 1 else { throw WireError(.invalidValue, offset: raw.offset, "\(raw.bits) is not a Bool (0 or 1)") }
            return .bool(raw.bits == 1)
        case .scalar(let scalar) where scalar.isSignedInteger:
            try expect(.varint)
            // Zigzag: (n >> 1) ^ -(n & 1), as the payload encoding writes signed integers.
            return .signed(Int64(bitPattern: (raw.bits >> 1) ^ (0 &- (raw.bits & 1))))
        case .scalar(.fixed32):
            try expect(.fixed32)
            return .unsigned(raw.bits)
        case .scalar(.fixed64):
            try expect(.fixed64)
            return .unsigned(raw.bits)
        case .scalar(let scalar) where scalar.isInteger:
            try expect(.varint)
            return .unsigned(raw.bits)
        case .scalar(.float32):
            try expect(.fixed32)
            return .float(Double(Float(bitPattern: UInt32(truncatingIfNeeded: raw.bits))))
        case .scalar(.float64):
            try expect(.fixed64)
            return .float(Double(bitPattern: raw.bits))
        case .scalar(.string):
            try expect(.lengthDelimited)
            return .string(raw.text)
        case .named(let name):
            if let entry = entries.first(where: { $0.name == name }), entry.kind == .enum {
                try expect(.varint)
                guard let item = entry.cases.first(where: { $0.number == raw.bits }) else {
                    throw WireError(.invalidSchema, offset: raw.offset, "enum '\(name)' has no case \(raw.bits) for a default")
                }
                return .enumCase(name: item.name ?? "", number: raw.bits)
            }
            fallthrough
        default:
            throw WireError(.invalidSchema, offset: raw.offset, "a field of type \(type) cannot have a default")
        }
    }
}
