/// The fields of a zstd frame header (RFC 8878, section 3.1.1.1) the decompressor checks
/// before decoding, and where the header ends.
///
/// Read in Swift rather than through `ZSTD_getDictID_fromFrame` and
/// `ZSTD_getFrameContentSize`, which would parse the same header twice more on every
/// message; tests cross-check every field against libzstd.
struct ZstdFrameHeader: Equatable {
    /// Dictionary_ID, 0 when the frame has none.
    var dictionaryID: UInt32
    /// Frame_Content_Size, nil when the frame does not declare it.
    var contentSize: UInt64?
    /// Bytes from the magic number through the last header field.
    var size: Int
    /// Whether a 4-byte Content_Checksum follows the last block.
    var hasChecksum: Bool
    /// Whether the reserved bit (bit 3) of the Frame_Header_Descriptor is set, which makes
    /// the frame invalid.
    var hasReservedBit: Bool
    /// The log of the window the Window_Descriptor asks for, nil in single-segment frames
    /// (whose window is the content size).
    var windowLog: Int?

    /// Parses the header at the start of `bytes`, which must begin with the zstd magic.
    /// - Returns: nil when the bytes end inside the header (never traps).
    init?(_ bytes: [UInt8]) {
        guard let header = bytes.withUnsafeBytes({ Self(raw: $0) }) else { return nil }
        self = header
    }

    /// Parses the header at the start of `raw`, which must begin with the zstd magic.
    /// - Returns: nil when the bytes end inside the header (never traps).
    @inline(__always)  // the per-message path: lets the header live in registers.
    init?(raw: UnsafeRawBufferPointer) {
        guard raw.count >= 5 else { return nil }
        let descriptor = raw[4]
        let singleSegment = descriptor & 0x20 != 0
        // Field sizes by flag value (RFC 8878, Frame_Header_Descriptor).
        let dictionaryIDStart = singleSegment ? 5 : 6  // Window_Descriptor unless single segment
        let dictionaryIDLength: Int
        switch descriptor & 0x03 {
        case 0: dictionaryIDLength = 0
        case 1: dictionaryIDLength = 1
        case 2: dictionaryIDLength = 2
        default: dictionaryIDLength = 4
        }
        let contentSizeStart = dictionaryIDStart + dictionaryIDLength
        let contentSizeLength: Int
        switch descriptor >> 6 {
        case 0: contentSizeLength = singleSegment ? 1 : 0
        case 1: contentSizeLength = 2
        case 2: contentSizeLength = 4
        default: contentSizeLength = 8
        }
        size = contentSizeStart + contentSizeLength  // at most 18: small constants added.
        guard raw.count >= size else { return nil }
        hasChecksum = descriptor & 0x04 != 0
        hasReservedBit = descriptor & 0x08 != 0
        // Window_Descriptor: exponent in the top 5 bits, the window log is 10 + exponent.
        windowLog = singleSegment ? nil : Int(raw[5] >> 3) + 10
        // Unaligned little-endian loads; safe because raw.count >= size covers every field.
        switch dictionaryIDLength {
        case 0: dictionaryID = 0
        case 1: dictionaryID = UInt32(raw[dictionaryIDStart])
        case 2: dictionaryID = UInt32(UInt16(littleEndian: raw.loadUnaligned(fromByteOffset: dictionaryIDStart, as: UInt16.self)))
        default: dictionaryID = UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: dictionaryIDStart, as: UInt32.self))
        }
        switch contentSizeLength {
        case 0: contentSize = nil
        case 1: contentSize = UInt64(raw[contentSizeStart])
        case 2:
            // The 2-byte form stores the size minus 256 (RFC 8878, Frame_Content_Size).
            contentSize = UInt64(UInt16(littleEndian: raw.loadUnaligned(fromByteOffset: contentSizeStart, as: UInt16.self))) + 256
        case 4: contentSize = UInt64(UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: contentSizeStart, as: UInt32.self)))
        default: contentSize = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: contentSizeStart, as: UInt64.self))
        }
    }
}
