import GroupWire
import GroupWireCompression
import GroupWireSession
import GroupWireDynamic
import GroupWireSpec

/// `groupwire decode --spec SPEC [FILE]`: back-to-back frames → one JSON document per message.
/// Frames go through the messenger's receiving path, `ReceivePipeline`: fragments are put
/// back together (the input is one sender; a message is printed when its last fragment
/// arrives) and compressed messages decompressed, with the dictionaries of
/// ``dictionaryPaths`` when they need one.
package struct DecodeTool: Sendable {
    /// How the input is written.
    package enum InputFormat: String, Sendable, CaseIterable {
        /// Hex if the first non-blank character is a hex digit, else raw bytes.
        case auto
        /// Raw frame bytes.
        case raw
        /// Hex digits, whitespace ignored.
        case hex
    }

    /// The spec file declaring the messages.
    package var specPath: String
    /// How the input is written.
    package var inputFormat: InputFormat
    /// Whether to wrap each value as `{"offset", "type", "typeID", "value"}`.
    package var envelope: Bool
    /// Whether to pretty-print each document (else one per line).
    package var pretty: Bool
    /// Whether fields the spec does not declare are kept as `"$unknownFields"` (base64) on
    /// decode and written back on encode, instead of being skipped or rejected.
    package var keepsUnknownFields = false
    /// The limits frames and payloads are checked against.
    package var limits: Limits
    /// Zstd dictionary files (`groupwire dict train` output) for bodies compressed with one;
    /// a body whose dictionary is not among them is reported with the dictionary's id.
    package var dictionaryPaths: [String] = []

    /// Creates the tool.
    package init(specPath: String, inputFormat: InputFormat = .auto, envelope: Bool = false, pretty: Bool = false,
                limits: Limits = .default) {
        self.specPath = specPath
        self.inputFormat = inputFormat
        self.envelope = envelope
        self.pretty = pretty
        self.limits = limits
    }

    /// Decodes every frame of `input`.
    /// - Returns: one JSON document per valid message (a data frame, or the last fragment of
    ///   a fragmented one) on standard output, and for each invalid frame or dropped
    ///   message an error line with its offset and reason; status 1 if any frame was
    ///   invalid or a fragmented message incomplete (the valid ones are still printed), 2
    ///   for spec problems and unreadable or invalid dictionary files.
    package func run(input: [UInt8]) -> ToolResult {
        let dictionaries: DictionaryStore
        do throws(ToolFailure) {
            dictionaries = try DictionaryLoading.load(dictionaryPaths)
        } catch {
            return error.result
        }
        return SpecLoading.withSpec(specPath) { spec in run(input: input, spec: spec, dictionaries: dictionaries) }
    }

    private func run(input: [UInt8], spec: SpecSet, dictionaries: DictionaryStore) -> ToolResult {
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
        let compressor = try? PayloadCompressor(dictionaries: dictionaries, limits: limits)
        var result = ToolResult()
        // The messenger's receiving path. The whole input is one sender; time stands still,
        // so nothing times out mid-file.
        var pipeline = ReceivePipeline(limits: limits, clock: ReassemblyClock { .zero }, codec: compressor)
        let sender = ParticipantID.numbered(0)
        for event in FrameDecoder(limits: limits).decodeAll(bytes) {
            switch event.result {
            case .failure(let error):
                result.messages += ToolResult.errorLine("frame at offset \(event.offset): \(describe(error))")
                result.status = .invalidInput
            case .success(let frame):
                let received = pipeline.receive(frame, from: sender)
                for drop in received.drops {
                    result.messages += ToolResult.errorLine("frame at offset \(event.offset) (type id \(frame.typeID)): \(drop)")
                    result.status = .invalidInput
                }
                if let rejection = received.rejection {
                    result.messages += ToolResult.errorLine("frame at offset \(event.offset) (type id \(frame.typeID)): \(describe(rejection))")
                    result.status = .invalidInput
                }
                guard let message = received.message else { continue }
                do throws(WireError) {
                    let (decoded, value) = try codec.decode(frame: Frame(kind: message.kind, typeID: message.typeID, body: message.payload))
                    let document: JSONValue = envelope
                        ? ["offset": .number(JSONNumber(Int64(event.offset))), "type": .string(decoded.name),
                           "typeID": .number(JSONNumber(decoded.typeID)), "value": value]
                        : value
                    result.output += writer.bytes(document) + [0x0A]
                } catch {
                    // Payload offsets count from the body; report them in the input.
                    // (Offsets inside a decompressed or reassembled body have no place in the input: kept as they are.)
                    let bodyStart = event.offset + event.length - 4 - message.payload.count
                    let shifted = message.compression == nil && frame.kind != .fragment
                        ? WireError(error.kind, offset: error.offset.map { $0 + bodyStart }, error.context) : error
                    result.messages += ToolResult.errorLine("frame at offset \(event.offset) (type id \(message.typeID)): \(describe(shifted))")
                    result.status = .invalidInput
                }
            }
        }
        if pipeline.partialMessageCount > 0 {
            result.messages += ToolResult.errorLine(
                "the input ends inside \(pipeline.partialMessageCount) fragmented message(s) whose fragments are not all there")
            result.status = .invalidInput
        }
        return result
    }

    private func describe(_ error: WireError) -> String {
        if let offset = error.offset {
            return "\(error.kind) at offset \(offset): \(error.context)"
        }
        return "\(error.kind): \(error.context)"
    }
}
