/// How a frame file stores its frames.
///
/// A struct with static members rather than an enum, so that formats (pcapng) can be added
/// without breaking callers.
public struct FrameFileFormat: Sendable, Hashable, CustomStringConvertible {
    /// The format's stable name: `raw` or `hex`.
    public let name: String

    private init(name: String) {
        self.name = name
    }

    /// Frames back to back, byte for byte as they travel.
    public static let raw = FrameFileFormat(name: "raw")
    /// A text hex dump of frames back to back; see ``HexDump`` for the accepted layouts.
    public static let hex = FrameFileFormat(name: "hex")

    /// The format's name.
    public var description: String { name }

    /// Guesses the format of a file from its bytes.
    ///
    /// The rule, in order:
    /// 1. a file that starts with the frame magic byte 0xC7 is `raw`;
    /// 2. a file that is valid UTF-8 and holds no control characters other than tab, LF
    ///    and CR is `hex` (so a hex dump may carry `#` comments in any language);
    /// 3. anything else is `raw`. An empty file is `raw` (it holds no frames).
    ///
    /// Frames are binary, so rule 2 only misreads a raw file that does not start with a
    /// frame and happens to be text; use `--raw` to read such a file as raw.
    public static func detect(_ bytes: [UInt8]) -> FrameFileFormat {
        guard let first = bytes.first else { return .raw }
        if first == 0xC7 { return .raw }
        guard let text = String(validating: bytes, as: UTF8.self) else { return .raw }
        for scalar in text.unicodeScalars where scalar.value < 0x20 || scalar.value == 0x7F {
            if scalar != "\t", scalar != "\n", scalar != "\r" { return .raw }
        }
        return .hex
    }
}
