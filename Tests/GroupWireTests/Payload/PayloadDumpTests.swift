import Foundation
import GroupWireJSON
import Testing

@testable import GroupWire

@Suite struct PayloadDumpTests {
    private static let uuid = UUID(
        uuid: (
            0x6B, 0xA7, 0xB8, 0x10, 0x9D, 0xAD, 0x11, 0xD1,
            0x80, 0xB4, 0x00, 0xC0, 0x4F, 0xD4, 0x30, 0xC8
        ))

    @Test func everyWireTypeIsShownWithItsNumberOffsetAndValue() {
        var writer = PayloadWriter()
        writer.writeInt(1, -3)
        writer.writeDouble(2, 1.5)
        writer.writeFloat(3, 0.25)
        writer.writeString(4, "Movie night")
        let dump = PayloadDump(writer.bytes)
        #expect(dump.isComplete)
        #expect(dump.unparsed.isEmpty)
        #expect(dump.fields.map(\.number) == [1, 2, 3, 4])
        #expect(dump.fields.map(\.wireType) == [.varint, .fixed64, .fixed32, .lengthDelimited])
        #expect(dump.fields.map(\.offset) == [0, 2, 11, 16])
        #expect(dump.fields[0].value == .varint(5))
        #expect(dump.fields[1].value == .fixed64(1.5.bitPattern))
        #expect(dump.fields[2].value == .fixed32(Float(0.25).bitPattern))
        #expect(dump.fields[3].value == .string("Movie night"))
    }

