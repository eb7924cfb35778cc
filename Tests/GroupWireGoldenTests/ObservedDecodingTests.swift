import Foundation
import GroupWire
import KitchenSinkGolden
import Testing

/// The observed decoders of KitchenSink's golden code (generated with observed decoding):
/// what they report, in which order and at which offsets, and that they read exactly what
/// the plain decoders read.
@Suite("Observed decoding")
struct ObservedDecodingTests {
    /// Writes down every call, as text: `will`/`did`/`end`, the container, the field number,
    /// the key and value offsets, the value.
    struct Recorder: WireDecodingObserver {
        var log: [String] = []

        mutating func willRead<Container>(_ key: FieldKey, keyOffset: Int, in container: Container.Type, reader: PayloadReader)
            throws(WireError)
        {
            log.append("will \(container) \(key.number) \(key.wireType) k\(keyOffset) at \(reader.reader.position)")
        }

        mutating func didRead<Container, Value>(
            _ value: Value, key: FieldKey, keyOffset: Int, valueOffset: Int, in container: Container.Type
        ) throws(WireError) {
            log.append("did \(container) \(key.number) k\(keyOffset) v\(valueOffset) \(value)")
        }

        mutating func didDecode<Value>(_ value: Value, start: Int, end: Int) throws(WireError) {
            log.append("end \(type(of: value)) \(start)..<\(end)")
        }
    }

    /// Implements nothing: the protocol's empty defaults.
    struct Silent: WireDecodingObserver {}

    /// A check the spec cannot state: `Scalars.u8` at most 5, reported at the value.
    struct SmallU8: WireDecodingObserver {
        mutating func didRead<Container, Value>(
            _ value: Value, key: FieldKey, keyOffset: Int, valueOffset: Int, in container: Container.Type
        ) throws(WireError) {
            if container == Scalars.self, key.number == 6, let value = value as? UInt8, value > 5 {
                throw WireError(.invalidValue, offset: valueOffset, "u8 \(value) is over 5")
            }
        }
    }

    /// A count the spec cannot state: at most two elements of `Arrays.items`, the third
    /// reported at its key before it is read.
    struct TwoItems: WireDecodingObserver {
        var items = 0
        mutating func willRead<Container>(_ key: FieldKey, keyOffset: Int, in container: Container.Type, reader: PayloadReader)
            throws(WireError)
        {
            guard container == Arrays.self, key.number == 13 else { return }
            items += 1
            if items > 2 { throw WireError(.limitExceeded, offset: keyOffset, "a third item") }
        }
    }

    /// An error's kind and offset (its message is not compared).
    struct Failure: Equatable, CustomStringConvertible {
        var kind: WireError.Kind
        var offset: Int?
        init(_ kind: WireError.Kind, _ offset: Int?) {
            self.kind = kind
            self.offset = offset
        }
        var description: String { "\(kind) at \(offset.map(String.init) ?? "nil")" }
    }

    /// The kind and offset `body` throws, nil when it returns.
    static func failure(_ body: () throws(WireError) -> some Any) -> Failure? {
        do {
            _ = try body()
            return nil
        } catch {
            return Failure(error.kind, error.offset)
        }
    }

