import CZstd
import Foundation
import Testing

@testable import GroupWireCompression

/// Our Swift reading of the zstd frame header must agree with libzstd's on every layout:
/// single segment or not, content size of 1, 2, 4 or 8 bytes or absent, dictionary ids of
/// 0, 1, 2 or 4 bytes.
@Suite struct ZstdFrameHeaderTests {
    private func libzstdFields(_ body: [UInt8]) -> (dictionaryID: UInt32, contentSize: UInt64?) {
        body.withUnsafeBytes { raw in
            let size = ZSTD_getFrameContentSize(raw.baseAddress, raw.count)
            return (ZSTD_getDictID_fromFrame(raw.baseAddress, raw.count), size == czstd_contentsize_unknown() ? nil : size)
        }
    }

    @Test func ourHeaderFieldsMatchLibzstdForEveryLayoutOurWriterProduces() throws {
        let compressor = try ZstdCompressor()
        for size in [0, 1, 255, 256, 257, 65_791, 65_792, 300_000] {
            let body = try compressor.compress([UInt8](repeating: 7, count: size))
            let header = try #require(ZstdFrameHeader(body))
            let expected = libzstdFields(body)
            #expect(header.dictionaryID == expected.dictionaryID, "size \(size)")
            #expect(header.contentSize == expected.contentSize, "size \(size)")
            #expect(header.contentSize == UInt64(size))
        }
    }

    @Test(.enabled(if: ZstdCLI.isAvailable, "the zstd command-line tool is not installed at /usr/bin/zstd"))
    func ourHeaderFieldsMatchLibzstdForCLIFramesWithDictionaryIDsAndNoSize() throws {
        var samples = SamplePayloads(seed: 90)
        let base = try DictionaryTrainer.train(samples: (0..<400).map { _ in samples.playbackState() }, size: 4096)
        let directory = try ZstdCLI.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let payload = samples.playbackState()
        for id: UInt32 in [1, 255, 256, 65_535, 65_536, 0xFFFF_FFFF] {
            let path = directory.appendingPathComponent("\(id).dict").path
            try Data(try base.withID(id).bytes).write(to: URL(fileURLWithPath: path))
            for arguments in [["-D", path], ["-D", path, "--stream-size=\(payload.count)"]] {
                let body = try ZstdCLI.zstd(arguments, input: payload)
                let header = try #require(ZstdFrameHeader(body))
                let expected = libzstdFields(body)
                #expect(header.dictionaryID == id)
                #expect(header.dictionaryID == expected.dictionaryID)
                #expect(header.contentSize == expected.contentSize)
            }
        }
    }

    @Test func aHeaderCutShortIsNil() throws {
        let body = try ZstdCompressor().compress([UInt8](repeating: 1, count: 1000))
        for cut in 0..<6 {
            #expect(ZstdFrameHeader(Array(body.prefix(cut))) == nil, "cut at \(cut)")
        }
        #expect(ZstdFrameHeader(Array(body.prefix(7))) != nil)
    }
}
