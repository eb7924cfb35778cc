import GroupWire

extension WireError.Kind {
    /// A compressed body is not a well-formed zstd frame, or libzstd rejected it while
    /// decoding (corrupted bytes, bad block, entropy tables that do not parse).
    public static let decompressionFailed = WireError.Kind(name: "decompressionFailed")
    /// libzstd could not compress a body (out of memory, or a parameter it rejected).
    public static let compressionFailed = WireError.Kind(name: "compressionFailed")
    /// A compressed frame names a dictionary id the receiver's store does not hold.
    /// The context names the id.
    public static let unknownDictionary = WireError.Kind(name: "unknownDictionary")
    /// The body was compressed with a different dictionary than the one the frame names
    /// (the zstd frame's own dictionary id disagrees, or libzstd reports the mismatch).
    public static let dictionaryMismatch = WireError.Kind(name: "dictionaryMismatch")
    /// The frame header's `contentSize` disagrees with the size the zstd frame declares
    /// or with the number of bytes it actually decompresses to.
    public static let contentSizeMismatch = WireError.Kind(name: "contentSizeMismatch")
    /// The declared or actual decompressed size is over the configured cap
    /// (`Limits.maxMessageSize` or a stricter one).
    public static let decompressedSizeExceeded = WireError.Kind(name: "decompressedSizeExceeded")
    /// Dictionary bytes are not a zstd dictionary (bad magic, id 0, tables libzstd rejects).
    public static let invalidDictionary = WireError.Kind(name: "invalidDictionary")
    /// ZDICT could not train a dictionary from the given samples (too few or too small).
    public static let dictionaryTrainingFailed = WireError.Kind(name: "dictionaryTrainingFailed")
}
