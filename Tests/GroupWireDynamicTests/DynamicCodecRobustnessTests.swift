import GroupWire
import GroupWireDynamic
import GroupWireSpec
import GroupWireTestSupport
import GroupWireTesting
import Testing

/// Seeded random and mutated inputs never trap: the decoder either throws a WireError or
/// returns JSON that encodes and decodes back to itself; the JSON parser either throws or
/// returns a value that writes and parses back to itself.
@Suite struct DynamicCodecRobustnessTests {
    /// Valid payloads of the everything spec to mutate.
    static let seeds: [String] = [
        "0801 1003 18ac02 20ffffffffffffffffff01 2d0000003f 3a02c3a9 4203000102 4a10000102030405060708090a0b0c0d0e0f",
        "62040201d804 6a03020700 720161 7200 7a050802120179 8201021200 8a01021a00 9201021200",
        "9a0114 0a10 00000000000000000000000000000001 1200 a20104 0801 1001 b20108000000000000f03f",
    ]

    @Test func mutatedPayloadsDecodeOrFailButNeverTrap() throws {
        let codec = DynamicCodec(spec: try TestSpecs.everything(), options: .init(keepsUnknownFields: true))
        var random = SeededRandom(seed: 0xF0_2201)
        var decoded = 0
        for round in 0..<3000 {
            var bytes = try Hex.bytes(Self.seeds[round % Self.seeds.count])
            for _ in 0..<Int.random(in: 1...4, using: &random) {
                guard !bytes.isEmpty else { break }
                let index = Int.random(in: 0..<bytes.count, using: &random)
                switch Int.random(in: 0..<4, using: &random) {
                case 0: bytes[index] = UInt8.random(in: 0...255, using: &random)
                case 1: bytes.remove(at: index)
                case 2: bytes.insert(UInt8.random(in: 0...255, using: &random), at: index)
                default: bytes[index] ^= 1 << UInt8.random(in: 0...7, using: &random)
                }
            }
            let json: JSONValue
            do throws(WireError) {
                json = try codec.decode(bytes, as: "Everything")
            } catch {
                #expect(!error.kind.name.isEmpty)
                continue
            }
            decoded += 1
            // What decodes re-encodes to a payload that decodes to the same JSON.
            let again = try #require(try? codec.encode(json, as: "Everything"), "re-encoding \(json)")
            #expect(try codec.decode(again, as: "Everything") == json, "input \(Hex.string(bytes))")
        }
        #expect(decoded > 100)
    }

    @Test func randomBytesNeverTrapTheDecoder() throws {
        let codec = DynamicCodec(spec: try TestSpecs.example("WatchTogether.gwspec"))
        var random = SeededRandom(seed: 0xF0_2202)
        for _ in 0..<3000 {
            let bytes = (0..<Int.random(in: 0...64, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
            _ = try? codec.decode(bytes, as: "PlaybackState")
        }
    }

    @Test func mutatedJSONParsesOrFailsAndWhatParsesRoundTrips() throws {
        let text = Array(
            #"{"a": [1, -2.5e3, true, null, "x\u00e9\n"], "b": {"c": "😀", "d": []}, "e": 18446744073709551615}"#.utf8)
        var random = SeededRandom(seed: 0xF0_2203)
        var parsed = 0
        for _ in 0..<3000 {
            var bytes = text
            for _ in 0..<Int.random(in: 1...3, using: &random) {
                let index = Int.random(in: 0..<bytes.count, using: &random)
                if random.chance(0.5) {
                    bytes[index] = UInt8.random(in: 0...255, using: &random)
                } else {
                    bytes.remove(at: index)
                }
            }
            do throws(JSONSyntaxError) {
                let value = try JSONParser().parse(bytes)
                parsed += 1
                #expect(try JSONParser().parse(JSONWriter().bytes(value)) == value)
            } catch {
                #expect(error.offset <= bytes.count)
            }
        }
        #expect(parsed > 50)
    }

    @Test func mutatedJSONNeverTrapsTheEncoder() throws {
        let codec = DynamicCodec(spec: try TestSpecs.example("WatchTogether.gwspec"))
        let sample = try TestSpecs.sample("PlaybackState")
        var random = SeededRandom(seed: 0xF0_2204)
        var encoded = 0
        for _ in 0..<2000 {
            var bytes = sample
            let index = Int.random(in: 0..<bytes.count, using: &random)
            bytes[index] = UInt8.random(in: 0x20...0x7E, using: &random)
            guard let value = try? JSONParser().parse(bytes) else { continue }
            do throws(JSONInputError) {
                let payload = try codec.encode(value, as: "PlaybackState")
                encoded += 1
                #expect((try? codec.decode(payload, as: "PlaybackState")) != nil)
            } catch {
                #expect(error.path.hasPrefix("$"))
            }
        }
        #expect(encoded > 100)
    }
}

/// ``Limits/maxDecodedValues`` in the dynamic codec: counted as the generated decoders count.
@Suite struct DynamicDecodedValuesLimitTests {
    /// A CanvasSnapshot of one stroke of `points` empty points (see the golden tests).
    static func snapshot(emptyPoints points: Int) -> [UInt8] {
        var stroke: [UInt8] = []
        for _ in 0..<points { stroke += [0x1A, 0x00] }
        var payload = ByteWriter(capacity: stroke.count + 16)
        payload.write(contentsOf: [0x0A])
        payload.writeUVarint(UInt64(stroke.count))
        payload.write(contentsOf: stroke)
        return payload.bytes
    }

    @Test func decodeAndValidateRefuseAMessageOfMoreValuesThanTheLimit() throws {
        var limits = Limits.default
        limits.maxDecodedValues = 101
        let codec = DynamicCodec(spec: try TestSpecs.example("DrawTogether.gwspec"), limits: limits)
        _ = try codec.decode(Self.snapshot(emptyPoints: 100), as: "CanvasSnapshot")
        let over = Self.snapshot(emptyPoints: 101)
        for validating in [false, true] {
            do throws(WireError) {
                if validating {
                    try codec.validate(over, as: "CanvasSnapshot")
                } else {
                    _ = try codec.decode(over, as: "CanvasSnapshot")
                }
                Issue.record("102 values decoded under a limit of 101 (validating: \(validating))")
            } catch {
                #expect(
                    error.kind == .limitExceeded
                        && error.context == "the message decodes to more than maxDecodedValues 101 values")
                #expect(error.offset == 3 + 2 * 100 + 1)
            }
        }
    }
}