    @Test func aLenValueThatParsesAsFieldsIsShownAsANestedMessage() {
        var writer = PayloadWriter()
        writer.writeNested(3) { point in
            point.writeDouble(1, 10.5)
            point.writeDouble(2, 20.25)
        }
        let dump = PayloadDump(writer.bytes)
        #expect(
            dump.fields == [
                PayloadDump.Field(
                    number: 3, wireType: .lengthDelimited, offset: 0,
                    value: .message([
                        PayloadDump.Field(number: 1, wireType: .fixed64, offset: 2, value: .fixed64(10.5.bitPattern)),
                        PayloadDump.Field(number: 2, wireType: .fixed64, offset: 11, value: .fixed64(20.25.bitPattern)),
                    ]))
            ])
    }

    @Test func printableTextIsAStringEvenWhenItWouldAlsoParseAsFields() {
        // "hi" is also field 13 with varint 105; text wins.
        var writer = PayloadWriter()
        writer.writeString(1, "hi")
        #expect(PayloadDump(writer.bytes).fields.first?.value == .string("hi"))
    }

    @Test func bytesThatAreNeitherTextNorFieldsAreShownAsBytesAndAUUID() {
        var writer = PayloadWriter()
        writer.writeUUID(1, Self.uuid)
        writer.writeBytes(2, [0xFF, 0x00, 0x80])
        let dump = PayloadDump(writer.bytes)
        #expect(
            dump.fields.map(\.value) == [
                .bytes([0x6B, 0xA7, 0xB8, 0x10, 0x9D, 0xAD, 0x11, 0xD1, 0x80, 0xB4, 0x00, 0xC0, 0x4F, 0xD4, 0x30, 0xC8]),
                .bytes([0xFF, 0x00, 0x80]),
            ])
        #expect(
            dump.renderText() == """
                1: bytes[16] 6ba7b8109dad11d180b400c04fd430c8 (uuid 6BA7B810-9DAD-11D1-80B4-00C04FD430C8)
                2: bytes[3] ff0080
                """)
    }

    @Test func nestingDeeperThanTheLimitIsShownAsBytes() {
        // Three levels: {1: {1: {1: varint 7}}}.
        let payload: [UInt8] = [0x0A, 0x04, 0x0A, 0x02, 0x08, 0x07]
        let shallow = PayloadDump(payload, limits: Limits(maxNestingDepth: 1))
        #expect(
            shallow.fields.first?.value
                == .message([
                    PayloadDump.Field(number: 1, wireType: .lengthDelimited, offset: 2, value: .bytes([0x08, 0x07]))
                ]))
        let deep = PayloadDump(payload, limits: Limits(maxNestingDepth: 2))
        #expect(
            deep.fields.first?.value
                == .message([
                    PayloadDump.Field(
                        number: 1, wireType: .lengthDelimited, offset: 2,
                        value: .message([
                            PayloadDump.Field(number: 1, wireType: .varint, offset: 4, value: .varint(7))
                        ]))
                ]))
    }

    @Test func aMalformedFieldStopsTheDumpButKeepsTheFieldsBeforeIt() {
        // field 1 varint 1, then a key with wire type 3, then a byte.
        let payload: [UInt8] = [0x08, 0x01, 0x0B, 0x05]
        let dump = PayloadDump(payload)
        #expect(dump.fields == [PayloadDump.Field(number: 1, wireType: .varint, offset: 0, value: .varint(1))])
        #expect(dump.error?.kind == .unknownWireType)
        #expect(dump.error?.offset == 2)
        #expect(dump.unparsed == [0x0B, 0x05])
        #expect(
            dump.renderText() == """
                1: varint 1 (sint -1)
                error: unknownWireType at offset 2: wire type 3 is not defined (field 1)
                unparsed[2]: 0b05
                """)
    }

    @Test func aLengthPastTheEndIsReportedAsTruncated() {
        let dump = PayloadDump([0x0A, 0x05, 0x01])
        #expect(dump.fields.isEmpty)
        #expect(dump.error?.kind == .truncated)
        #expect(dump.unparsed == [0x0A, 0x05, 0x01])
    }

    @Test func theFieldBudgetComesFromMaxCollectionCount() {
        let payload: [UInt8] = [0x08, 0x01, 0x08, 0x02, 0x08, 0x03]
        let dump = PayloadDump(payload, limits: Limits(maxCollectionCount: 2))
        #expect(dump.fields.count == 2)
        #expect(dump.error?.kind == .limitExceeded)
        #expect(dump.unparsed == [0x08, 0x03])
    }

    @Test func aDumpReencodesToTheBytesItWasMadeFrom() {
        var writer = PayloadWriter()
        writer.writeUUID(1, Self.uuid)
        writer.writeUInt(2, 300)
        writer.writeNested(3) {
            $0.writeString(1, "x"); $0.writeFloat(2, -1)
        }
        writer.writeString(4, "")
        let complete = writer.bytes
        #expect(PayloadDump(complete).encodedBytes() == complete)
        let broken = complete + [0x0F, 0x01]
        #expect(PayloadDump(broken).encodedBytes() == broken)
    }

    @Test func theTextFormShowsNestedMessagesIndented() {
        var writer = PayloadWriter()
        writer.writeUInt(2, 300)
        writer.writeNested(3) { $0.writeFloat(1, 0.5) }
        writer.writeString(4, "a \"quoted\"\nline")
        #expect(
            PayloadDump(writer.bytes).renderText(indent: 2, prefix: "> ") == """
                > 2: varint 300 (sint 150)
                > 3: message {
                >   1: fixed32 1056964608 (float 0.5)
                > }
                > 4: string "a \\"quoted\\"\\nline"
                """)
    }

    @Test func theJSONFormHasSortedKeysAndOneKeyPerValueKind() {
        var writer = PayloadWriter()
        writer.writeUInt(1, 2)
        writer.writeDouble(2, 0.5)
        writer.writeNested(3) { $0.writeString(1, "é") }
        let json = PayloadDump(writer.bytes).json.rendered(pretty: false)
        #expect(
            json == #"{"error":null,"fields":[{"number":1,"offset":0,"sint":1,"uint":2,"wireType":"varint"},"#
                + #"{"double":0.5,"number":2,"offset":2,"uint":4602678819172646912,"wireType":"fixed64"},"#
                + #"{"message":[{"length":2,"number":1,"offset":13,"string":"é","wireType":"len"}],"number":3,"offset":11,"wireType":"len"}],"#
                + #""unparsedHex":""}"#)
    }

    @Test func nonFiniteFloatsAreDumpedWithTheSpellingOfFormatMD() {
        var writer = PayloadWriter()
        writer.writeDouble(1, .nan)
        writer.writeDouble(2, -.infinity)
        let fields = PayloadDump(writer.bytes).json["fields"]?.arrayValue ?? []
        #expect(fields.map { $0["double"] } == [.string("NaN"), .string("-Infinity")])
    }
}