    @Test("Fields are reported in body order: packed elements, a nested struct, a union, an unknown field")
    func reportsFieldsInBodyOrder() throws {
        let bytes: [UInt8] = [
            0x12, 0x03, 0x02, 0xD8, 0x04,  // 2 ints, packed: 1, 300 (zigzag 2, 600)
            0x6A, 0x04, 0x08, 0x01, 0x30, 0x07,  // 13 items: Scalars(flag: true, u8: 7)
            0x72, 0x02, 0x10, 0x05,  // 14 choices: .number(-3)
            0xA0, 0x01, 0x05,  // 20, unknown: varint 5
        ]
        var recorder = Recorder()
        var reader = PayloadReader(bytes)
        let value = try Arrays(decodingWire: &reader, observer: &recorder)
        #expect(value == (try Arrays(wirePayload: bytes)))
        #expect(
            recorder.log == [
                "will Arrays 2 len k0 at 1",
                "did Arrays 2 k0 v2 1",
                "did Arrays 2 k0 v3 300",
                "will Arrays 13 len k5 at 6",
                "will Scalars 1 varint k7 at 8",
                "did Scalars 1 k7 v8 true",
                "will Scalars 6 varint k9 at 10",
                "did Scalars 6 k9 v10 7",
                "end Scalars 7..<11",
                "did Arrays 13 k5 v6 \(value.items[0])",
                "will Arrays 14 len k11 at 12",
                "did Arrays 14 k11 v12 number(-3)",
                "will Arrays 20 varint k15 at 17",
                "end Arrays 0..<18",
            ])
    }

    @Test("Unpacked elements are reported one per key; map entries as (key, value) pairs")
    func reportsUnpackedElementsAndMapEntries() throws {
        var recorder = Recorder()
        var reader = PayloadReader([0x10, 0x02, 0x10, 0x04])  // 2 ints, one per field: 1, 2
        _ = try Arrays(decodingWire: &reader, observer: &recorder)
        #expect(
            recorder.log == [
                "will Arrays 2 varint k0 at 1", "did Arrays 2 k0 v1 1",
                "will Arrays 2 varint k2 at 3", "did Arrays 2 k2 v3 2",
                "end Arrays 0..<4",
            ])

        recorder = Recorder()
        reader = PayloadReader([0x0A, 0x05, 0x0A, 0x01, 0x61, 0x10, 0x02])  // 1 byName: "a": 1
        _ = try Maps(decodingWire: &reader, observer: &recorder)
        #expect(
            recorder.log == [
                "will Maps 1 len k0 at 1", "did Maps 1 k0 v1 (key: \"a\", value: 1)", "end Maps 0..<7",
            ])
    }

    @Test("An observer's check is reported before a fault later in the body, at the offset it names")
    func observerErrorsComeInBodyOrder() throws {
        // Scalars: 6 u8 = 7, then 12 text with a length of 5 and one byte.
        let bytes: [UInt8] = [0x30, 0x07, 0x62, 0x05, 0x41]
        #expect(Self.failure { () throws(WireError) in try Scalars(wirePayload: bytes) } == Failure(.truncated, 4))
        var check = SmallU8()
        var reader = PayloadReader(bytes)
        #expect(
            Self.failure { () throws(WireError) in try Scalars(decodingWire: &reader, observer: &check) }
                == Failure(.invalidValue, 1))
        // Without the second fault, the check alone; with u8 = 5, the truncation again.
        reader = PayloadReader([0x30, 0x07])
        #expect(
            Self.failure { () throws(WireError) in try Scalars(decodingWire: &reader, observer: &check) }
                == Failure(.invalidValue, 1))
        reader = PayloadReader([0x30, 0x05, 0x62, 0x05, 0x41])
        #expect(
            Self.failure { () throws(WireError) in try Scalars(decodingWire: &reader, observer: &check) }
                == Failure(.truncated, 4))

        // A count checked at the key, before the value is read: the third item is refused
        // even though its body is cut short.
        let items: [UInt8] = [0x6A, 0x00, 0x6A, 0x00, 0x6A, 0x09, 0x08]
        var count = TwoItems()
        reader = PayloadReader(items)
        #expect(
            Self.failure { () throws(WireError) in try Arrays(decodingWire: &reader, observer: &count) }
                == Failure(.limitExceeded, 4))
        #expect(Self.failure { () throws(WireError) in try Arrays(wirePayload: items) } == Failure(.truncated, 6))
    }

    @Test("With an observer that checks nothing, observed decoding reads what plain decoding reads, and fails alike")
    func observedDecodingAgreesWithPlainDecoding() throws {
        let compared =
            Self.compare(KitchenSinkGoldenTests.awkward.wirePayload()) { (reader, observer) throws(WireError) in
                try Awkward(decodingWire: &reader, observer: &observer)
            }
            + Self.compare(Tree(label: "r", children: [Tree(label: "c")], byName: ["k": Tree(label: "m")]).wirePayload()) {
                (reader, observer) throws(WireError) in try Tree(decodingWire: &reader, observer: &observer)
            }
        #expect(compared > 1_000)
    }

    /// Decodes every damaged copy of `payload` plainly and observed, records each
    /// disagreement, and returns how many inputs it compared.
    static func compare<Value: WirePayloadCodable & Equatable>(
        _ payload: [UInt8], _ decode: (inout PayloadReader, inout Silent) throws(WireError) -> Value
    ) -> Int {
        let inputs = damaged(payload)
        for input in inputs {
            let plain = Result { () throws(WireError) in try Value(wirePayload: input) }
            var silent = Silent()
            let observed = Result { () throws(WireError) in
                var reader = PayloadReader(input)
                return try decode(&reader, &silent)
            }
            switch (plain, observed) {
            case (.success(let a), .success(let b)):
                // A NaN (a float map value damaged into one) is not equal to itself: then the bytes.
                #expect(a == b || a.wirePayload() == b.wirePayload(), "input \(input)")
            case (.failure(let a), .failure(let b)):
                #expect(a == b, "input \(input)")
            default:
                Issue.record("plain \(plain), observed \(observed) for \(input)")
            }
        }
        return inputs.count
    }

    /// Every proper prefix of `payload`, and each byte replaced by its complement and by 0x80.
    static func damaged(_ payload: [UInt8]) -> [[UInt8]] {
        var inputs = [payload] + (0..<payload.count).map { Array(payload[..<$0]) }
        for index in payload.indices {
            for replacement in [~payload[index], 0x80] {
                var bytes = payload
                bytes[index] = replacement
                inputs.append(bytes)
            }
        }
        return inputs
    }
}
