import GroupWireTestSupport
import Testing

/// The test targets' one hex parser and formatter (GroupWireTestSupport's `Hex`).
@Suite struct HexTests {
    @Test func digitsOfEitherCaseReadAsBytes() throws {
        #expect(try Hex.bytes("00ff7Fa0") == [0x00, 0xFF, 0x7F, 0xA0])
        #expect(try Hex.bytes("") == [])
    }

    @Test func spacesTabsAndNewlinesBetweenDigitsAreIgnored() throws {
        #expect(try Hex.bytes("0801 f807") == [0x08, 0x01, 0xF8, 0x07])
        #expect(try Hex.bytes("  0 8\n01\t\r\nf8 07 \n") == [0x08, 0x01, 0xF8, 0x07])
        #expect(try Hex.bytes(" \n ") == [])
    }

    @Test func aCharacterThatIsNotAHexDigitThrowsWithItsOffsetAndTheText() {
        let text = "0801 g807"
        let error = #expect(throws: HexError.self) { try Hex.bytes(text) }
        #expect(error?.problem == .notAHexDigit("g"))
        #expect(error?.offset == 5)
        #expect(error?.text == text)
        #expect(error?.description == #""g" is not a hex digit at offset 5 of hex text "0801 g807""#)
    }

    @Test func prefixesSignsAndNonASCIIDigitsAreNotHex() {
        #expect((#expect(throws: HexError.self) { try Hex.bytes("0x08") })?.offset == 1)
        #expect((#expect(throws: HexError.self) { try Hex.bytes("-8") })?.offset == 0)
        // A fullwidth digit and a no-break space: hex digit and whitespace to Unicode, not ASCII.
        #expect((#expect(throws: HexError.self) { try Hex.bytes("0\u{FF11}") })?.problem == .notAHexDigit("\u{FF11}"))
        #expect((#expect(throws: HexError.self) { try Hex.bytes("08\u{00A0}01") })?.offset == 2)
    }

    @Test func anOddNumberOfDigitsThrowsAtTheDigitWithoutAPartner() {
        let error = #expect(throws: HexError.self) { try Hex.bytes("0801 f") }
        #expect(error?.problem == .oddDigitCount)
        #expect(error?.offset == 5)
        #expect(error?.description.contains("odd number of hex digits") == true)
        #expect((#expect(throws: HexError.self) { try Hex.bytes("0 8 0") })?.offset == 4)
    }

    @Test func aLongTextIsShownAroundTheOffendingCharacter() {
        let text = String(repeating: "00", count: 100) + "zz" + String(repeating: "11", count: 100)
        let error = #expect(throws: HexError.self) { try Hex.bytes(text) }
        #expect(error?.offset == 200)
        let description = error?.description ?? ""
        #expect(description.contains("…" + String(repeating: "0", count: 40) + "zz"))
        #expect(description.count < 160)
    }

    @Test func bytesFormatAsLowercaseDigitsWithoutSeparatorsUnlessOneIsGiven() {
        #expect(Hex.string([0x00, 0xAB, 0x0F, 0xF0]) == "00ab0ff0")
        #expect(Hex.string([UInt8]()) == "")
        #expect(Hex.string([0x08, 0x01, 0xF8], separator: " ") == "08 01 f8")
        #expect(Hex.string([0x08, 0x01, 0xF8][1...]) == "01f8")
    }

    @Test func everyByteSequenceSurvivesARoundTrip() throws {
        let all = (0...255).map(UInt8.init)
        #expect(try Hex.bytes(Hex.string(all)) == all)
        #expect(try Hex.bytes(Hex.string(all, separator: " ")) == all)
        #expect(try Hex.bytes(Hex.string(all).uppercased()) == all)
        let text = "00ff10a7"
        #expect(try Hex.string(Hex.bytes(text)) == text)
    }
}
