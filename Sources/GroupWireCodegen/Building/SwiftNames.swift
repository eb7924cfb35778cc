import GroupWireJSON
import GroupWireSpec

/// Spelling of identifiers and literals in generated Swift.
enum SwiftNames {
    /// Words that must be written in backticks to be used as identifiers.
    static let keywords: Set<String> = [
        "associatedtype", "class", "deinit", "enum", "extension", "fileprivate", "func", "import",
        "init", "inout", "internal", "let", "open", "operator", "private", "precedencegroup",
        "protocol", "public", "rethrows", "static", "struct", "subscript", "typealias", "var",
        "break", "case", "catch", "continue", "default", "defer", "do", "else", "fallthrough",
        "for", "guard", "if", "in", "repeat", "return", "throw", "switch", "where", "while",
        "Any", "as", "false", "is", "nil", "self", "Self", "super", "throws", "true", "try",
        "package", "some", "any", "await", "consume", "borrowing", "consuming", "copy", "discard",
        "each", "macro", "Type", "Protocol",
    ]

    /// `name`, in backticks when it is a keyword.
    static func identifier(_ name: String) -> String {
        keywords.contains(name) ? "`\(name)`" : name
    }

    /// A Swift string literal holding `text`, with quotes, backslashes and control
    /// characters escaped.
    static func stringLiteral(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    result += "\\u{" + Hex.digits(scalar.value) + "}"
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result + "\""
    }

    /// A floating-point literal that reads back as exactly `value` (finite values only;
    /// spec defaults are finite).
    static func floatLiteral(_ value: Double) -> String {
        guard value.isFinite else { return "0" }
        let text = "\(value)"
        return text
    }

    /// `@available(*, deprecated…)` for a spec deprecation, if any.
    static func deprecationAttribute(_ deprecation: Deprecation?) -> [String] {
        guard let deprecation else { return [] }
        guard let message = deprecation.message else { return ["@available(*, deprecated)"] }
        return ["@available(*, deprecated, message: \(stringLiteral(message)))"]
    }

    /// Doc comment lines for a spec `///` comment, plus a deprecation note.
    static func documentation(_ text: String?) -> [String] {
        guard let text, !text.isEmpty else { return [] }
        return text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            line.hasPrefix(" ") ? String(line.dropFirst()) : String(line)
        }
    }

    /// How many bytes `uvarint(value)` takes.
    static func varintLength(_ value: UInt64) -> Int {
        var length = 1
        var rest = value >> 7
        while rest != 0 {
            length += 1
            rest >>= 7
        }
        return length
    }
}
