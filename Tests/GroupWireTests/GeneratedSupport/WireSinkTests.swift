import GroupWire
import Testing

/// `_WireSink.encode(size:_:)`, the exact-size output of generated encoders: small payloads
/// are written on the stack and copied, larger ones straight into the array; both give the
/// same bytes and both refuse a body that writes more or fewer bytes than announced.
struct WireSinkTests {
    /// A body writing `count` bytes: a key, a length-prefixed string and raw bytes, so that
    /// every write the generated code uses lands at a known place.
    static func write(_ count: Int, into sink: inout _WireSink) {
        sink.writeByte(0x0A)
        sink.writeLengthPrefixed("é")
        sink.writeRaw((0..<max(0, count - 4)).map { UInt8(truncatingIfNeeded: $0 &* 7) })
    }

    static func expected(_ count: Int) -> [UInt8] {
        [0x0A, 0x02, 0xC3, 0xA9] + (0..<max(0, count - 4)).map { UInt8(truncatingIfNeeded: $0 &* 7) }
    }

    @Test(arguments: [4, 5, 100, _WireSink.smallSize - 1, _WireSink.smallSize, _WireSink.smallSize + 1, 70_000])
    func bothPathsWriteTheAnnouncedBytes(size: Int) {
        #expect(_WireSink.encode(size: size) { Self.write(size, into: &$0) } == Self.expected(size))
        // One byte announced too many: the payload is short, so nil.
        #expect(_WireSink.encode(size: size + 1) { Self.write(size, into: &$0) } == nil)
        // One byte announced too few: the last write overflows, so nil.
        #expect(_WireSink.encode(size: size - 1) { Self.write(size, into: &$0) } == nil)
    }

    @Test func emptyAndNegativeSizes() {
        #expect(_WireSink.encode(size: 0) { _ in } == [])
        #expect(_WireSink.encode(size: 0) { $0.writeByte(1) } == nil)
        #expect(_WireSink.encode(size: -1) { _ in } == nil)
    }

    /// Strings are written from where their UTF-8 lies, small (inline) or not, and from a
    /// string built from a substring or characters.
    @Test func stringsAreWrittenAsTheirUTF8() {
        let strings = [
            "", "a", "fifteen-bytes!!", "sixteen-bytes!!!", "日本語のテキスト", String("xx-substring".dropFirst(2)),
            String(Array("é-zz").reversed()), String(repeating: "long ", count: 25),
        ]
        for string in strings {
            let utf8 = Array(string.utf8)
            let bytes = _WireSink.encode(size: 1 + utf8.count) { $0.writeLengthPrefixed(string) }
            #expect(bytes == [UInt8(utf8.count)] + utf8, "\(string.debugDescription)")
        }
    }
}
