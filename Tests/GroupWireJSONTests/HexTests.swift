import GroupWireJSON
import Testing

/// The package's one hexadecimal, as dumps, fingerprints, diagnostics and parsers use it.
@Suite struct HexTests {
    @Test func exactlyTheTwentyTwoDigitsHaveValues() {
        let digits = Array("0123456789abcdefABCDEF".utf8)
        for byte in UInt8.min...UInt8.max {
            if let index = digits.firstIndex(of: byte) {
                #expect(Hex.value(of: byte) == UInt8(index < 16 ? index : index - 6), "\(byte)")
                #expect(Hex.isDigit(byte))
            } else {
                #expect(Hex.value(of: byte) == nil, "\(byte)")
                #expect(!Hex.isDigit(byte))
            }
        }
    }

    @Test func bytesAreWrittenTwoDigitsEachWithTheCaseAndSeparatorAsked() {
        #expect(Hex.string([]) == "")
        #expect(Hex.string([0x00, 0x0A, 0xC7, 0xFF]) == "000ac7ff")
        #expect(Hex.string([0x00, 0x0A, 0xC7, 0xFF], uppercase: true) == "000AC7FF")
        #expect(Hex.string([0xDE, 0xAD, 0x01], separator: " ") == "de ad 01")
        #expect(Hex.string(UInt8(0)...UInt8(255)).count == 512)
    }

    @Test func numbersArePaddedToTheirWidthAndNeverCut() {
        #expect(Hex.digits(UInt8(0x0A), width: 2) == "0a")
        #expect(Hex.digits(UInt64(0xC7), width: 2, uppercase: true) == "C7")
        #expect(Hex.digits(UInt64.max, width: 16) == "ffffffffffffffff")
        #expect(Hex.digits(UInt64(0x1_0000), width: 2) == "10000", "wider than asked: all digits")
        #expect(Hex.digits(UInt32(0)) == "0")
        #expect(Hex.literal(UInt8(0x0A), width: 2) == "0x0A")
        #expect(Hex.literal(UInt32(0xABCD), width: 8) == "0x0000ABCD")
    }
}
