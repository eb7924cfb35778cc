import GroupWireNegotiation
import GroupWireTestSupport
import Testing

/// The dictionary content hash: the first 8 bytes of SHA-256, checked against FIPS 180-4's
/// examples and against `sha256sum` of the vectors' dictionary.
@Suite struct DictionaryHashTests {
    @Test(arguments: [
        ("", "e3b0c44298fc1c14"),
        ("abc", "ba7816bf8f01cfea"),
        ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", "248d6a61d20638b8"),
    ])
    func theHashIsTheFirstEightBytesOfSHA256(_ text: String, _ prefix: String) {
        #expect(DictionaryHash(of: Array(text.utf8)).description == prefix)
    }

    @Test func aMillionAsCrossManyBlocks() {
        #expect(DictionaryHash(of: [UInt8](repeating: 0x61, count: 1_000_000)).description == "cdc76e5c9914fb92")
    }

    @Test func theVectorsDictionaryHashesAsSha256sumPrints() throws {
        // sha256sum Spec/vectors/compression/playback-4242.dict | cut -c1-16
        let bytes = try RepositoryPaths.bytes("Spec/vectors/compression/playback-4242.dict")
        let entry = try #require(HelloDictionary(dictionary: bytes))
        #expect(entry.id == 4242)
        #expect(entry.contentHash.description == PlaybackDictionary.sha256Prefix)
    }
}

enum PlaybackDictionary {
    /// `sha256sum Spec/vectors/compression/playback-4242.dict | cut -c1-16`.
    static let sha256Prefix = "65b04e82d045c8a1"
}
