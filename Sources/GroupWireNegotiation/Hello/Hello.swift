import GroupWire
import GroupWireSpec

/// The hello / capabilities control message (control id 16; Spec/FORMAT.md, "The hello"):
/// what a peer reads and speaks, sent to each peer before anything else so that the two
/// can agree on a profile and on each message type.
///
/// ```swift
/// let hello = Hello(codecs: [HelloCodec(codec: 1)], schema: try HelloSchema(spec: spec))
/// let body = try hello.payload()            // the control frame's body
/// let received = try Hello(payload: body)   // a peer's, checked against HelloLimits
/// ```
public struct Hello: Sendable, Hashable {
    /// The control id of the hello (Spec/Control.gwspec, `ControlID.hello`).
    public static let controlID = UInt64(ControlID.hello.rawValue)
    /// The default frame size a hello announces when it leaves the field out.
    public static let defaultMaxFrameSize = 65_536
    /// The default message size a hello announces when it leaves the field out.
    public static let defaultMaxMessageSize = 16 << 20

    /// The envelope (frame format) versions the peer reads and writes, `1...255`.
    public var envelopeVersions: ClosedRange<UInt8>
    /// The compression codecs the peer decompresses, with their dictionaries; empty for a
    /// peer without zstd, which then receives everything uncompressed.
    public var codecs: [HelloCodec]
    /// The largest frame the peer accepts, in bytes (`64 ... 2^32-1`).
    public var maxFrameSize: Int
    /// The largest message the peer accepts after reassembly and decompression (`1 ... 2^32-1`).
    public var maxMessageSize: Int
    /// The spec the peer speaks, with its schema table; nil for a peer without one (a tool).
    public var schema: HelloSchema?

    /// Creates a hello; the defaults are version 1 only, no codec, the default sizes and no spec.
    public init(
        envelopeVersions: ClosedRange<UInt8> = Frame.version...Frame.version, codecs: [HelloCodec] = [],
        maxFrameSize: Int = Hello.defaultMaxFrameSize, maxMessageSize: Int = Hello.defaultMaxMessageSize,
        schema: HelloSchema? = nil
    ) {
        self.envelopeVersions = envelopeVersions
        self.codecs = codecs
        self.maxFrameSize = maxFrameSize
        self.maxMessageSize = maxMessageSize
        self.schema = schema
    }

    /// The hello's body, written canonically (fields by ascending number, every value in
    /// its one encoding), so one hello always has one body.
    /// - Parameter limits: the size the body must fit (``HelloLimits/maxHelloSize``).
    /// - Throws: `WireError.Kind.invalidValue` for a field out of its range, and
    ///   `WireError.Kind.limitExceeded` when the body is over the limit: a hello never
    ///   needs more than one frame (Spec/FORMAT.md, "The hello").
    public func payload(limits: HelloLimits = .default) throws(WireError) -> [UInt8] {
        guard envelopeVersions.lowerBound >= 1 else { throw WireError(.invalidValue, "envelope version 0 does not exist") }
        guard (64...Int(UInt32.max)).contains(maxFrameSize) else {
            throw WireError(.invalidValue, "maxFrameSize \(maxFrameSize) is outside 64...\(UInt32.max)")
        }
        guard (1...Int(UInt32.max)).contains(maxMessageSize) else {
            throw WireError(.invalidValue, "maxMessageSize \(maxMessageSize) is outside 1...\(UInt32.max)")
        }
        let body = HelloBody(
            minVersion: envelopeVersions.lowerBound, maxVersion: envelopeVersions.upperBound,
            spec: schema.map {
                HelloBodySpec(package: $0.package, version: $0.version, fingerprint: $0.fingerprint.value)
            },
            codecs: codecs.map { codec in
                HelloBodyCodec(
                    codec: codec.codec,
                    dictionaries: codec.dictionaries.map {
                        // The digest's bytes in digest order: the big-endian value, byte-swapped into a u64le.
                        HelloBodyDictionary(id: $0.id, contentHash: $0.contentHash.value.byteSwapped)
                    })
            },
            maxFrameSize: UInt32(maxFrameSize), maxMessageSize: UInt32(maxMessageSize),
            types: try schema.map { (schema) throws(WireError) in try Self.table(schema) } ?? [])
        let bytes = body.wirePayload()
        guard bytes.count <= limits.maxHelloSize else {
            throw WireError(
                .limitExceeded, offset: limits.maxHelloSize,
                "the hello takes \(bytes.count) bytes, over maxHelloSize \(limits.maxHelloSize); a hello travels in one frame"
            )
        }
        return bytes
    }

