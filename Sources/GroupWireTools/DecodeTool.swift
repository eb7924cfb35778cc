import GroupWire
import GroupWireCompression
import GroupWireDynamic
import GroupWireSpec

/// `groupwire decode --spec SPEC [FILE]`: back-to-back frames → one JSON document per frame.
/// Compressed frames (zstd, no dictionary) are decompressed first.
public struct DecodeTool: Sendable {
    /// How the input is written.
    public enum InputFormat: String, Sendable, CaseIterable {
        /// Hex if the first non-blank character is a hex digit, else raw bytes.
        case auto
        /// Raw frame bytes.
        case raw
        /// Hex digits, whitespace ignored.
        case hex
    }

    /// The spec file declaring the messages.
    public var specPath: String
    /// How the input is written.
    public var inputFormat: InputFormat
    /// Whether to wrap each value as `{"offset", "type", "typeID", "value"}`.
    public var envelope: Bool
    /// Whether to pretty-print each document (else one per line).
    public var pretty: Bool
    /// Whether fields the spec does not declare are kept as `"$unknownFields"` (base64) on
    /// decode and written back on encode, instead of being skipped or rejected.
    public var keepsUnknownFields = false
    /// The limits frames and payloads are checked against.
    public var limits: Limits

    /// Creates the tool.
    public init(specPath: String, inputFormat: InputFormat = .auto, envelope: Bool = false, pretty: Bool = false,
                limits: Limits = .default) {
        self.specPath = specPath
        self.inputFormat = inputFormat
        self.envelope = envelope
        self.pretty = pretty
        self.limits = limits
    }

    /// Decodes every frame of `input`.
    /// - Returns: one JSON document per valid frame on standard output, and for each invalid
    ///   frame an error line with its offset and reason; status 1 if any frame was invalid
    ///   (the valid ones are still printed), 2 for spec problems.
    public func run(input: [UInt8]) -> ToolResult {
        SpecLoading.withSpec(specPath) { spec in run(input: input, spec: spec) }
    }

    private func run(input: [UInt8], spec: SpecSet) -> ToolResult {
        var bytes = input
        if inputFormat == .hex || (inputFormat == .auto && HexText.looksLikeHex(input)) {
            switch HexText.decode(input) {
            case .success(let decoded): bytes = decoded
            case .failure(let error): return .error("input is not hex: \(error.message)", status: .invalidInput)
            }
        }
        guard !bytes.isEmpty else {
            return .error("the input holds no frames", status: .invalidInput)
        }
        let codec = DynamicCodec(spec: spec, limits: limits, options: .init(keepsUnknownFields: keepsUnknownFields))
        let writer = JSONWriter(prettyPrinted: pretty)
        // Only compressed frames need it; if zstd cannot start, only those fail.
        let compressor = try? PayloadCompressor(limits: limits)
        var result = ToolResult()
        for event in FrameDecoder(limits: limits).decodeAll(bytes) {
            switch event.result {
            case .failure(let error):
                result.messages += ToolResult.errorLine("frame at offset \(event.offset): \(describe(error))")
                result.status = .invalidInput
            case .success(let received):
                do throws(WireError) {
                    let frame = try decompressed(received, with: compressor)
                    let (message, value) = try codec.decode(frame: frame)
                    let document: JSONValue = envelope
                        ? ["offset": .number(JSONNumber(Int64(event.offset))), "type": .string(message.name),
                           "typeID": .number(JSONNumber(message.typeID)), "value": value]
                        : value
                    result.output += writer.bytes(document) + [0x0A]
                } catch {
                    // Payload offsets count from the body; report them in the input.
                    // (Offsets inside a decompressed body have no place in the input: kept as they are.)
                    let bodyStart = event.offset + event.length - 4 - received.body.count
                    let shifted = received.compression == nil
                        ? WireError(error.kind, offset: error.offset.map { $0 + bodyStart }, error.context) : error
                    result.messages += ToolResult.errorLine("frame at offset \(event.offset) (type id \(received.typeID)): \(describe(shifted))")
                    result.status = .invalidInput
                }
            }
        }
        return result
    }

    /// The frame with its body decompressed (zstd, without a dictionary) when it is compressed.
    private func decompressed(_ frame: Frame, with compressor: PayloadCompressor?) throws(WireError) -> Frame {
        guard let info = frame.compression else { return frame }
        guard let compressor else {
            throw WireError(.unsupportedFrame, "the frame is compressed and zstd could not be set up")
        }
        var plain = frame
        do {
            plain.body = try compressor.decompress(frame.body, info: info)
        } catch let error as WireError {
            throw error
        } catch {
            throw WireError(.invalidValue, "cannot decompress the body: \(error)")
        }
        plain.compression = nil
        return plain
    }

    private func describe(_ error: WireError) -> String {
        if let offset = error.offset {
            return "\(error.kind) at offset \(offset): \(error.context)"
        }
        return "\(error.kind): \(error.context)"
    }
}
