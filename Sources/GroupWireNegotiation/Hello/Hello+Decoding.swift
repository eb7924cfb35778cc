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
        var reader = HelloReader(payload: payload, limits: limits)
        self = try reader.read()
    }
}

/// One pass over a hello body, then the checks across fields.
private struct HelloReader {
    /// A schema entry as read, before its type references are resolved.
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

    /// A field (entry field 5) or a case (entry field 6) as read: both have a number (1), a
    /// name (2) and a type expression (3: a field's type, a case's payload); only a field has
    /// the optional flag (4) and a default (5), which in a case are unknown fields, skipped.
    struct RawMember {
        var offset: Int
        var number: UInt64?
        var name: String?
        var type: (codes: [UInt64], offset: Int)?
        var isOptional = false
        var defaultValue: RawDefault?
        var end: Int
    }

    struct RawDefault {
        var offset: Int
        var wireType: WireType
        var bits: UInt64 = 0
        var text = ""
    }

    let payload: [UInt8]
    let limits: HelloLimits
    var reader: PayloadReader

    init(payload: [UInt8], limits: HelloLimits) {
        self.payload = payload
        self.limits = limits
        reader = PayloadReader(
            payload,
            limits: Limits(
                maxMessageSize: limits.maxHelloSize, maxNestingDepth: 4, maxCollectionCount: limits.maxHelloSize,
                maxStringLength: max(limits.maxNameLength, limits.maxStringLength), maxBytesLength: 0))
    }

    mutating func read() throws(WireError) -> Hello {
        var minVersion: (value: UInt8, offset: Int)?
        var maxVersion: (value: UInt8, offset: Int)?
        var spec: (package: String, version: UInt64, fingerprint: UInt64, fingerprintOffset: Int)?
        var codecs: [(codec: HelloCodec, offset: Int, dictionaryOffsets: [Int])] = []
        var maxFrameSize = Hello.defaultMaxFrameSize
        var maxMessageSize = Hello.defaultMaxMessageSize
        var entries: [RawEntry] = []
        while true {
            let keyOffset = reader.reader.position
            guard let key = try reader.nextKey() else { break }
            switch key.number {
            case 1, 2:
                try reader.expect(key, .varint, field: key.number == 1 ? "minVersion" : "maxVersion")
                let value = try readRanged(1...255, "an envelope version")
                if key.number == 1 { minVersion = (UInt8(value), keyOffset) } else { maxVersion = (UInt8(value), keyOffset) }
            case 3:
                try reader.expect(key, .lengthDelimited, field: "spec")
                spec = try reader.readNested { (nested) throws(WireError) in try Self.readSpec(&nested, limits: limits) }
            case 4:
                try reader.expect(key, .lengthDelimited, field: "codec")
                guard codecs.count < limits.maxCodecs else {
                    throw WireError(.limitExceeded, offset: keyOffset, "more than maxCodecs \(limits.maxCodecs) codecs")
                }
                let codec = try reader.readNested { (nested) throws(WireError) in try Self.readCodec(&nested, limits: limits) }
                codecs.append((codec.codec, keyOffset, codec.offsets))
            case 5:
                try reader.expect(key, .varint, field: "maxFrameSize")
                maxFrameSize = Int(try readRanged(64...UInt64(UInt32.max), "maxFrameSize"))
            case 6:
                try reader.expect(key, .varint, field: "maxMessageSize")
                maxMessageSize = Int(try readRanged(1...UInt64(UInt32.max), "maxMessageSize"))
            case 7:
                try reader.expect(key, .lengthDelimited, field: "type")
                guard entries.count < limits.maxTypes else {
                    throw WireError(.limitExceeded, offset: keyOffset, "more than maxTypes \(limits.maxTypes) declarations")
                }
                let limits = limits
                entries.append(
                    try reader.readNested { (nested) throws(WireError) in
                        try Self.readEntry(&nested, at: keyOffset, limits: limits)
                    })
            default:
                try reader.skip(key)
            }
        }
        guard let minVersion, let maxVersion else {
            throw WireError(
                .missingField, offset: payload.count, "a hello needs its lowest (1) and highest (2) envelope versions")
        }
        if !entries.isEmpty && spec == nil {
            throw WireError(.missingField, offset: payload.count, "a hello with a schema table needs its spec (3)")
        }
        guard minVersion.value <= maxVersion.value else {
            throw WireError(
                .invalidVersionRange, offset: maxVersion.offset,
                "envelope versions \(minVersion.value)...\(maxVersion.value) are upside down")
        }
        var seenCodecs: Set<UInt8> = []
        for (codec, offset, dictionaryOffsets) in codecs {
            guard seenCodecs.insert(codec.codec).inserted else {
                throw WireError(.duplicateCodec, offset: offset, "codec \(codec.codec) is listed twice")
            }
            var seenIDs: Set<UInt32> = []
            for (dictionary, dictionaryOffset) in zip(codec.dictionaries, dictionaryOffsets)
            where !seenIDs.insert(dictionary.id).inserted {
                throw WireError(
                    .duplicateCodec, offset: dictionaryOffset,
                    "dictionary \(dictionary.id) of codec \(codec.codec) is listed twice")
            }
        }
        var schema: HelloSchema?
        if let spec {
            schema = try Self.schema(
                spec.package, spec.version, Fingerprint(value: spec.fingerprint), specFingerprintOffset: spec.fingerprintOffset,
                entries: entries)
        }
        return Hello(
            envelopeVersions: minVersion.value...maxVersion.value, codecs: codecs.map(\.codec), maxFrameSize: maxFrameSize,
            maxMessageSize: maxMessageSize, schema: schema)
    }

