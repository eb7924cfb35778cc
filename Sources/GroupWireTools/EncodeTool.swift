import GroupWire
import GroupWireCompression
import GroupWireDynamic
import GroupWireJSON
import GroupWireSession
import GroupWireSpec

/// `groupwire encode --spec SPEC --type NAME`: JSON on standard input → the frames a
/// messenger would send for it: one data frame, or fragments when it is over the frame
/// size; compressed with `--compress` or `--dictionary` under the default policy.
package struct EncodeTool: Sendable {
    /// The spec file declaring the message.
    package var specPath: String
    /// The message name.
    package var typeName: String
    /// Whether to write lowercase hex (one frame per line) instead of raw bytes.
    package var hex: Bool
    /// Whether the input is JSON Lines: one message per non-empty line, one frame each.
    package var lines: Bool
    /// Whether fields the spec does not declare are kept as `"$unknownFields"` (base64) on
    /// decode and written back on encode, instead of being skipped or rejected.
    package var keepsUnknownFields = false
    /// The limits frames are written within.
    package var limits: Limits
    /// Whether to compress (zstd at the default policy: bodies of 1 KiB and more).
    package var compresses = false
    /// A zstd dictionary to compress with (bodies of 128 bytes and more); implies compression.
    package var dictionaryPath: String?
    /// The largest frame to write; larger messages go out in fragments. Default: the limits'.
    package var maxFrameSize: Int?
    /// The message id of the first fragmented message (each next one counts up).
    package var firstMessageID: UInt64 = 1

    /// Creates the tool.
    package init(specPath: String, typeName: String, hex: Bool = false, lines: Bool = false, limits: Limits = .default) {
        self.specPath = specPath
        self.typeName = typeName
        self.hex = hex
        self.lines = lines
        self.limits = limits
    }

    /// Encodes `input` (UTF-8 JSON).
    /// - Returns: the frame(s) on standard output; status 1 for invalid JSON or JSON that
    ///   does not fit the message (with its path), 2 for spec problems or an unknown message.
    package func run(input: [UInt8]) -> ToolResult {
        SpecLoading.withSpec(specPath) { spec in run(input: input, spec: spec) }
    }

    private func run(input: [UInt8], spec: SpecSet) -> ToolResult {
        let codec = DynamicCodec(spec: spec, limits: limits, options: .init(keepsUnknownFields: keepsUnknownFields))
        guard let message = codec.message(named: typeName) else {
            let names = spec.messages.map(\.name).joined(separator: ", ")
            return .error(
                "\(specPath) declares no message named \(typeName); its messages are \(names.isEmpty ? "(none)" : names)",
                status: .failure)
        }
        let frameSize = maxFrameSize ?? limits.maxFrameSize
        guard (Self.smallestFrame...Self.largestFrame).contains(frameSize) else {
            return .error(
                "--max-frame \(frameSize) is outside \(Self.smallestFrame)...\(Self.largestFrame) bytes", status: .failure)
        }
        let compressor: PayloadCompressor?
        do throws(ToolFailure) {
            compressor = try self.compressor()
        } catch {
            return error.result
        }
        let profile = PeerProfile.default(
            codec: compressor, limits: Limits(maxFrameSize: frameSize, maxMessageSize: limits.maxMessageSize))
        let pipeline = SendPipeline(codec: compressor)
        let documents: [(line: Int?, bytes: ArraySlice<UInt8>)]
        if lines {
            documents = input.split(separator: 0x0A, omittingEmptySubsequences: false).enumerated()
                .filter { !$0.element.allSatisfy(isJSONWhitespace) }
                .map { (line: $0.offset + 1, bytes: $0.element) }
        } else {
            documents = [(line: nil, bytes: input[...])]
        }
        var result = ToolResult()
        var messageID = firstMessageID
        for document in documents {
            let prefix = document.line.map { "line \($0): " } ?? ""
            do throws(JSONInputError) {
                let value: JSONValue
                do throws(JSONSyntaxError) {
                    value = try JSONParser().parse(Array(document.bytes))
                } catch {
                    throw JSONInputError(error)
                }
                let payload = try codec.encode(value, as: message.name)
                let frames: [[UInt8]]
                do throws(WireError) {
                    frames = try pipeline.frames(typeID: message.typeID, payload: payload, messageID: messageID, profile: profile)
                } catch {
                    throw JSONInputError(
                        .frameTooLarge, path: "$", "\(error.context) (the message's payload is \(payload.count) bytes)")
                }
                if frames.count > 1 { messageID += 1 }
                for frame in frames {
                    if hex {
                        result.output += Array((Hex.string(frame) + "\n").utf8)
                    } else {
                        result.output += frame
                    }
                }
            } catch {
                result.messages += ToolResult.errorLine(prefix + error.description)
                result.status = .invalidInput
            }
        }
        return result
    }

    /// The smallest `--max-frame`: room for a fragment's headers and a few body bytes.
    static let smallestFrame = 64
    /// The largest `--max-frame`: 16 MiB.
    static let largestFrame = 16 << 20

    /// The compressor `--compress` and `--dictionary` ask for, nil for none.
    private func compressor() throws(ToolFailure) -> PayloadCompressor? {
        guard compresses || dictionaryPath != nil else { return nil }
        let dictionaries = try DictionaryLoading.load(dictionaryPath.map { [$0] } ?? [])
        let dictionaryID = dictionaryPath == nil ? nil : dictionaries.ids.first
        do throws(WireError) {
            return try PayloadCompressor(
                policy: CompressionPolicy(dictionaryID: dictionaryID), dictionaries: dictionaries, limits: limits)
        } catch {
            throw ToolFailure("cannot start zstd: \(error.context)")
        }
    }
}

func isJSONWhitespace(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
}
