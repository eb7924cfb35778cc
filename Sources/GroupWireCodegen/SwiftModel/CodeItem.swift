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

    /// Whether any line of this item contains `text` (used to leave out unused bindings).
    func mentions(_ text: String) -> Bool {
        switch self {
        case .line(let line): line.contains(text)
        case .block(let header, let body, _): header.contains(text) || body.contains { $0.mentions(text) }
        case .ifElse(let header, let then, let otherwise):
            header.contains(text) || then.contains { $0.mentions(text) } || otherwise.contains { $0.mentions(text) }
        case .switchBlock(let header, let cases):
            header.contains(text) || cases.contains { $0.body.contains { $0.mentions(text) } }
        case .blank: false
        }
    }

    /// A block closed with `}`.
    static func block(_ header: String, _ body: [CodeItem]) -> CodeItem {
        .block(header, body, footer: "}")
    }

    /// `switch subject {` with one case of one line per element (`arm` gives its label
    /// and line), then the cases of `rest` (a `default:`, an unknown case).
    static func switchOver<Element>(
        _ subject: String, _ elements: [Element], then rest: [SwitchCase] = [],
        _ arm: (Element) -> (label: String, line: String)
    ) -> CodeItem {
        .switchBlock(
            "switch \(subject) {",
            elements.map { element in
                let (label, line) = arm(element)
                return SwitchCase(label: label, body: [.line(line)])
            } + rest)
    }
}

extension SwitchCase {
    /// A case of one line.
    static func single(_ label: String, _ line: String) -> SwitchCase {
        SwitchCase(label: label, body: [.line(line)])
    }
}

/// One `case …:` (or `default:`) of a switch.
struct SwitchCase: Sendable, Hashable {
    /// The label, e.g. `case 1:` or `default:`.
    var label: String
    /// The statements under it.
    var body: [CodeItem]
}
