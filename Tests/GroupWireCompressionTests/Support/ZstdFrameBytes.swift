/// Reads the zstd frame header fields (RFC 8878 section 3.1.1) of test bodies.
struct ZstdFrameBytes {
    let bytes: [UInt8]

    var descriptor: UInt8 { bytes[4] }
    var contentSizeFlag: Int { Int(descriptor >> 6) }
    var singleSegment: Bool { descriptor & 0x20 != 0 }
    var checksumFlag: Bool { descriptor & 0x04 != 0 }
    var dictionaryIDFlag: Int { Int(descriptor & 0x03) }

    /// Offset of the first block header.
    var firstBlockOffset: Int {
        let dictionaryIDSize = [0, 1, 2, 4][dictionaryIDFlag]
        let contentSizeSize = [singleSegment ? 1 : 0, 2, 4, 8][contentSizeFlag]
        return 4 + 1 + (singleSegment ? 0 : 1) + dictionaryIDSize + contentSizeSize
    }
}
