/// A JSON document built in memory and rendered with sorted keys, for machine-readable
/// tool output (payload dumps, inspection reports).
///
/// Rendering is deterministic: object keys are sorted by their UTF-8 bytes, strings are
/// escaped per RFC 8259, and non-finite doubles (which JSON cannot carry) become the
/// strings `"nan"`, `"inf"` and `"-inf"`.
package indirect enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    /// An unsigned integer, written with all its digits (readers that parse numbers as
    /// doubles lose precision above 2^53; the digits themselves are exact).
    case uint(UInt64)
    case int(Int64)
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// The document as text.
    /// - Parameter pretty: two-space indentation and one member per line when true.
    package func rendered(pretty: Bool = true) -> String {
        var out = ""
        write(to: &out, pretty: pretty, indent: 0)
        return out
    }

    private func write(to out: inout String, pretty: Bool, indent: Int) {
        switch self {
        case .null: out += "null"
        case .bool(let value): out += value ? "true" : "false"
        case .uint(let value): out += String(value)
        case .int(let value): out += String(value)
        case .double(let value): out += Self.number(value)
        case .string(let value): Self.writeString(value, to: &out)
        case .array(let items):
            guard !items.isEmpty else {
                out += "[]"
                return
            }
            out += "["
            for (index, item) in items.enumerated() {
                if index > 0 { out += "," }
                if pretty { Self.newline(&out, indent + 1) }
                item.write(to: &out, pretty: pretty, indent: indent + 1)
            }
            if pretty { Self.newline(&out, indent) }
            out += "]"
        case .object(let members):
            guard !members.isEmpty else {
                out += "{}"
                return
            }
            out += "{"
            let keys = members.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
            for (index, key) in keys.enumerated() {
                if index > 0 { out += "," }
                if pretty { Self.newline(&out, indent + 1) }
                Self.writeString(key, to: &out)
                out += pretty ? ": " : ":"
                // The key comes from `members.keys`, so the lookup always succeeds.
                (members[key] ?? .null).write(to: &out, pretty: pretty, indent: indent + 1)
            }
            if pretty { Self.newline(&out, indent) }
            out += "}"
        }
    }

    private static func newline(_ out: inout String, _ indent: Int) {
        out += "\n"
        out += String(repeating: "  ", count: indent)
    }

    private static func number(_ value: Double) -> String {
        if value.isNaN { return "\"nan\"" }
        if value.isInfinite { return value < 0 ? "\"-inf\"" : "\"inf\"" }
        // Swift's description is the shortest text that reads back to the same double;
        // it is valid JSON except for the exponent form "1e-05", which JSON also accepts.
        return value.description
    }

    private static func writeString(_ value: String, to out: inout String) {
        out += "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    let digits = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - digits.count) + digits
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        out += "\""
    }
}
