import Foundation
import GroupWire
import GroupWireTestSupport
import KitchenSinkGolden
import Testing

/// Exercises the compiled golden Swift of Tests/Specs/KitchenSink.gwspec: every scalar,
/// packed and unpacked arrays, maps with every key kind, unions, defaults and odd names.
@Suite("Generated KitchenSink types")
struct KitchenSinkGoldenTests {
    static let scalars = Scalars(
        flag: true, i8: -8, i16: -16, i32: -32, i64: .min, u8: 8, u16: 16, u32: 32, u64: .max,
        f32: 1.5, f64: -0.25, text: "héllo", blob: [0, 1, 255], id: exampleID,
        at: Date(timeIntervalSince1970: -1), mood: .unknownValue(9), hash32: .max, hash64: 0x0102_0304_0506_0708)

    static let awkward = Awkward(
        class: "c", unknownFields: -1, legacy: 5, renamed: 6, self: Empty(),
        nested: Arrays(
            flags: [true, false], ints: [1, -1, 300], longs: [.max], bytes8: [255], counts: [0, 1],
            floats: [1.5], doubles: [.pi], times: [Date(timeIntervalSince1970: 3)], moods: [.calm, .default, .unknownValue(40)],
            texts: ["", "a"], blobs: [[], [1]], ids: [exampleID], items: [Scalars(), scalars],
            choices: [
                .nothing, .number(-3), .text("t"), .item(scalars), .mood(.unknown), .time(Date(timeIntervalSince1970: 0)),
                .digest(.max),
            ], hashes: [0, .max], tags: [1, 2]),
        maps: Maps(
            byName: ["b": 2, "a": 1], byNumber: [-1: "a", 2: "b"], byCount: [7: [7]], byFlag: [true: 1, false: 0],
            byID: [exampleID: Date(timeIntervalSince1970: 4), otherID: Date(timeIntervalSince1970: 5)],
            moods: ["m": .default], items: [-5: scalars], choices: ["c": .nothing], floats: [1: .infinity],
            byHash: [.max: "z", 1: "a"], byTag: [7: -7]),
        defaults: Defaults(flag: false, small: 0, ratio: 0.5),
        optionals: Optionals(
            flag: false, i32: 0, u64: 0, f32: 0, text: "", blob: [], id: _WireDefaults.uuid,
            at: _WireTimestamp.epoch, mood: .calm, inner: Scalars(), choice: .nothing))

    @Test("Names next to the reserved ones compile and round-trip through bytes and JSON")
    func nearMisses() throws {
        let value = NearMisses(
            wireSizes: -1, hashValues: [1, 2], encoded: "e", rawValues: [9], wirePayloads: true, initial: .min,
            date: Date(), data: [1, 2], uuid: exampleID, string: "s", int: 7, hasher: 255, wireTypeIDs: 3,
            codingKeys: 0.5, dates: .initValue, wireDefaults: .encodeWires("w"))
        let bytes = value.wirePayload()
        #expect(bytes.count == value.wireSize)
        #expect(try NearMisses(wirePayload: bytes) == value)
        #expect(try JSONDecoder().decode(NearMisses.self, from: JSONEncoder().encode(value)) == value)
        let object = try JSONSerialization.jsonObject(with: JSONEncoder().encode(value)) as? [String: Any]
        #expect(object?.keys.contains("hashValues") == true)
        #expect(WireDefaulted.wireDefault == .wireDefaulted(0))
    }

    @Test("A value using every shape round-trips through bytes with an exact size")
    func everythingRoundTrips() throws {
        let bytes = Self.awkward.wirePayload()
        #expect(bytes.count == Self.awkward.wireSize)
        let decoded = try Awkward(wirePayload: bytes)
        #expect(decoded == Self.awkward)
        #expect(decoded.wirePayload() == bytes)
    }

    @Test("Every scalar round-trips, extreme values included")
    func scalarsRoundTrip() throws {
        let bytes = Self.scalars.wirePayload()
        #expect(bytes.count == Self.scalars.wireSize)
        #expect(try Scalars(wirePayload: bytes) == Self.scalars)
        #expect(Scalars().wirePayload().isEmpty)
    }

    @Test("Numeric arrays are packed, and unpacked input is accepted too")
    func packedArrays() throws {
        #expect(try Arrays(ints: [1, -1, 300]).wirePayload() == Hex.bytes("12 04 02 01 d804"))
        #expect(try Arrays(floats: [1.5]).wirePayload() == Hex.bytes("32 04 0000c03f"))
        #expect(try Arrays(moods: [.calm, .unknownValue(300)]).wirePayload() == Hex.bytes("4a 03 00 ac02"))
        #expect(try Arrays(wirePayload: Hex.bytes("10 02 10 01 12 01 04")).ints == [1, -1, 2])
        #expect(try Arrays(texts: ["", "a"]).wirePayload() == Hex.bytes("52 00 52 01 61"))
    }

