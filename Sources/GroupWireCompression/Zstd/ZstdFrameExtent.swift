/// Where one zstd frame ends, found in one pass over its header and block headers
/// (RFC 8878, sections 3.1.1 and 3.1.1.2): what `ZSTD_findFrameCompressedSize` computes,
/// with the same verdicts (tests compare the two on thousands of mutated frames), but
/// without a call into libzstd and a second header parse on every message.
///
/// Only the frame's structure is checked here; the blocks' contents are checked by
/// libzstd while decoding exactly `size` bytes.
enum ZstdFrameExtent {
    /// A complete frame of `size` bytes starting with `header`.
    case frame(header: ZstdFrameHeader, size: Int)
    /// The bytes end inside the frame (libzstd: `srcSize_wrong`).
    case truncated
    /// The frame breaks the format (libzstd: `frameParameter_unsupported`,
    /// `frameParameter_windowTooLarge` or `corruption_detected`).
    case invalid(reason: StaticString)

    /// Largest window log a zstd frame may declare on 64-bit hosts (`ZSTD_WINDOWLOG_MAX`).
    static let windowLogFormatMax = 31

    /// Measures the frame at the start of `raw`, which begins with the zstd frame magic.
    @inline(__always)  // the per-message path: lets the header live in registers.
    static func measure(_ raw: UnsafeRawBufferPointer) -> ZstdFrameExtent {
        guard let header = ZstdFrameHeader(raw: raw) else { return .truncated }
        if header.hasReservedBit {
            return .invalid(reason: "the zstd frame header sets a reserved bit")
        }
        if let windowLog = header.windowLog, windowLog > windowLogFormatMax {
            return .invalid(reason: "the zstd frame asks for a window over 2^31 bytes")
        }
        var position = header.size  // <= raw.count, checked by the header parse.
        while true {
            guard raw.count - position >= 3 else { return .truncated }
            // safe because position + 3 <= raw.count.
            let blockHeader = UInt32(raw[position]) | UInt32(raw[position + 1]) << 8 | UInt32(raw[position + 2]) << 16
            let contentLength: Int
            switch blockHeader >> 1 & 3 {
            case 1: contentLength = 1  // RLE_Block: one byte repeated Block_Size times.
            case 3: return .invalid(reason: "a zstd block uses the reserved block type")
            default: contentLength = Int(blockHeader >> 3)  // Raw_Block or Compressed_Block.
            }
            guard raw.count - position - 3 >= contentLength else { return .truncated }
            position += 3 + contentLength  // safe because the sum is <= raw.count.
            if blockHeader & 1 != 0 { break }  // Last_Block
        }
        if header.hasChecksum {
            guard raw.count - position >= 4 else { return .truncated }
            position += 4  // safe because position + 4 <= raw.count.
        }
        return .frame(header: header, size: position)
    }
}
