/// How a frame file stores its frames.
///
/// A struct with static members rather than an enum, so that formats (pcapng) can be added
/// without breaking callers.
public struct FrameFileFormat: Sendable, Hashable, CustomStringConvertible {
    /// The format's stable name: `raw`, `hex`, `pcapng`, `pcap` or `tshark-fields`.
    public let name: String

    private init(name: String) {
        self.name = name
    }

    /// Frames back to back, byte for byte as they travel.
    public static let raw = FrameFileFormat(name: "raw")
    /// A text hex dump of frames back to back; see ``HexDump`` for the accepted layouts.
    public static let hex = FrameFileFormat(name: "hex")
    /// A pcapng capture of link type ``CaptureRecord/linkType``, as ``CaptureWriter``
    /// writes: one frame per packet after a pseudo-header (Spec/CAPTURE.md).
    public static let pcapng = FrameFileFormat(name: "pcapng")
    /// A classic pcap capture of the same link type and packets.
    public static let pcap = FrameFileFormat(name: "pcap")

    /// tshark's fields output of the relay's WebSocket messages (`-T fields -e data.data`,
    /// optionally after `-e tcp.stream`): see ``TsharkFieldsReader``.
    public static let tsharkFields = FrameFileFormat(name: "tshark-fields")

    /// Whether frames come in packets with a pseudo-header (pcapng, pcap).
    public var isCapture: Bool { self == .pcapng || self == .pcap }

    /// The format's name.
    public var description: String { name }

    /// Guesses the format of a file from its bytes.
    ///
    /// The rule, in order:
    /// 1. a file that starts with the frame magic byte 0xC7 is `raw`;
    /// 2. a file that starts with a pcapng section header (`0a 0d 0d 0a`) is `pcapng`, one
    ///    that starts with a pcap magic number (`a1b2c3d4` or `a1b23c4d`, either byte
    ///    order) is `pcap`;
    /// 3. text whose first line is hex and commas only (after an optional TCP stream
    ///    number and tab) starting with a relay message type is `tshark-fields`;
    /// 4. a file that is valid UTF-8 and holds no control characters other than tab, LF
    ///    and CR is `hex` (so a hex dump may carry `#` comments in any language);
    /// 5. anything else is `raw`. An empty file is `raw` (it holds no frames).
    ///
    /// Frames are binary, so rule 4 only misreads a raw file that does not start with a
    /// frame and happens to be text; use `--raw` to read such a file as raw.
    public static func detect(_ bytes: [UInt8]) -> FrameFileFormat {
        detect(bytes, isPrefix: false)
    }

    /// How many bytes at the start of a stream ``detect(prefix:)`` looks at (64 KiB).
    public static let detectionLength = 1 << 16

    /// Guesses the format of a stream from its first bytes (up to ``detectionLength``), by
    /// the rule of ``detect(_:)``; a UTF-8 sequence cut off by the end of `prefix` counts
    /// as text.
    public static func detect(prefix: [UInt8]) -> FrameFileFormat {
        detect(prefix, isPrefix: true)
    }

    /// Whether `prefix`, the first bytes of a stream, already decides its format whatever
    /// follows: it starts with the frame magic or a capture magic, or holds a byte that is not
    /// text. A prefix that is all text so far does not: more input could still make it raw,
    /// so a reader of a stream reads on until ``detectionLength`` bytes or the end, and the
    /// same bytes get the same format however they arrive.
    static func decides(prefix: [UInt8]) -> Bool {
        guard let first = prefix.first else { return false }
        if first == 0xC7 { return true }
        let magics: [[UInt8]] = [
            [0x0A, 0x0D, 0x0D, 0x0A], [0xD4, 0xC3, 0xB2, 0xA1], [0xA1, 0xB2, 0xC3, 0xD4], [0x4D, 0x3C, 0xB2, 0xA1],
            [0xA1, 0xB2, 0x3C, 0x4D],
        ]
        if prefix.count >= 4, magics.contains(Array(prefix[0..<4])) { return true }
        // The start of a magic: wait for the rest of it.
        if prefix.count < 4, magics.contains(where: { $0.starts(with: prefix) }) { return false }
        return detect(prefix, isPrefix: true) == .raw
    }

    private static func detect(_ bytes: [UInt8], isPrefix: Bool) -> FrameFileFormat {
        guard let first = bytes.first else { return .raw }
        if first == 0xC7 { return .raw }
        if bytes.count >= 4 {
            let magic = Array(bytes[0..<4])
            if magic == [0x0A, 0x0D, 0x0D, 0x0A] { return .pcapng }
            if [[0xD4, 0xC3, 0xB2, 0xA1], [0xA1, 0xB2, 0xC3, 0xD4], [0x4D, 0x3C, 0xB2, 0xA1], [0xA1, 0xB2, 0x3C, 0x4D]].contains(
                magic)
            {
                return .pcap
            }
        }
        var text = String(validating: bytes, as: UTF8.self)
        // A prefix may end inside a character of up to four bytes.
        var cut = 1
        while text == nil, isPrefix, cut <= 3, cut < bytes.count {
            text = String(validating: bytes.dropLast(cut), as: UTF8.self)
            cut += 1
        }
        guard let text else { return .raw }
        for scalar in text.unicodeScalars where scalar.value < 0x20 || scalar.value == 0x7F {
            if scalar != "\t", scalar != "\n", scalar != "\r" { return .raw }
        }
        return TsharkFieldsReader.looksLikeFields(bytes) ? .tsharkFields : .hex
    }
}