    /// The schema table's entries, in the schema's order.
    private static func table(_ schema: HelloSchema) throws(WireError) -> [HelloBodyType] {
        let indexes = Dictionary(schema.entries.enumerated().map { ($1.name, $0) }, uniquingKeysWith: { first, _ in first })
        func codes(_ type: TypeRef) -> [UInt8] {
            var packed = ByteWriter()
            for code in SchemaTypeCode.codes(of: type, indexes: indexes) { packed.writeUVarint(code) }
            return packed.bytes
        }
        var table: [HelloBodyType] = []
        for entry in schema.entries {
            var typeID: UInt32?
            if entry.kind == .message {
                guard let id = UInt32(exactly: entry.typeID) else {
                    throw WireError(.invalidValue, "type id \(entry.typeID) of '\(entry.name)' is over 2^32-1")
                }
                typeID = id
            }
            table.append(
                HelloBodyType(
                    name: entry.name, kind: UInt8(truncatingIfNeeded: entry.kind.rawValue), typeID: typeID,
                    fingerprint: entry.kind == .message ? entry.fingerprint?.value ?? 0 : nil,
                    fields: entry.fields.map { field in
                        // The default is not declared in Spec/Control.gwspec (its wire type is
                        // the field type's): written as the field entry's unknown field 5.
                        var defaultField = PayloadWriter()
                        if let value = field.defaultValue { writeDefault(value, type: field.type, to: &defaultField) }
                        return HelloBodyField(
                            number: field.number, name: field.name, type: codes(field.type), optional: field.isOptional,
                            unknownFields: defaultField.bytes)
                    },
                    cases: entry.cases.map { HelloBodyCase(number: $0.number, name: $0.name, payload: $0.payload.map(codes)) },
                    reservedNumbers: entry.reservedNumbers.flatMap { [$0.lowerBound, $0.upperBound] },
                    reservedNames: entry.reservedNames, imported: entry.isImported))
        }
        return table
    }

    private static func writeDefault(_ value: DefaultValue, type: TypeRef, to writer: inout PayloadWriter) {
        switch value {
        case .bool(let flag): writer.writeUInt(5, flag ? 1 : 0)
        case .signed(let number): writer.writeInt(5, number)
        case .unsigned(let number):
            switch type.scalar {
            case .fixed32?: writer.writeFixed32(5, UInt32(truncatingIfNeeded: number))
            case .fixed64?: writer.writeFixed64(5, number)
            default: writer.writeUInt(5, number)
            }
        case .float(let number):
            if type.scalar == .float32 { writer.writeFloat(5, Float(number)) } else { writer.writeDouble(5, number) }
        case .string(let text): writer.writeString(5, text)
        case .enumCase(_, let number): writer.writeUInt(5, number)
        }
    }
}

/// A compression codec a peer decompresses, with the dictionaries it holds for it.
public struct HelloCodec: Sendable, Hashable {
    /// The codec id of the compression header (1 = zstd).
    public var codec: UInt8
    /// The dictionaries, each by id and content hash.
    public var dictionaries: [HelloDictionary]

    /// Creates an entry.
    public init(codec: UInt8, dictionaries: [HelloDictionary] = []) {
        self.codec = codec
        self.dictionaries = dictionaries
    }
}

/// A dictionary a peer holds: its id (the frame's `dictionaryID`) and its content hash.
public struct HelloDictionary: Sendable, Hashable {
    /// The dictionary id, `1 ... 2^32-1`.
    public var id: UInt32
    /// The first 8 bytes of the SHA-256 of the dictionary file.
    public var contentHash: DictionaryHash

    /// Creates an entry.
    public init(id: UInt32, contentHash: DictionaryHash) {
        self.id = id
        self.contentHash = contentHash
    }

    /// The entry for a dictionary file's bytes (zstd format; its id is bytes 4...7, u32le).
    /// - Returns: nil when the bytes are not a zstd dictionary with a nonzero id.
    public init?(dictionary bytes: [UInt8]) {
        guard bytes.count >= 8, bytes[0..<4] == [0x37, 0xA4, 0x30, 0xEC] else { return nil }
        let id = UInt32(bytes[4]) | UInt32(bytes[5]) << 8 | UInt32(bytes[6]) << 16 | UInt32(bytes[7]) << 24
        guard id != 0 else { return nil }
        self.init(id: id, contentHash: DictionaryHash(of: bytes))
    }
}
