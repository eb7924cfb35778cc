import GroupWire
import GroupWireNegotiation
import GroupWireSpec
import Testing

/// Every `HelloLimits` bound, reached by one more than it allows: `limitExceeded` at the key
/// of the one too many (codecs, dictionaries, declarations, members, reservations) or at the
/// length of what is too long (names, string defaults, type expressions), checked as the
/// field is read, so a cut value after it does not hide it (Spec/FORMAT.md, "Reading a hello").
@Suite struct HelloLimitsTests {
    /// A spec whose hello reaches each table limit below.
    static let source = """
        package t version 1
        message A @ 1 {
            1 longname: String = "abcd"
            2 codes: [UInt8]
            reserved 7, 9, "old"
        }
        enum E {
            0 x
            1 y
        }
        """

    static func body() throws -> [UInt8] {
        let spec = try SpecCompiler().compile(source: source).checkedSpec()
        return try Hello(schema: HelloSchema(spec: spec)).payload()
    }

    /// The offsets of the keys of top-level field `number` of `bytes` (nested values skipped).
    static func keys(_ number: UInt32, in bytes: [UInt8]) throws -> [Int] {
        var reader = PayloadReader(bytes)
        var offsets: [Int] = []
        while true {
            let offset = reader.reader.position
            guard let key = try reader.nextKey() else { return offsets }
            if key.number == number { offsets.append(offset) }
            try reader.skip(key)
        }
    }

    /// The kind and offset of what decoding `bytes` under `limits` throws, as `kind@offset`.
    static func failure(_ bytes: [UInt8], _ limits: HelloLimits) -> String {
        do {
            _ = try Hello(payload: bytes, limits: limits)
            return "decoded"
        } catch {
            return "\(error.kind.name)@\(error.offset ?? -1)"
        }
    }

    static func limits(_ change: (inout HelloLimits) -> Void) -> HelloLimits {
        var limits = HelloLimits.default
        change(&limits)
        return limits
    }

    @Test func theCodecOverMaxCodecsFailsAtItsKeyBeforeItsCutValue() {
        // Versions 1 ... 1, codecs 1 and 2, then a third whose 5 bytes are cut after one.
        let bytes: [UInt8] = [0x08, 0x01, 0x10, 0x01, 0x22, 0x02, 0x08, 0x01, 0x22, 0x02, 0x08, 0x02, 0x22, 0x05, 0x08]
        #expect(Self.failure(bytes, Self.limits { $0.maxCodecs = 2 }) == "limitExceeded@12")
        #expect(Self.failure(bytes, .default) == "truncated@14")
    }

    @Test func theDictionaryOverMaxDictionariesFailsAtItsKey() {
        let dictionary: [UInt8] = [0x12, 0x0B, 0x08, 0x01, 0x11] + [UInt8](repeating: 0xAB, count: 8)
        let codec: [UInt8] = [0x22, 0x1C, 0x08, 0x01] + dictionary + dictionary
        let bytes: [UInt8] = [0x08, 0x01, 0x10, 0x01] + codec
        #expect(Self.failure(bytes, Self.limits { $0.maxDictionaries = 1 }) == "limitExceeded@21")
        // Within the limit, the same dictionary id twice.
        #expect(Self.failure(bytes, .default) == "duplicateCodec@21")
    }

    @Test func theTableLimitsFailAtTheKeyOrLengthOfTheOneTooMany() throws {
        let bytes = try Self.body()
        #expect(try Hello(payload: bytes).schema?.entries.count == 2)
        let entries = try Self.keys(7, in: bytes)
        #expect(entries.count == 2)
        #expect(Self.failure(bytes, Self.limits { $0.maxTypes = 1 }) == "limitExceeded@\(entries[1])")

        // Message A's entry: 1 name, 2 kind, 3 type id, 4 fingerprint, 5 fields, 7, 8.
        let entry = entries[0] + 2  // A's entry is under 128 bytes: a one-byte length
        let fields = try Self.keys(5, in: Array(bytes[entry..<entries[1]])).map { $0 + entry }
        #expect(fields.count == 2)
        #expect(Self.failure(bytes, Self.limits { $0.maxMembers = 1 }) == "limitExceeded@\(fields[1])")

        let reservedNumbers = try #require(try Self.keys(7, in: Array(bytes[entry..<entries[1]])).first) + entry
        let reservedName = try #require(try Self.keys(8, in: Array(bytes[entry..<entries[1]])).first) + entry
        // Numbers 7 and 9 are two reservations: over a limit of 1 at field 7's key; with 2,
        // the name is the third, over the limit at its own key.
        #expect(Self.failure(bytes, Self.limits { $0.maxReserved = 1 }) == "limitExceeded@\(reservedNumbers)")
        #expect(Self.failure(bytes, Self.limits { $0.maxReserved = 2 }) == "limitExceeded@\(reservedName)")

        // "longname" (8 bytes) over a name limit of 7, at its length; the default "abcd" over
        // a string limit of 3, at its length; [UInt8] (2 codes) over a limit of 1, at its length.
        let longname = try #require(Self.index(of: Array("longname".utf8), in: bytes)) - 1
        #expect(Self.failure(bytes, Self.limits { $0.maxNameLength = 7 }) == "limitExceeded@\(longname)")
        let text = try #require(Self.index(of: Array("abcd".utf8), in: bytes)) - 1
        #expect(Self.failure(bytes, Self.limits { $0.maxStringLength = 3 }) == "limitExceeded@\(text)")
        let codes = try #require(Self.index(of: [0x1A, 0x02, 0x10, 0x06], in: bytes)) + 1
        #expect(Self.failure(bytes, Self.limits { $0.maxTypeCodes = 1 }) == "limitExceeded@\(codes)")
    }

    static func index(of needle: [UInt8], in bytes: [UInt8]) -> Int? {
        guard needle.count <= bytes.count else { return nil }
        return (0...(bytes.count - needle.count)).first { Array(bytes[$0..<($0 + needle.count)]) == needle }
    }
}