    /// A varint in `range`, else `invalidValue` at its first byte.
    private mutating func readRanged(_ range: ClosedRange<UInt64>, _ what: String) throws(WireError) -> UInt64 {
        try Self.readRanged(&reader, range, what)
    }

    private static func readRanged(_ reader: inout PayloadReader, _ range: ClosedRange<UInt64>, _ what: String) throws(WireError)
        -> UInt64
    {
        let offset = reader.reader.position
        let value = try reader.readUInt()
        guard range.contains(value) else {
            throw WireError(
                .invalidValue, offset: offset, "\(what) \(value) is outside \(range.lowerBound)...\(range.upperBound)")
        }
        return value
    }

    /// A string of at most `limit` UTF-8 bytes, else `limitExceeded` at its length.
    private static func readString(_ reader: inout PayloadReader, limit: Int, _ what: String) throws(WireError) -> String {
        let offset = reader.reader.position
        var probe = reader.reader
        let length = try probe.readUVarint()
        guard length <= UInt64(limit) else {
            throw WireError(.limitExceeded, offset: offset, "\(what) of \(length) bytes is over the limit of \(limit)")
        }
        return try reader.readString()
    }

    private static func readSpec(_ reader: inout PayloadReader, limits: HelloLimits) throws(WireError)
        -> (package: String, version: UInt64, fingerprint: UInt64, fingerprintOffset: Int)
    {
        var package: String?
        var version: UInt64?
        var fingerprint: (UInt64, Int)?
        while true {
            let keyOffset = reader.reader.position
            guard let key = try reader.nextKey() else { break }
            switch key.number {
            case 1:
                try reader.expect(key, .lengthDelimited, field: "package")
                let offset = reader.reader.position
                let name = try readString(&reader, limit: limits.maxNameLength, "package name")
                // At its length, as every other name is.
                try checkPackageName(name, at: offset)
                package = name
            case 2:
                try reader.expect(key, .varint, field: "version")
                version = try reader.readUInt()
            case 3:
                try reader.expect(key, .fixed64, field: "fingerprint")
                fingerprint = (try reader.readFixed64(), keyOffset)
            default:
                try reader.skip(key)
            }
        }
        guard let package, let version, let fingerprint else {
            throw WireError(
                .missingField, offset: reader.reader.position, "the spec needs its package (1), version (2) and fingerprint (3)")
        }
        return (package, version, fingerprint.0, fingerprint.1)
    }

