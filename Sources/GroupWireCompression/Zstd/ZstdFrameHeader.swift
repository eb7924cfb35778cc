/// The two fields of a zstd frame header (RFC 8878, section 3.1.1.1) the decompressor
/// checks before decoding: the dictionary id and the declared content size.
///
/// Read in Swift rather than through `ZSTD_getDictID_fromFrame` and
/// `ZSTD_getFrameContentSize`, which would parse the same header twice more on every
/// message; `ZSTD_findFrameCompressedSize` has already validated it by then.
struct ZstdFrameHeader: Equatable {
    /// Dictionary_ID, 0 when the frame has none.
    var dictionaryID: UInt32
    /// Frame_Content_Size, nil when the frame does not declare it.
    var contentSize: UInt64?

    /// Parses the header at the start of `bytes`, which must begin with the zstd magic.
    /// - Returns: nil when the bytes end inside the header (never traps).
    init?(_ bytes: [UInt8]) {
        guard bytes.count >= 5 else { return nil }
        let descriptor = bytes[4]
        let contentSizeFlag = Int(descriptor >> 6)
        let singleSegment = descriptor & 0x20 != 0
        // Field sizes by flag value (RFC 8878, Frame_Header_Descriptor).
        let dictionaryIDLength = descriptor & 0x03 == 3 ? 4 : Int(descriptor & 0x03)
        let contentSizeLength = contentSizeFlag == 0 ? (singleSegment ? 1 : 0) : 1 << contentSizeFlag
        let dictionaryIDStart = 5 + (singleSegment ? 0 : 1)  // Window_Descriptor unless single segment
        let contentSizeStart = dictionaryIDStart + dictionaryIDLength
        guard bytes.count >= contentSizeStart + contentSizeLength else { return nil }
        dictionaryID = UInt32(truncatingIfNeeded: Self.littleEndian(bytes, at: dictionaryIDStart, count: dictionaryIDLength))
        if contentSizeLength == 0 {
            contentSize = nil
        } else {
            let value = Self.littleEndian(bytes, at: contentSizeStart, count: contentSizeLength)
            // The 2-byte form stores the size minus 256 (RFC 8878, Frame_Content_Size).
            contentSize = contentSizeLength == 2 ? value + 256 : value
        }
    }

    /// An unsigned little-endian integer of `count` (0...8) bytes at `start`; the caller
    /// has checked that the bytes exist.
    private static func littleEndian(_ bytes: [UInt8], at start: Int, count: Int) -> UInt64 {
        var value: UInt64 = 0
        for index in stride(from: count - 1, through: 0, by: -1) {
            value = value << 8 | UInt64(bytes[start + index])
        }
        return value
    }
}
