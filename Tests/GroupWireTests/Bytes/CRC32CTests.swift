import GroupWireTesting
import Testing

@testable import GroupWire

@Suite struct CRC32CTests {
    @Test func theStandardCheckValueOf123456789IsE3069283() {
        #expect(CRC32C.checksum(Array("123456789".utf8)) == 0xE306_9283)
    }

    @Test func thirtyTwoZeroBytesGive8A9136AA() {
        #expect(CRC32C.checksum([UInt8](repeating: 0, count: 32)) == 0x8A91_36AA)
    }

    @Test func thirtyTwoFFBytesGive62A8AB43() {
        #expect(CRC32C.checksum([UInt8](repeating: 0xFF, count: 32)) == 0x62A8_AB43)
    }

    @Test func anEmptyInputChecksumsToZero() {
        #expect(CRC32C.checksum([]) == 0)
    }

    @Test(arguments: [
        0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 12, 13, 14, 15, 46, 63, 4095, 4096, 12_287, 12_288, 12_289, 12_295, 12_296, 40_000, 100_003,
    ])
    func hardwareAndTablePathsAgreeAtEveryLengthAndAlignment(length: Int) {
        var generator = SeededRandom(seed: UInt64(length))
        let data = (0..<(length + 7)).map { _ in UInt8.random(in: 0...255, using: &generator) }
        for misalignment in [0, 3, 7] {
            data.withUnsafeBytes { raw in
                let slice = UnsafeRawBufferPointer(rebasing: raw[misalignment..<(misalignment + length)])
                #expect(CRC32C.update(0, slice) == CRC32C.portableUpdate(0, slice))
            }
        }
    }

    @Test func updatingInPiecesEqualsOneChecksumOverTheWhole() {
        let data = (0..<30_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        let whole = CRC32C.checksum(data)
        data.withUnsafeBytes { raw in
            var crc: UInt32 = 0
            for cut in stride(from: 0, to: data.count, by: 9_999) {
                crc = CRC32C.update(crc, UnsafeRawBufferPointer(rebasing: raw[cut..<min(cut + 9_999, data.count)]))
            }
            #expect(crc == whole)
        }
    }
}
