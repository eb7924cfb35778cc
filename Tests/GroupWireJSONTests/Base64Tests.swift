import Foundation
import GroupWireJSON
import Testing

/// The package's one base64: both variants round-trip, agree with Foundation's encoder
/// and with each other, and decode only canonical text.
@Suite struct Base64Tests {
    @Test func everyLengthRoundTripsInBothVariantsAndMatchesFoundationsText() {
        for length in 0...64 {
            // Every byte value turns up across the lengths, each length with other bytes.
            let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ length &* 101 &+ 251) }
            let standard = Base64.encode(bytes)
            #expect(standard == Data(bytes).base64EncodedString())
            let url = Base64.encode(bytes, .url)
            #expect(
                url
                    == standard.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
                    .replacingOccurrences(of: "=", with: ""))
            #expect(Base64.decode(standard) == bytes)
            #expect(Base64.decode(url, .url) == bytes)
        }
    }

    @Test func onlyTheCanonicalTextDecodes() {
        #expect(Base64.decode("QQ==") == [0x41])
        #expect(Base64.decode("QUI=") == [0x41, 0x42])
        #expect(Base64.decode("") == [])
        #expect(Base64.decode("QR==") == nil, "set bits below the last byte")
        #expect(Base64.decode("QUJ=") == nil, "set bits below the last byte")
        #expect(Base64.decode("QQ") == nil, "standard needs its padding")
        #expect(Base64.decode("QQ=") == nil)
        #expect(Base64.decode("QUI==") == nil)
        #expect(Base64.decode("Q===") == nil, "one character left over")
        #expect(Base64.decode("QQ==QQ==") == nil, "padding only at the end")
        #expect(Base64.decode("QU=I") == nil)
        #expect(Base64.decode("QUJD\n") == nil, "no whitespace")
        #expect(Base64.decode("-_8=") == nil, "the URL alphabet is not the standard one")
        #expect(Base64.decode("-_8", .url) == [0xFB, 0xFF])
        #expect(Base64.decode("+/8", .url) == nil, "the standard alphabet is not the URL one")
        #expect(Base64.decode("QQ==", .url) == nil, "no padding in the URL form")
        #expect(Base64.decode("QR", .url) == nil, "set bits below the last byte")
        #expect(Base64.decode("Q", .url) == nil, "one character left over")
        #expect(Base64.decode(Substring("eyJhIjoxfQ"), .url) == Array(#"{"a":1}"#.utf8))
    }
}
