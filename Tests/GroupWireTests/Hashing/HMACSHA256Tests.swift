import GroupWire
import GroupWireTestSupport
import Testing

/// HMAC-SHA256 against RFC 4231's test cases, and SHA-256 against FIPS 180-4's examples.
@Suite struct HMACSHA256Tests {
    @Test func sha256MatchesTheStandardsExamples() throws {
        #expect(
            try SHA256.digest(Array("abc".utf8)) == Hex.bytes("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"))
        #expect(try SHA256.digest([]) == Hex.bytes("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"))
        #expect(
            try SHA256.digest(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8))
                == Hex.bytes("248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"))
    }

    /// RFC 4231 test cases 1, 2, 3 and 7 (a key longer than the block, hashed first).
    @Test(arguments: [
        (
            "0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b", "4869205468657265",
            "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"
        ),
        (
            "4a656665", "7768617420646f2079612077616e7420666f72206e6f7468696e673f",
            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
        ),
        (
            "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", String(repeating: "dd", count: 50),
            "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe"
        ),
        (
            String(repeating: "aa", count: 131),
            "5468697320697320612074657374207573696e672061206c6172676572207468616e20626c6f636b2d73697a65206b657920616e642061206c6172676572207468616e20626c6f636b2d73697a6520646174612e20546865206b6579206e6565647320746f20626520686173686564206265666f7265206265696e6720757365642062792074686520484d414320616c676f726974686d2e",
            "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2"
        ),
    ])
    func hmacMatchesRFC4231(_ key: String, _ data: String, _ expected: String) throws {
        #expect(try HMACSHA256.code(key: Hex.bytes(key), message: Hex.bytes(data)) == Hex.bytes(expected))
    }

    @Test func codesCompareByContentAndLength() {
        let code = HMACSHA256.code(key: [1], message: [2])
        #expect(HMACSHA256.equal(code, code))
        #expect(!HMACSHA256.equal(code, Array(code.dropLast())))
        var flipped = code
        flipped[31] ^= 1
        #expect(!HMACSHA256.equal(code, flipped))
    }
}