    @Test("Map entries are sorted by key and always carry both key and value")
    func mapOrdering() throws {
        #expect(try Maps(byNumber: [2: "b", -1: "a"]).wirePayload() == Hex.bytes("12 05 08 01 12 01 61  12 05 08 04 12 01 62"))
        #expect(
            try Maps(byFlag: [true: 1, false: 0]).wirePayload()
                == Hex.bytes("22 0b 08 00 11 0000000000000000  22 0b 08 01 11 000000000000f03f"))
    }

    @Test("Fixed32 and Fixed64 take 4 and 8 little-endian bytes: fields, packed arrays, map keys, defaults, union payloads")
    func fixedWidthIntegers() throws {
        #expect(
            try Scalars(hash32: 1, hash64: 0x0102_0304_0506_0708).wirePayload()
                == Hex.bytes("8d01 01000000  9101 0807060504030201"))
        #expect(
            try Arrays(hashes: [1, .max], tags: [2]).wirePayload()
                == Hex.bytes("7a 10 0100000000000000 ffffffffffffffff  82 01 04 02000000"))
        #expect(try Arrays(wirePayload: Hex.bytes("79 0500000000000000 79 0600000000000000")).hashes == [5, 6])
        #expect(
            try Maps(byHash: [.max: "z", 1: "a"]).wirePayload()
                == Hex.bytes("52 0c 09 0100000000000000 12 01 61  52 0c 09 ffffffffffffffff 12 01 7a"))
        #expect(try Optionals(choice: .digest(2)).wirePayload() == Hex.bytes("5a 09 59 0200000000000000"))
        #expect(Defaults().tag == 4_000_000_000 && Defaults().seed == .max)
        #expect(try Defaults(tag: 0).wirePayload() == Hex.bytes("45 00000000"))
        #expect(try Defaults(seed: 1).wirePayload() == Hex.bytes("49 0100000000000000"))
        // A varint under a fixed field's number is the wrong wire type, at the key; a short value is truncated.
        for (hex, kind, offset) in [("8801 01", WireError.Kind.typeMismatch, 0), ("9101 0807", .truncated, 2)] {
            do {
                _ = try Scalars(wirePayload: Hex.bytes(hex))
                Issue.record("\(hex) decoded")
            } catch let error as WireError {
                #expect(error.kind == kind && error.offset == offset, "\(hex): \(error)")
            } catch {
                Issue.record("\(hex): \(error)")
            }
        }
    }

    @Test("Spec defaults are left out, other values are written")
    func defaults() throws {
        #expect(Defaults().wirePayload().isEmpty)
        #expect(try Defaults(flag: false).wirePayload() == Hex.bytes("08 00"))
        #expect(try Defaults(small: -1).wirePayload() == Hex.bytes("10 01"))
        let decoded = try Defaults(wirePayload: [])
        #expect(decoded.name == "tab\there \"quoted\"")
        #expect(decoded.scale == -2.25)
        #expect(decoded.mood.rawValue == 2)
    }

    @Test("An enum case named unknown and a keyword case get their own Swift cases")
    func awkwardEnumNames() {
        #expect(Mood(rawValue: 1) == .unknown)
        #expect(Mood(rawValue: 3) == .default)
        #expect(Mood(rawValue: 4) == .unknownValue(4))
    }

    @Test("Deprecated cases decode, encode and keep their names, through code that names them only via the mirror")
    func deprecatedCasesRoundTrip() throws {
        // Mood 2 (serene) and Choice 9 (old) are deprecated; this test names neither, so it
        // builds under warnings-as-errors like the generated code.
        let serene = Mood(rawValue: 2)
        #expect(serene.rawValue == 2)
        #expect(String(decoding: try JSONEncoder().encode(serene), as: UTF8.self) == #""serene""#)
        #expect(try JSONDecoder().decode(Mood.self, from: Data(#""serene""#.utf8)).rawValue == 2)
        // Optionals.choice (field 11) holding union case 9 with true: key 0x5a, length 2, key 0x48, 1.
        let bytes = try Hex.bytes("5a 02 48 01")
        let optionals = try Optionals(wirePayload: bytes)
        #expect(optionals.wirePayload() == bytes)
        let json = String(decoding: try JSONEncoder().encode(optionals.choice), as: UTF8.self)
        #expect(json == #"{"old":true}"#)
        #expect(try JSONDecoder().decode(Choice.self, from: Data(json.utf8)) == optionals.choice)
        #expect(optionals.choice != Choice.wireDefault)
    }

    @Test("JSON null reads as absent for an optional field and is refused for any other; a missing key takes the default")
    func jsonNull() throws {
        let missing = try JSONDecoder().decode(Defaults.self, from: Data(#"{"flag":false}"#.utf8))
        #expect(missing.flag == false)
        #expect(missing.small == -7)
        #expect(missing.name == "tab\there \"quoted\"")
        #expect(missing.mood.rawValue == 2)
        for key in ["flag", "small", "big", "ratio", "scale", "name", "mood"] {
            let json = Data(#"{"\#(key)":null}"#.utf8)
            do {
                _ = try JSONDecoder().decode(Defaults.self, from: json)
                Issue.record("null for \(key) was read")
            } catch DecodingError.valueNotFound(_, let context) {
                #expect(context.codingPath.map(\.stringValue) == [key])
            } catch {
                Issue.record("null for \(key): \(error)")
            }
        }
        // Arrays and maps are never optional: null is refused there too.
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(Arrays.self, from: Data(#"{"flags":null}"#.utf8)) }
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(Maps.self, from: Data(#"{"byName":null}"#.utf8)) }
        let optionals = try JSONDecoder().decode(Optionals.self, from: Data(#"{"flag":null,"inner":null,"i32":4}"#.utf8))
        #expect(optionals.flag == nil)
        #expect(optionals.inner == nil)
        #expect(optionals.i32 == 4)
    }

    @Test("Keyword and clashing field names survive wire and JSON")
    func awkwardFieldNames() throws {
        let value = Awkward(class: "k", unknownFields: 3, self: Empty())
        #expect(try Awkward(wirePayload: value.wirePayload()).unknownFields == 3)
        let json = String(decoding: try JSONEncoder().encode(value), as: UTF8.self)
        #expect(json.contains(#""class":"k""#))
        #expect(json.contains(#""unknownFields":3"#))
        #expect(json.contains(#""self":{}"#))
        #expect(try JSONDecoder().decode(Awkward.self, from: Data(json.utf8)) == value)
    }

    @Test("JSON of every shape round-trips (bytes as base64, maps with string keys)")
    func jsonRoundTrip() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let data = try encoder.encode(Self.awkward)
        let json = String(decoding: data, as: UTF8.self)
        #expect(json.contains(#""blobs":["","AQ=="]"#))
        #expect(json.contains(#""byNumber":{"-1":"a","2":"b"}"#))
        #expect(json.contains(#""floats":{"1":"Infinity"}"#))
        #expect(try JSONDecoder().decode(Awkward.self, from: data) == Self.awkward)
    }

    @Test("Messages without fields encode to nothing and keep what they do not know")
    func emptyMessage() throws {
        #expect(Ping().wirePayload().isEmpty)
        let decoded = try Ping(wirePayload: Hex.bytes("08 01"))
        #expect(try decoded.unknownFields == Hex.bytes("08 01"))
        #expect(try decoded.wirePayload() == Hex.bytes("08 01"))
    }
}

@Suite("Generated recursive types")
struct RecursiveGoldenTests {
    @Test("A recursive tree round-trips through arrays and maps of itself")
    func treeRoundTrips() throws {
        let tree = Tree(
            label: "root", children: [Tree(label: "a"), Tree(children: [Tree(label: "deep")])],
            byName: ["x": Tree(label: "mapped", byName: ["y": Tree()])])
        let bytes = tree.wirePayload()
        #expect(bytes.count == tree.wireSize)
        #expect(try Tree(wirePayload: bytes) == tree)
    }

    @Test("Input nested past maxNestingDepth is rejected as depthExceeded, without exhausting the stack")
    func deepInputIsRejected() {
        // 10_000 levels of `children` (field 2, len): 12 <len> 12 <len> ... built inside out.
        var bytes: [UInt8] = []
        for _ in 0..<10_000 {
            var level: [UInt8] = [0x12]
            var length = UInt64(bytes.count)
            while length >= 0x80 {
                level.append(UInt8(truncatingIfNeeded: length) | 0x80)
                length >>= 7
            }
            level.append(UInt8(length))
            bytes = level + bytes
        }
        do {
            _ = try Tree(wirePayload: bytes)
            Issue.record("decoding 10,000 nested levels succeeded")
        } catch {
            #expect(error.kind == .depthExceeded)
        }
    }
}
