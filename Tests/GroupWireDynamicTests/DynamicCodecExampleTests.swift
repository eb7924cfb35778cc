import GroupWire
import GroupWireDynamic
import GroupWireSpec
import GroupWireTestSupport
import Testing

/// The dynamic codec against bytes worked out by hand from Spec/FORMAT.md for the example specs.
@Suite struct DynamicCodecExampleTests {
    @Test func upsertStrokeEncodesToTheBytesOfTheFormatExample() throws {
        let codec = DynamicCodec(spec: try TestSpecs.example("DrawTogether.gwspec"))
        let value = try json(
            #"{"id": "6f1c2a9e-4b7d-4e0f-8a3b-5c6d7e8f9a0b", "color": "green", "point": {"x": 12.5, "y": -3.25}}"#)
        let payload = try codec.encode(value, as: "UpsertStroke")
        #expect(
            Hex.string(payload) == "0a106f1c2a9e4b7d4e0f8a3b5c6d7e8f9a0b" + "1002" + "1a12" + "090000000000002940"
                + "110000000000000ac0")
    }

    @Test func upsertStrokeDecodesBackWithAnUppercaseUUID() throws {
        let codec = DynamicCodec(spec: try TestSpecs.example("DrawTogether.gwspec"))
        let payload = try Hex.bytes("0a106f1c2a9e4b7d4e0f8a3b5c6d7e8f9a0b 1002 1a12 090000000000002940 110000000000000ac0")
        let decoded = try codec.decode(payload, as: "UpsertStroke")
        #expect(
            decoded
                == (try json(
                    #"{"id": "6F1C2A9E-4B7D-4E0F-8A3B-5C6D7E8F9A0B", "color": "green", "point": {"x": 12.5, "y": -3.25}}"#)))
        #expect(
            decoded.description == #"{"color":"green","id":"6F1C2A9E-4B7D-4E0F-8A3B-5C6D7E8F9A0B","point":{"x":12.5,"y":-3.25}}"#)
    }

    @Test func aDefaultPointIsStillWrittenButDefaultScalarsAreNot() throws {
        let codec = DynamicCodec(spec: try TestSpecs.example("DrawTogether.gwspec"))
        let payload = try codec.encode(
            try json(#"{"id": "00000000-0000-0000-0000-000000000000", "color": "black", "point": {"x": 0, "y": -0.0}}"#),
            as: "UpsertStroke")
        // id and color equal their defaults; the point is written, its x omitted, -0.0 kept (bit pattern differs from 0).
        #expect(Hex.string(payload) == "1a09" + "110000000000000080")
    }

    @Test func canvasSnapshotWritesStrokesAsRepeatedNestedFields() throws {
        let codec = DynamicCodec(spec: try TestSpecs.example("DrawTogether.gwspec"))
        let value = try json(
            #"""
            {"strokes": [{"id": "00000000-0000-0000-0000-000000000001", "color": "red", "points": [{"x": 1, "y": 2}]},
                         {"points": []}],
             "pointCount": 300}
            """#)
        let payload = try codec.encode(value, as: "CanvasSnapshot")
        let stroke1 = "0a10" + "00000000000000000000000000000001" + "1001" + "1a12" + "09000000000000f03f" + "110000000000000040"
        #expect(Hex.string(payload) == "0a28" + stroke1 + "0a00" + "10ac02")
        let decoded = try codec.decode(payload, as: "CanvasSnapshot")
        #expect(
            decoded
                == (try json(
                    #"""
                    {"strokes": [{"id": "00000000-0000-0000-0000-000000000001", "color": "red", "points": [{"x": 1, "y": 2}]},
                                 {"id": "00000000-0000-0000-0000-000000000000", "color": "black", "points": []}],
                     "pointCount": 300}
                    """#)))
    }

    @Test func playbackStateOmitsDeclaredDefaultsAndSortsMapEntries() throws {
        let codec = DynamicCodec(spec: try TestSpecs.example("WatchTogether.gwspec"))
        let value = try json(
            #"""
            {"stateID": "00000000-0000-0000-0000-000000000001", "title": "Film", "rate": 1, "audioLanguage": "en",
             "isPlaying": true, "event": "play", "changedBy": {"displayName": "Ann"}, "changedAt": 1000,
             "source": {"local": {}}, "metadata": {"b": "2", "a": "1"}}
            """#)
        let payload = try codec.encode(value, as: "PlaybackState")
        let expected =
            "0a10" + "00000000000000000000000000000001" + "1a04" + "46696c6d" + "4001" + "4801"
            + "5205" + "1203416e6e" + "59" + "e803000000000000" + "6202" + "1a00"
            + "7206" + "0a0161" + "120131" + "7206" + "0a0162" + "120132"
        #expect(Hex.string(payload) == expected)
    }

    @Test func playbackStateDecodesWithEveryNonOptionalFieldFilledIn() throws {
        let codec = DynamicCodec(spec: try TestSpecs.example("WatchTogether.gwspec"))
        let payload = try Hex.bytes(
            "0a10 00000000000000000000000000000001 1a04 46696c6d 4001 4801 5205 1203416e6e 59 e803000000000000 6202 1a00 7206 0a0161 120131 7206 0a0162 120132"
        )
        let decoded = try codec.decode(payload, as: "PlaybackState")
        #expect(
            decoded
                == (try json(
                    #"""
                    {"stateID": "00000000-0000-0000-0000-000000000001", "title": "Film", "contentID": "00000000-0000-0000-0000-000000000000",
                     "position": 0, "rate": 1, "isPlaying": true, "event": "play",
                     "changedBy": {"id": "00000000-0000-0000-0000-000000000000", "displayName": "Ann"}, "changedAt": 1000,
                     "source": {"local": {}}, "audioLanguage": "en", "metadata": {"a": "1", "b": "2"}}
                    """#)))
    }

    @Test func aRateOfZeroIsWrittenBecauseTheDeclaredDefaultIsOne() throws {
        let codec = DynamicCodec(spec: try TestSpecs.example("WatchTogether.gwspec"))
        let payload = try codec.encode(try json(#"{"rate": 0, "audioLanguage": "", "source": {"url": ""}}"#), as: "PlaybackState")
        // rate 0 (field 7, fixed64), audioLanguage "" (field 13), changedBy default struct (field 10), source url "".
        #expect(Hex.string(payload) == "39" + "0000000000000000" + "5200" + "6202" + "1200" + "6a00")
    }

    @Test func aMessageEncodesToADataFrameWithItsTypeID() throws {
        let codec = DynamicCodec(spec: try TestSpecs.example("WatchTogether.gwspec"))
        let frame = try codec.encodeFrame(try json(#"{"isReady": true}"#), message: "ReadyState")
        let decoded = try FrameDecoder().decode(frame)
        #expect(decoded.typeID == 11)
        #expect(decoded.body == [0x10, 0x01])
        let (message, value) = try codec.decode(frame: decoded)
        #expect(message.name == "ReadyState")
        #expect(
            value == (try json(#"{"participant": "00000000-0000-0000-0000-000000000000", "isReady": true, "bufferedAhead": 0}"#)))
    }
}
