import GroupWire
import GroupWireDynamic
import GroupWireSpec

/// `groupwire encode --spec SPEC --type NAME`: JSON on standard input → a data frame.
public struct EncodeTool: Sendable {
    /// The spec file declaring the message.
    public var specPath: String
    /// The message name.
    public var typeName: String
    /// Whether to write lowercase hex (one frame per line) instead of raw bytes.
    public var hex: Bool
    /// Whether the input is JSON Lines: one message per non-empty line, one frame each.
    public var lines: Bool
    /// Whether fields the spec does not declare are kept as `"$unknownFields"` (base64) on
    /// decode and written back on encode, instead of being skipped or rejected.
    public var keepsUnknownFields = false
    /// The limits frames are written within.
    public var limits: Limits

    /// Creates the tool.
    public init(specPath: String, typeName: String, hex: Bool = false, lines: Bool = false, limits: Limits = .default) {
        self.specPath = specPath
        self.typeName = typeName
        self.hex = hex
        self.lines = lines
        self.limits = limits
    }

    /// Encodes `input` (UTF-8 JSON).
    /// - Returns: the frame(s) on standard output; status 1 for invalid JSON or JSON that
    ///   does not fit the message (with its path), 2 for spec problems or an unknown message.
    public func run(input: [UInt8]) -> ToolResult {
        SpecLoading.withSpec(specPath) { spec in run(input: input, spec: spec) }
    }

    private func run(input: [UInt8], spec: SpecSet) -> ToolResult {
        let codec = DynamicCodec(spec: spec, limits: limits, options: .init(keepsUnknownFields: keepsUnknownFields))
        guard codec.message(named: typeName) != nil else {
            let names = spec.messages.map(\.name).joined(separator: ", ")
            return .error("\(specPath) declares no message named \(typeName); its messages are \(names.isEmpty ? "(none)" : names)",
                          status: .failure)
        }
        let documents: [(line: Int?, bytes: ArraySlice<UInt8>)]
        if lines {
            documents = input.split(separator: 0x0A, omittingEmptySubsequences: false).enumerated()
                .filter { !$0.element.allSatisfy(isJSONWhitespace) }
                .map { (line: $0.offset + 1, bytes: $0.element) }
        } else {
            documents = [(line: nil, bytes: input[...])]
        }
        var result = ToolResult()
        for document in documents {
            let prefix = document.line.map { "line \($0): " } ?? ""
            do throws(JSONInputError) {
                let value = try JSONParser().parse(Array(document.bytes))
                let frame = try codec.encodeFrame(value, message: typeName)
                if hex {
                    result.output += Array((PayloadDump.hexString(frame) + "\n").utf8)
                } else {
                    result.output += frame
                }
            } catch {
                result.messages += ToolResult.errorLine(prefix + error.description)
                result.status = .invalidInput
            }
        }
        return result
    }
}

func isJSONWhitespace(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
}
