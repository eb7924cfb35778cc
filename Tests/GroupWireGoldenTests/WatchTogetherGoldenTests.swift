import Foundation
import GroupWire
import GroupWireTestSupport
import Testing
import WatchTogetherGolden

/// Exercises the compiled golden Swift of WatchTogether (and the Common spec it imports):
/// unions, maps, timestamps, optionals and spec defaults.
@Suite("Generated WatchTogether types")
struct WatchTogetherGoldenTests {
    static let state = PlaybackState(
        stateID: exampleID, title: "Film", rate: 0, isPlaying: true, event: .play,
        changedBy: ParticipantRef(id: otherID, displayName: "Ann"),
        changedAt: Date(timeIntervalSince1970: 1.5), source: .local, audioLanguage: "fr",
        metadata: ["b": "2", "a": "1"])

    static var stateBytes: [UInt8] {
        get throws {
            try Hex.bytes(
                """
                0a 10 6f1c2a9e4b7d4e0f8a3b5c6d7e8f9a0b
                1a 04 46696c6d
                39 0000000000000000
                40 01
                48 01
                52 17 0a 10 000000000000000000000000000000ab 12 03 416e6e
                59 002f685900000000
                62 02 1a 00
                6a 02 6672
                72 06 0a 01 61 12 01 31
                72 06 0a 01 62 12 01 32
                """)
        }
    }

    @Test("A default PlaybackState writes only its nested participant and union")
    func defaultPlaybackState() throws {
        let bytes = PlaybackState().wirePayload()
        #expect(Hex.string(bytes) == "520062020a00")
        let decoded = try PlaybackState(wirePayload: [])
        #expect(decoded.rate == 1)
        #expect(decoded.audioLanguage == "en")
        #expect(decoded.source == .catalog(CatalogItem()))
        #expect(decoded.previousStateID == nil)
    }

    @Test("PlaybackState writes every kind of field exactly as hand-computed")
    func playbackStateBytes() throws {
        let bytes = Self.state.wirePayload()
        let stateBytes = try Self.stateBytes
        #expect(Hex.string(bytes) == Hex.string(stateBytes))
        #expect(Self.state.wireSize == bytes.count)
        #expect(try PlaybackState(wirePayload: stateBytes) == Self.state)
    }

    @Test("Map entries are written in key order whatever the dictionary order")
    func mapEntriesAreSorted() {
        let keys = (0..<20).map { String(UnicodeScalar(UInt8(65 + $0))) }
        let state = PlaybackState(metadata: Dictionary(uniqueKeysWithValues: keys.reversed().map { ($0, $0) }))
        let bytes = state.wirePayload()
        var reader = PayloadReader(bytes)
        var seen: [String] = []
        while let key = try? reader.nextKey() {
            if key.number == 14 {
                let entryKey = try? reader.readNested { (entry: inout PayloadReader) throws(WireError) -> String in
                    _ = try entry.nextKey()
                    let text = try entry.readString()
                    try entry.reader.skip(count: entry.reader.remaining)
                    return text
                }
                seen.append(entryKey ?? "?")
            } else {
                _ = try? reader.skip(key)
            }
        }
        #expect(seen == keys)
    }

    @Test("Optional fields are written when set, even to their zero value")
    func optionalZeroIsWritten() throws {
        let state = PlaybackState(subtitle: "")
        #expect(Hex.string(state.wirePayload()).hasPrefix("2200"))
        #expect(try PlaybackState(wirePayload: state.wirePayload()).subtitle == "")
    }

    @Test("Union payloads round-trip for each case")
    func unionCasesRoundTrip() throws {
        for source in [
            MediaSource.catalog(CatalogItem(contentID: exampleID, seriesID: otherID)), .url("https://example.com/a"), .local,
        ] {
            let bytes = source.wirePayload()
            #expect(bytes.count == source.wireSize)
            #expect(try MediaSource(wirePayload: bytes) == source)
        }
        #expect(try MediaSource.url("ab").wirePayload() == Hex.bytes("12 02 6162"))
    }

    @Test("A union holding two cases, no case or an unknown case is rejected")
    func malformedUnionsAreRejected() throws {
        func kind(_ bytes: [UInt8]) -> WireError.Kind? {
            do {
                _ = try MediaSource(wirePayload: bytes)
                return nil
            } catch {
                return error.kind
            }
        }
        #expect(try kind(Hex.bytes("0a00 1a00")) == .invalidValue)
        #expect(kind([]) == .missingField)
        #expect(try kind(Hex.bytes("4a00")) == .invalidValue)
    }

    @Test("Timestamps carry the nearest nanosecond, come back equal and clamp instead of trapping")
    func timestamps() throws {
        let date = Date(timeIntervalSince1970: 1_700_000_000.123456789)
        let state = PlaybackState(changedAt: date)
        let decoded = try PlaybackState(wirePayload: state.wirePayload())
        #expect(decoded.changedAt == date)
        // The literal's nearest Double (steps of 2^-22 s after 1970) lies 0.46 ns below 717.
        #expect(_WireTimestamp.nanoseconds(from: decoded.changedAt) == 1_700_000_000_123_456_717)
        #expect(_WireTimestamp.nanoseconds(from: .distantFuture) == .max)
        #expect(_WireTimestamp.nanoseconds(from: .distantPast) == .min)
    }

    @Test("Messages built with Date() come back equal through the wire and JSON")
    func messagesOfNowComeBackEqual() throws {
        for _ in 0..<1_000 {
            let state = PlaybackState(title: "now", changedAt: Date())
            #expect(try PlaybackState(wirePayload: state.wirePayload()) == state)
            #expect(try JSONDecoder().decode(PlaybackState.self, from: JSONEncoder().encode(state)) == state)
        }
    }

    @Test("JSON follows the agreed mapping and round-trips")
    func jsonMapping() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let json = String(decoding: try encoder.encode(Self.state), as: UTF8.self)
        #expect(json.contains(#""changedAt":1500000000"#))
        #expect(json.contains(#""source":{"local":{}}"#))
        #expect(json.contains(#""event":"play""#))
        #expect(json.contains(#""metadata":{"a":"1","b":"2"}"#))
        #expect(!json.contains("previousStateID"))
        #expect(try JSONDecoder().decode(PlaybackState.self, from: Data(json.utf8)) == Self.state)
        let ready = try JSONDecoder().decode(ReadyState.self, from: Data(#"{"bufferedAhead":"Infinity"}"#.utf8))
        #expect(ready.bufferedAhead == .infinity)
        #expect(String(decoding: try encoder.encode(MediaSource.url("x")), as: UTF8.self) == #"{"url":"x"}"#)
    }

    @Test("Strings are read as UTF-8: non-ASCII text round-trips and invalid bytes are rejected")
    func utf8Strings() throws {
        let state = PlaybackState(title: "Amélie – 映画")
        #expect(try PlaybackState(wirePayload: state.wirePayload()).title == "Amélie – 映画")
        let invalid = try Hex.bytes("1a 02 c3 28")
        do {
            _ = try PlaybackState(wirePayload: invalid)
            Issue.record("invalid UTF-8 decoded")
        } catch {
            #expect(error.kind == .invalidUTF8)
        }
    }
}
