import GroupWire
import GroupWireCapture
import GroupWireCompression
import GroupWireDynamic
import GroupWireSession
import GroupWireSpec

/// `groupwire decode --spec SPEC [FILE]`: back-to-back frames → one JSON document per message.
/// Frames go through the messenger's receiving path, `ReceivePipeline`: fragments are put
/// back together (the input is one sender; a message is printed when its last fragment
/// arrives) and compressed messages decompressed, with the dictionaries of
/// ``dictionaryPaths`` when they need one.
package struct DecodeTool: Sendable {
    /// How the input is written.
    package enum InputFormat: String, Sendable, CaseIterable {
        /// Detected from the first bytes (``GroupWireCapture/FrameFileFormat/detect(prefix:)``):
        /// raw when the input starts with the magic byte 0xC7 or is not text, else hex.
        case auto
        /// Raw frame bytes.
        case raw
        /// A hex dump: plain hex, the lines `groupwire demo --hex` writes, `xxd`,
        /// `hexdump -C` (see ``GroupWireCapture/HexDump``).
        case hex

        /// The frame file format to read, or nil to detect it.
        var fileFormat: FrameFileFormat? {
            switch self {
            case .auto: nil
            case .raw: .raw
            case .hex: .hex
            }
        }
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
    package init(
        specPath: String, inputFormat: InputFormat = .auto, envelope: Bool = false, pretty: Bool = false,
        limits: Limits = .default
    ) {
        self.specPath = specPath
        self.inputFormat = inputFormat
        self.envelope = envelope
        self.pretty = pretty
        self.limits = limits
    }

    /// Decodes every frame of `input` held in memory, and collects what would be printed.
    /// - Returns: see ``run(stream:output:)``.
    package func run(input: [UInt8]) -> ToolResult {
        ToolOutput.collecting { output in
            run(
                stream: FrameFileStream(bytes: input, path: "standard input", format: inputFormat.fileFormat, limits: limits),
                output: output)
        }
    }

    /// Decodes every frame of the file at `path` (`-`: standard input) as it is read.
    /// - Returns: see ``run(stream:output:)``; ``ToolStatus/failure`` when the file cannot
    ///   be opened.
    package func run(path: String, output: ToolOutput) -> ToolStatus {
        let stream: FrameFileStream
        do throws(FrameFileError) {
            stream = try FrameFileStream.reading(path, format: inputFormat.fileFormat, limits: limits)
        } catch {
            output.message(InspectTool.diagnostic(error))
            return .failure
        }
        return run(stream: stream, output: output)
    }

    /// Decodes every frame of `stream`, printing each message as soon as it is complete.
    /// - Returns: one JSON document per valid message (a data frame, or the last fragment of
    ///   a fragmented one) on standard output, and for each invalid frame or dropped
    ///   message an error line with its offset and reason on standard error; status 1 if
    ///   any frame was invalid, the input is not valid hex or holds no frames, or a
    ///   fragmented message is incomplete (the valid ones are still printed), 2 for spec
    ///   problems and unreadable or invalid dictionary files.
    package func run(stream: FrameFileStream, output: ToolOutput) -> ToolStatus {
        DictionaryLoading.withDictionaries(dictionaryPaths, output: output) { dictionaries in
            let loaded = SpecLoading.withSpec(specPath) { spec in
                ToolResult(status: run(stream: stream, spec: spec, dictionaries: dictionaries, output: output))
            }
            output.message(loaded.messages)
            return loaded.status
        }
    }

    private func run(stream: FrameFileStream, spec: SpecSet, dictionaries: DictionaryStore, output: ToolOutput) -> ToolStatus {
        stream.willRead = { output.flush() }
        let codec = DynamicCodec(spec: spec, limits: limits, options: .init(keepsUnknownFields: keepsUnknownFields))
        let writer = JSONWriter(prettyPrinted: pretty)
        // Only compressed frames need it; if zstd cannot start, only those fail.
        let compressor = try? PayloadCompressor(dictionaries: dictionaries, limits: limits)
        var status = ToolStatus.ok
        func report(_ line: String) {
            output.message(ToolResult.errorLine(line))
            status = .invalidInput
        }
        // The messenger's receiving path. Without a capture's pseudo-headers the whole input
        // is one sender; time stands still, so nothing times out mid-file.
        var pipeline = ReceivePipeline(limits: limits, clock: ReassemblyClock { .zero }, codec: compressor)
        let sender = ParticipantID.numbered(0)
        var events = 0
        do throws(FrameFileError) {
            while let fileEvent = try stream.next() {
                events += 1
                let event = fileEvent.event
                switch event.result {
                case .failure(let error):
                    report("frame at offset \(event.offset): \(describe(error))")
                case .success(let frame):
                    // A capture says who sent each frame: fragments are put together per sender,
                    // as the receiver did (two senders' message ids may be equal).
                    let received = pipeline.receive(
                        frame, from: fileEvent.packet?.record?.sender.map { ParticipantID(uuid: $0) } ?? sender)
                    for drop in received.drops {
                        report("frame at offset \(event.offset) (type id \(frame.typeID)): \(drop)")
                    }
                    if let rejection = received.rejection {
                        report("frame at offset \(event.offset) (type id \(frame.typeID)): \(describe(rejection))")
                    }
                    // Control messages (hellos, session control, acknowledgements) are the
                    // protocol's, not the app's: a real capture holds them, and they are checked
                    // by `groupwire validate`.
                    guard let message = received.message, message.kind != .control else { continue }
                    do throws(WireError) {
                        // Written as it is read, never as one value (a message of a million
                        // points would take hundreds of megabytes as a tree); the envelope's
                        // members before "value" go out with the first piece, once the
                        // payload has been checked.
                        let frame = Frame(kind: message.kind, typeID: message.typeID, body: message.payload)
                        var head =
                            !envelope
                            ? nil
                            : codec.message(typeID: message.typeID).map { declaration in
                                Self.envelopeHead(
                                    offset: event.offset, type: declaration.name, typeID: declaration.typeID, writer: writer)
                            }
                        try codec.writeJSON(frame: frame, writer: writer, indent: envelope ? 1 : 0) { piece in
                            if let prefix = head {
                                output.write(prefix)
                                head = nil
                            }
                            output.write(piece)
                        }
                        var tail: [UInt8] = []
                        if envelope {
                            writer.appendNewline(indent: 0, to: &tail)
                            tail.append(UInt8(ascii: "}"))
                        }
                        output.write(tail + [0x0A])
                    } catch {
                        // Payload offsets count from the body; report them in the input.
                        // (Offsets inside a decompressed or reassembled body have no place in the input: kept as they are.)
                        let bodyStart = event.offset + event.length - 4 - message.payload.count
                        let shifted =
                            message.compression == nil && frame.kind != .fragment
                            ? WireError(error.kind, offset: error.offset.map { $0 + bodyStart }, error.context) : error
                        report("frame at offset \(event.offset) (type id \(message.typeID)): \(describe(shifted))")
                    }
                }
            }
        } catch {
            output.flush()
            output.message(InspectTool.diagnostic(error))
            return .invalidInput
        }
        // An empty file, a hex dump of nothing, a capture without packets: nothing to decode.
        if events == 0 {
            report("\(stream.path) holds no frames")
        }
        if pipeline.partialMessageCount > 0 {
            report(
                "the input ends inside \(pipeline.partialMessageCount) fragmented message(s) whose fragments are not all there")
        }
        return status
    }

    private func describe(_ error: WireError) -> String {
        if let offset = error.offset {
            return "\(error.kind) at offset \(offset): \(error.context)"
        }
        return "\(error.kind): \(error.context)"
    }

    /// The envelope's members before its value (`{"offset":…,"type":…,"typeID":…,"value":`),
    /// as `writer` writes the whole envelope object (keys sorted).
    static func envelopeHead(offset: Int, type: String, typeID: UInt64, writer: JSONWriter) -> [UInt8] {
        var head: [UInt8] = [UInt8(ascii: "{")]
        let members: [(String, JSONValue)] = [
            ("offset", .number(JSONNumber(Int64(offset)))), ("type", .string(type)), ("typeID", .number(JSONNumber(typeID))),
        ]
        for (key, value) in members {
            writer.appendNewline(indent: 1, to: &head)
            writer.appendKey(key, to: &head)
            writer.append(value, indent: 1, to: &head)
            head.append(UInt8(ascii: ","))
        }
        writer.appendNewline(indent: 1, to: &head)
        writer.appendKey("value", to: &head)
        return head
    }
}
