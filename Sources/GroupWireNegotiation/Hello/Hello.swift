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
    /// The control id of the hello.
    public static let controlID: UInt64 = 16
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
        var writer = PayloadWriter()
        writer.writeUInt(1, UInt64(envelopeVersions.lowerBound))
        writer.writeUInt(2, UInt64(envelopeVersions.upperBound))
        if let schema {
            writer.writeNested(3) { spec in
                spec.writeString(1, schema.package)
                spec.writeUInt(2, schema.version)
                spec.writeFixed64(3, schema.fingerprint.value)
            }
        }
        for codec in codecs {
            writer.writeNested(4) { nested in
                nested.writeUInt(1, UInt64(codec.codec))
                for dictionary in codec.dictionaries {
                    nested.writeNested(2) { entry in
                        entry.writeUInt(1, UInt64(dictionary.id))
                        entry.writeKey(2, .fixed64)
                        // The digest's bytes in digest order: the big-endian value, byte-swapped into a u64le.
                        entry.writer.writeFixed64LE(dictionary.contentHash.value.byteSwapped)
                    }
                }
            }
        }
        if maxFrameSize != Self.defaultMaxFrameSize { writer.writeUInt(5, UInt64(maxFrameSize)) }
        if maxMessageSize != Self.defaultMaxMessageSize { writer.writeUInt(6, UInt64(maxMessageSize)) }
        if let schema {
            let indexes = Dictionary(schema.entries.enumerated().map { ($1.name, $0) }, uniquingKeysWith: { first, _ in first })
            for entry in schema.entries { Self.write(entry, indexes: indexes, to: &writer) }
        }
        guard writer.bytes.count <= limits.maxHelloSize else {
            throw WireError(
                .limitExceeded, offset: limits.maxHelloSize,
                "the hello takes \(writer.bytes.count) bytes, over maxHelloSize \(limits.maxHelloSize); a hello travels in one frame"
            )
        }
        return writer.bytes
    }

    private static func write(_ entry: SchemaEntry, indexes: [String: Int], to writer: inout PayloadWriter) {
        writer.writeNested(7) { out in
            out.writeString(1, entry.name)
            out.writeUInt(2, entry.kind.rawValue)
            if entry.kind == .message {
                out.writeUInt(3, entry.typeID)
                out.writeFixed64(4, entry.fingerprint?.value ?? 0)
            }
            for field in entry.fields {
                out.writeNested(5) { item in
                    item.writeUInt(1, field.number)
                    item.writeString(2, field.name)
                    writeType(3, field.type, indexes: indexes, to: &item)
                    if field.isOptional { item.writeUInt(4, 1) }
                    if let value = field.defaultValue { writeDefault(value, type: field.type, to: &item) }
                }
            }
            for item in entry.cases {
                out.writeNested(6) { nested in
                    nested.writeUInt(1, item.number)
                    nested.writeString(2, item.name)
                    if let payload = item.payload { writeType(3, payload, indexes: indexes, to: &nested) }
                }
            }
            if !entry.reservedNumbers.isEmpty {
                out.writeKey(7, .lengthDelimited)
                out.writeLengthPrefixed { packed in
                    for range in entry.reservedNumbers {
                        packed.writer.writeUVarint(range.lowerBound)
                        packed.writer.writeUVarint(range.upperBound)
                    }
                }
            }
            for name in entry.reservedNames { out.writeString(8, name) }
            if entry.isImported { out.writeUInt(9, 1) }
        }
    }

    private static func writeType(_ number: UInt32, _ type: TypeRef, indexes: [String: Int], to writer: inout PayloadWriter) {
        writer.writeKey(number, .lengthDelimited)
        writer.writeLengthPrefixed { packed in
            for code in SchemaTypeCode.codes(of: type, indexes: indexes) { packed.writer.writeUVarint(code) }
        }
    }

    /// A default as a value of the field's own type is written in the payload encoding.
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
