import GroupWire

/// Turns training inputs into samples for ``DictionaryTrainer``: a file of GroupWire frames
/// contributes the payload of each data and control frame; any other file is one sample.
public enum DictionarySamples {
    /// The samples found in one input.
    public struct Extracted: Sendable, Hashable {
        /// The samples, in input order.
        public var samples: [[UInt8]]
        /// Whether the input was read as a stream of frames.
        public var isFrameStream: Bool
        /// Frames left out: fragments (a fragment is part of a body, not a message).
        public var skippedFrames: Int
    }

    /// Extracts samples from one input's bytes.
    ///
    /// Bytes that start with the frame magic and version (`C7 01`) are read as back-to-back
    /// frames; a valid message payload never starts with `C7` (it would be field 24 with
    /// the invalid wire type 7), so the two kinds of input cannot be confused. Compressed
    /// frames are decompressed with `payloads`.
    /// - Parameters:
    ///   - bytes: the input.
    ///   - payloads: decompresses compressed frames, within its limits and dictionaries.
    /// - Returns: the samples.
    /// - Throws: the `WireError` of the first invalid frame of a frame stream, with its
    ///   stream offset, or of a compressed frame that does not decompress.
    public static func extract(from bytes: [UInt8], payloads: PayloadCompressor) throws(WireError) -> Extracted {
        guard bytes.count >= 2, bytes[0] == Frame.magic, bytes[1] == Frame.version else {
            return Extracted(samples: bytes.isEmpty ? [] : [bytes], isFrameStream: false, skippedFrames: 0)
        }
        var samples: [[UInt8]] = []
        var skipped = 0
        for event in FrameDecoder(limits: payloads.limits).decodeAll(bytes) {
            switch event.result {
            case .failure(let error):
                throw error
            case .success(let frame):
                guard frame.kind != .fragment else {
                    skipped += 1
                    continue
                }
                do {
                    samples.append(try payloads.payload(of: frame))
                } catch {
                    throw WireError(error.kind, offset: event.offset, "frame at offset \(event.offset): \(error.context)")
                }
            }
        }
        return Extracted(samples: samples, isFrameStream: true, skippedFrames: skipped)
    }
}