    private static func readCodec(_ reader: inout PayloadReader, limits: HelloLimits) throws(WireError) -> (
        codec: HelloCodec, offsets: [Int]
    ) {
        var codec: UInt8?
        var dictionaries: [HelloDictionary] = []
        var offsets: [Int] = []
        while true {
            let keyOffset = reader.reader.position
            guard let key = try reader.nextKey() else { break }
            switch key.number {
            case 1:
                try reader.expect(key, .varint, field: "codec")
                codec = UInt8(try readRanged(&reader, 1...255, "codec id"))
            case 2:
                try reader.expect(key, .lengthDelimited, field: "dictionary")
                guard dictionaries.count < limits.maxDictionaries else {
                    throw WireError(
                        .limitExceeded, offset: keyOffset, "more than maxDictionaries \(limits.maxDictionaries) dictionaries")
                }
                dictionaries.append(
                    try reader.readNested { (nested) throws(WireError) in
                        var id: UInt32?
                        var hash: UInt64?
                        while let key = try nested.nextKey() {
                            switch key.number {
                            case 1:
                                try nested.expect(key, .varint, field: "dictionary id")
                                id = UInt32(try readRanged(&nested, 1...UInt64(UInt32.max), "dictionary id"))
                            case 2:
                                try nested.expect(key, .fixed64, field: "dictionary hash")
                                hash = try nested.readFixed64()
                            default:
                                try nested.skip(key)
                            }
                        }
                        guard let id, let hash else {
                            throw WireError(
                                .missingField, offset: nested.reader.position,
                                "a dictionary needs its id (1) and content hash (2)")
                        }
                        // The digest's bytes in digest order, read as a u64le: byte-swapped to the big-endian value.
                        return HelloDictionary(id: id, contentHash: DictionaryHash(value: hash.byteSwapped))
                    })
                offsets.append(keyOffset)
            default:
                try reader.skip(key)
            }
        }
        guard let codec else {
            throw WireError(.missingField, offset: reader.reader.position, "a codec entry needs its codec id (1)")
        }
        return (HelloCodec(codec: codec, dictionaries: dictionaries), offsets)
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

    private static func readEntry(_ reader: inout PayloadReader, at offset: Int, limits: HelloLimits) throws(WireError)
        -> RawEntry
    {
        var entry = RawEntry(offset: offset, end: 0)
        var reservedCount = 0
        while true {
            let keyOffset = reader.reader.position
            guard let key = try reader.nextKey() else { break }
            switch key.number {
            case 1:
                try reader.expect(key, .lengthDelimited, field: "name")
                entry.name = try readIdentifier(&reader, limits: limits)
            case 2:
                try reader.expect(key, .varint, field: "kind")
                entry.kind = SchemaEntry.Kind(rawValue: try readRanged(&reader, 1...4, "declaration kind"))
            case 3:
                try reader.expect(key, .varint, field: "typeID")
                entry.typeID = try readRanged(&reader, 1...UInt64(UInt32.max), "type id")
                entry.typeIDOffset = keyOffset
            case 4:
                try reader.expect(key, .fixed64, field: "fingerprint")
                entry.fingerprint = (try reader.readFixed64(), keyOffset)
            case 5, 6:
                try reader.expect(key, .lengthDelimited, field: key.number == 5 ? "field" : "case")
                guard entry.fields.count + entry.cases.count < limits.maxMembers else {
                    throw WireError(
                        .limitExceeded, offset: keyOffset,
                        "more than maxMembers \(limits.maxMembers) fields or cases in one declaration")
                }
                let isField = key.number == 5
                let member = try reader.readNested { (nested) throws(WireError) in
                    try readMember(&nested, at: keyOffset, isField: isField, limits: limits)
                }
                if isField { entry.fields.append(member) } else { entry.cases.append(member) }
            case 7:
                try reader.expect(key, .lengthDelimited, field: "reserved numbers")
                var values: [UInt64] = []
                var tooMany = false
                let reservedSoFar = reservedCount
                try reader.readPacked { (element) throws(WireError) in
                    guard reservedSoFar + (values.count + 2) / 2 <= limits.maxReserved else {
                        tooMany = true; _ = try element.readUInt(); return
                    }
                    values.append(try element.readUInt())
                }
                guard !tooMany else {
                    throw WireError(
                        .limitExceeded, offset: keyOffset,
                        "more than maxReserved \(limits.maxReserved) reservations in one declaration")
                }
                guard values.count % 2 == 0 else {
                    throw WireError(
                        .invalidValue, offset: keyOffset, "reserved numbers come in pairs (low, high); \(values.count) values")
                }
                for index in stride(from: 0, to: values.count, by: 2) {
                    guard values[index] <= values[index + 1] else {
                        throw WireError(
                            .invalidValue, offset: keyOffset,
                            "reserved range \(values[index])...\(values[index + 1]) is upside down")
                    }
                    entry.reservedNumbers.append(values[index]...values[index + 1])
                }
                reservedCount += values.count / 2
            case 8:
                try reader.expect(key, .lengthDelimited, field: "reserved name")
                guard reservedCount < limits.maxReserved else {
                    throw WireError(
                        .limitExceeded, offset: keyOffset,
                        "more than maxReserved \(limits.maxReserved) reservations in one declaration")
                }
                entry.reservedNames.append(try readIdentifier(&reader, limits: limits))
                reservedCount += 1
            case 9:
                try reader.expect(key, .varint, field: "imported")
                entry.isImported = try reader.readBool()
            default:
                try reader.skip(key)
            }
        }
        entry.end = reader.reader.position
        return entry
    }

    private static func readMember(_ reader: inout PayloadReader, at offset: Int, isField: Bool, limits: HelloLimits)
        throws(WireError) -> RawMember
    {
        var member = RawMember(offset: offset, end: 0)
        while true {
            let keyOffset = reader.reader.position
            guard let key = try reader.nextKey() else { break }
            switch key.number {
            case 1:
                try reader.expect(key, .varint, field: "number")
                member.number = try reader.readUInt()
            case 2:
                try reader.expect(key, .lengthDelimited, field: "name")
                member.name = try readIdentifier(&reader, limits: limits)
            case 3:
                try reader.expect(key, .lengthDelimited, field: isField ? "type" : "payload")
                member.type = (try readTypeCodes(&reader, limits: limits), keyOffset)
            case 4 where isField:
                try reader.expect(key, .varint, field: "optional")
                member.isOptional = try reader.readBool()
            case 5 where isField:
                var value = RawDefault(offset: keyOffset, wireType: key.wireType)
                switch key.wireType {
                case .varint: value.bits = try reader.readUInt()
                case .fixed64: value.bits = try reader.readFixed64()
                case .fixed32: value.bits = UInt64(try reader.readFixed32())
                default: value.text = try readString(&reader, limit: limits.maxStringLength, "string default")
                }
                member.defaultValue = value
            default:
                try reader.skip(key)
            }
        }
        member.end = reader.reader.position
        return member
    }

    /// A name: `[A-Za-z_][A-Za-z0-9_]*`, at most `maxNameLength` bytes; else `invalidSchema` at its length.
    private static func readIdentifier(_ reader: inout PayloadReader, limits: HelloLimits) throws(WireError) -> String {
        let offset = reader.reader.position
        let name = try readString(&reader, limit: limits.maxNameLength, "name")
        guard isIdentifier(Substring(name)) else {
            throw WireError(.invalidSchema, offset: offset, "'\(name)' is not an identifier ([A-Za-z_][A-Za-z0-9_]*)")
        }
        return name
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
