/// Writes a ``JSONValue`` as JSON text with object keys sorted by their UTF-8 bytes, so equal
/// values always produce the same text.
///
/// Strings are escaped per RFC 8259: `"` and `\`, the short escapes `\n`, `\r`, `\t`,
/// `\b`, `\f`, and `\u00XX` for the other control characters and DEL (0x7F), so the
/// text is safe to print on a terminal.
public struct JSONWriter: Sendable {
    /// Whether to write one member or element per line, indented by two spaces.
    public var prettyPrinted: Bool

    /// Creates a writer.
    /// - Parameter prettyPrinted: one member or element per line (default: compact, one line).
    public init(prettyPrinted: Bool = false) {
        self.prettyPrinted = prettyPrinted
    }

    /// The value as JSON text (no trailing newline).
    public func string(_ value: JSONValue) -> String {
        var output: [UInt8] = []
        write(value, indent: 0, into: &output)
        return String(decoding: output, as: UTF8.self)
    }

    /// The value as UTF-8 JSON bytes (no trailing newline).
    public func bytes(_ value: JSONValue) -> [UInt8] {
        var output: [UInt8] = []
        write(value, indent: 0, into: &output)
        return output
    }

    /// Appends `value` to `output` as it would stand `indent` levels deep in a larger
    /// document: for writers that make a document in pieces (the dynamic codec's
    /// `writeJSON`), so that the pieces read exactly as ``bytes(_:)`` of the whole would.
    public func append(_ value: JSONValue, indent: Int, to output: inout [UInt8]) {
        write(value, indent: indent, into: &output)
    }

    /// Appends what comes before an element or member at `indent` levels: a newline and
    /// the indentation when pretty-printed, nothing otherwise.
    public func appendNewline(indent: Int, to output: inout [UInt8]) {
        newline(indent, into: &output)
    }

    /// Appends an object member's key, escaped, and its colon (and a space when pretty-printed).
    public func appendKey(_ key: String, to output: inout [UInt8]) {
        writeString(key, into: &output)
        output.append(UInt8(ascii: ":"))
        if prettyPrinted { output.append(UInt8(ascii: " ")) }
    }

    private func write(_ value: JSONValue, indent: Int, into output: inout [UInt8]) {
        switch value {
        case .null: output.append(contentsOf: "null".utf8)
        case .bool(let flag): output.append(contentsOf: (flag ? "true" : "false").utf8)
        case .number(let number): output.append(contentsOf: number.text.utf8)
        case .string(let text): writeString(text, into: &output)
        case .array(let elements):
            guard !elements.isEmpty else {
                output.append(contentsOf: "[]".utf8)
                return
            }
            output.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                newline(indent + 1, into: &output)
                write(element, indent: indent + 1, into: &output)
            }
            newline(indent, into: &output)
            output.append(UInt8(ascii: "]"))
        case .object(let members):
            guard !members.isEmpty else {
                output.append(contentsOf: "{}".utf8)
                return
            }
            output.append(UInt8(ascii: "{"))
            for (index, key) in members.keys.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }).enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                newline(indent + 1, into: &output)
                writeString(key, into: &output)
                output.append(UInt8(ascii: ":"))
                if prettyPrinted { output.append(UInt8(ascii: " ")) }
                write(members[key] ?? .null, indent: indent + 1, into: &output)
            }
            newline(indent, into: &output)
            output.append(UInt8(ascii: "}"))
        }
    }

    private func newline(_ indent: Int, into output: inout [UInt8]) {
        guard prettyPrinted else { return }
        output.append(UInt8(ascii: "\n"))
        output.append(contentsOf: repeatElement(UInt8(ascii: " "), count: indent * 2))
    }

    private func writeString(_ text: String, into output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): output.append(contentsOf: "\\\"".utf8)
            case UInt8(ascii: "\\"): output.append(contentsOf: "\\\\".utf8)
            case 0x0A: output.append(contentsOf: "\\n".utf8)
            case 0x0D: output.append(contentsOf: "\\r".utf8)
            case 0x09: output.append(contentsOf: "\\t".utf8)
            case 0x08: output.append(contentsOf: "\\b".utf8)
            case 0x0C: output.append(contentsOf: "\\f".utf8)
            case 0..<0x20, 0x7F:
                output.append(contentsOf: ("\\u00" + Hex.digits(byte, width: 2)).utf8)
            default: output.append(byte)
            }
        }
        output.append(UInt8(ascii: "\""))
    }
}
