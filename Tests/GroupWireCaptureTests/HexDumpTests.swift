import Testing

@testable import GroupWireCapture

@Suite struct HexDumpTests {
    private func parse(_ text: String) throws(FrameFileError) -> HexDump {
        try HexDump(parsing: Array(text.utf8), path: "f.hex")
    }

    private func failure(_ text: String) -> FrameFileError? {
        do {
            _ = try parse(text)
            return nil
        } catch {
            return error
        }
    }

    @Test func plainHexWithCommentsBlankLinesAndPrefixesReadsAsBytes() throws {
        let dump = try parse(
            """
            # a comment
            C7 01 0a

            0x05 0xFF0e   # trailing comment
            \tab\r
            """)
        #expect(dump.bytes == [0xC7, 0x01, 0x0A, 0x05, 0xFF, 0x0E, 0xAB])
    }

    @Test func xxdPlainOutputReadsAsBytes() throws {
        let dump = try parse("c7012e00010a106ba7b8\n109dad11\n")
        #expect(dump.bytes == [0xC7, 0x01, 0x2E, 0x00, 0x01, 0x0A, 0x10, 0x6B, 0xA7, 0xB8, 0x10, 0x9D, 0xAD, 0x11])
    }

    @Test func xxdOutputSkipsTheOffsetAndASCIIColumns() throws {
        let dump = try parse(
            """
            00000000: c701 2e00 010a 106b a7b8 109d ad11 d180  .......k........
            00000010: 0a0b 2020 6162                           ..  ab
            """)
        #expect(
            dump.bytes == [
                0xC7, 0x01, 0x2E, 0x00, 0x01, 0x0A, 0x10, 0x6B, 0xA7, 0xB8, 0x10, 0x9D, 0xAD, 0x11, 0xD1, 0x80,
                0x0A, 0x0B, 0x20, 0x20, 0x61, 0x62,
            ])
        #expect(dump.location(ofByte: 0) == HexDump.Location(line: 1, column: 11))
        #expect(dump.location(ofByte: 1) == HexDump.Location(line: 1, column: 13))
        #expect(dump.location(ofByte: 17) == HexDump.Location(line: 2, column: 13))
    }

    @Test func hexdumpCanonicalOutputExpandsStarLines() throws {
        let dump = try parse(
            """
            00000000  c7 01 2e 00 01 0a 10 6b  a7 b8 10 9d ad 11 d1 80  |.......k...#|...|
            00000010  00 00 00 00 00 00 00 00  00 00 00 00 00 00 00 00  |................|
            *
            00000040  c7 01                                             |..|
            00000042
            """)
        #expect(dump.bytes.count == 0x42)
        #expect(Array(dump.bytes[0..<3]) == [0xC7, 0x01, 0x2E])
        #expect(dump.bytes[16..<64].allSatisfy { $0 == 0 })
        #expect(Array(dump.bytes[64...]) == [0xC7, 0x01])
        #expect(dump.location(ofByte: 40) == HexDump.Location(line: 3, column: 1))
        #expect(dump.location(ofByte: 65) == HexDump.Location(line: 4, column: 14))
    }

    @Test func aBadDigitIsReportedAtItsLineAndColumn() {
        let error = failure("c7 01\n0a 0g 05\n")
        #expect(error?.kind == .badHexDigit)
        #expect(error?.line == 2)
        #expect(error?.column == 5)
        #expect(error?.description == "f.hex:2:5: error: 'g' is not a hex digit")
    }

    @Test func anOddNumberOfDigitsIsReportedAtTheToken() {
        let error = failure("c7 01\n  0a 123\n")
        #expect(error?.kind == .oddHexDigits)
        #expect(error?.line == 2)
        #expect(error?.column == 6)
    }

    @Test func aStarLineWithoutOffsetsIsRejected() {
        let error = failure("c7 01\n*\nc7\n")
        #expect(error?.kind == .badRepeat)
        #expect(error?.line == 2)
    }

    @Test func aStarLineWhoseGapIsNotWholeLinesIsRejected() {
        let error = failure("00000000  00 00 00 00  |....|\n*\n00000007  01  |.|\n")
        #expect(error?.kind == .badRepeat)
        #expect(error?.line == 2)
    }

    @Test func aStarLineCannotExpandPastTheByteLimit() {
        do {
            _ = try HexDump(parsing: Array("00000000  00 00  |..|\n*\n10000000  01  |.|\n".utf8), path: "f", maxBytes: 1000)
            Issue.record("expected an error")
        } catch {
            #expect(error.kind == .badRepeat)
        }
    }

    @Test func locationsOutsideTheBytesAreNil() throws {
        let dump = try parse("c701")
        #expect(dump.location(ofByte: 2) == nil)
        #expect(dump.location(ofByte: -1) == nil)
        #expect(try parse("# only a comment\n").bytes.isEmpty)
    }
}
