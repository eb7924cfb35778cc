/// A statement-level piece of a generated function body.
///
/// Bodies are trees, not strings with spaces: the renderer decides indentation.
indirect enum CodeItem: Sendable, Hashable {
    /// One line of code.
    case line(String)
    /// `header {`, the body one level in, then `footer` (`}` by default).
    case block(String, [CodeItem], footer: String)
    /// `header {`, then each `case …:` at the header's level with its body one level in, then `}`.
    case switchBlock(String, [SwitchCase])
    /// `header {`, the first body, `} else {`, the second body, `}`.
    case ifElse(String, [CodeItem], [CodeItem])
    /// An empty line.
    case blank

    /// A block closed with `}`.
    static func block(_ header: String, _ body: [CodeItem]) -> CodeItem {
        .block(header, body, footer: "}")
    }
}

/// One `case …:` (or `default:`) of a switch.
struct SwitchCase: Sendable, Hashable {
    /// The label, e.g. `case 1:` or `default:`.
    var label: String
    /// The statements under it.
    var body: [CodeItem]
}
