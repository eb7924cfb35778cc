/// Lets generated enums and unions with deprecated cases build without warnings.
///
/// Swift warns wherever a deprecated case is named, except inside declarations that are
/// deprecated themselves, and users should see those warnings in their own code. Generated
/// code must name every case (to switch over a value and to construct one), so a type with
/// a deprecated case gets a mirror: `_Cases`, the same cases without deprecation; two
/// conversions, written inside deprecated functions; and a protocol whose requirements the
/// deprecated functions satisfy. Calls through a requirement are not diagnosed, so the
/// generated members switch over `Self._spelling.cases(of: self)` and construct values with
/// `Self._spelling.value(of: .name(...))` without a warning, and types without deprecated
/// cases keep their direct code.
struct DeprecatedCaseMirror {
    /// The type's name.
    private let typeName: String
    /// Every case of the type, the catch-all included.
    private let cases: [SwiftEnumCase]

    /// `type` unchanged when none of its cases is deprecated; otherwise with its switches
    /// and constructions routed through the mirror, and the mirror appended to its members.
    static func applied(to type: SwiftType) -> SwiftType {
        let cases = type.members.compactMap { member -> SwiftEnumCase? in
            if case .enumCase(let enumCase) = member { enumCase } else { nil }
        }
        guard cases.contains(where: { $0.attributes.contains { $0.hasPrefix("@available(*, deprecated") } }) else {
            return type
        }
        let mirror = DeprecatedCaseMirror(typeName: type.name, cases: cases)
        var type = type
        type.members = type.members.map(mirror.rewrite) + mirror.mirrorMembers()
        return type
    }

    private func rewrite(_ member: SwiftMember) -> SwiftMember {
        switch member {
        case .function(var function):
            function.body = function.body.map(rewrite)
            return .function(function)
        case .property(var property):
            property.getter = property.getter?.map(rewrite)
            property.setter = property.setter?.map(rewrite)
            if let value = property.initialValue, value.hasPrefix(".") {
                property.initialValue = construction(value)
            }
            return .property(property)
        case .enumCase, .nestedType:
            return member
        }
    }

    private func rewrite(_ item: CodeItem) -> CodeItem {
        switch item {
        case .line(let text):
            for target in ["self = ", "result = "] where text.hasPrefix(target + ".") {
                return .line(target + construction(String(text.dropFirst(target.count))))
            }
            return item
        case .block(let header, let body, let footer):
            return .block(header, body.map(rewrite), footer: footer)
        case .ifElse(let header, let then, let otherwise):
            return .ifElse(header, then.map(rewrite), otherwise.map(rewrite))
        case .switchBlock(let header, let cases):
            let subject = header == "switch self {" ? "switch Self._spelling.cases(of: self) {" : header
            return .switchBlock(subject, cases.map { SwitchCase(label: $0.label, body: $0.body.map(rewrite)) })
        case .blank:
            return item
        }
    }

    private func construction(_ expression: String) -> String {
        "Self._spelling.value(of: \(expression))"
    }

    private func mirrorMembers() -> [SwiftMember] {
        let mirror = SwiftType(
            kind: .enum, name: "_Cases",
            documentation: ["The cases of `\(typeName)` without deprecation, for generated code (see `_spelling`)."],
            attributes: [], access: "", conformances: ["Sendable"],
            members: cases.map {
                .enumCase(SwiftEnumCase(documentation: [], attributes: [], name: $0.name, associatedType: $0.associatedType))
            })
        let requirements = SwiftType(
            kind: .protocol, name: "_CaseSpelling",
            documentation: [
                "Converts between `\(typeName)` and `_Cases`; generated code calls the deprecated witnesses through it."
            ],
            attributes: [], access: "", conformances: [],
            members: [
                .function(
                    SwiftFunction(
                        documentation: [], attributes: [], head: "static func cases",
                        parameters: ["of value: \(typeName)"], tail: " -> _Cases", body: [])),
                .function(
                    SwiftFunction(
                        documentation: [], attributes: [], head: "static func value",
                        parameters: ["of cases: _Cases"], tail: " -> \(typeName)", body: [])),
            ])
        let toMirror = cases.map { mirrorCase -> SwitchCase in
            guard mirrorCase.associatedType != nil else {
                return SwitchCase(label: "case .\(mirrorCase.name):", body: [.line(".\(mirrorCase.name)")])
            }
            return SwitchCase(label: "case .\(mirrorCase.name)(let payload):", body: [.line(".\(mirrorCase.name)(payload)")])
        }
        let witnesses = SwiftType(
            kind: .enum, name: "_DeprecatedCaseSpelling",
            documentation: ["The conversions, deprecated so that they may name the deprecated cases without a warning."],
            attributes: [], access: "", conformances: ["_CaseSpelling"],
            members: [
                .function(
                    SwiftFunction(
                        documentation: [], attributes: ["@available(*, deprecated)"], head: "static func cases",
                        parameters: ["of value: \(typeName)"], tail: " -> _Cases",
                        body: [.switchBlock("switch value {", toMirror)])),
                .function(
                    SwiftFunction(
                        documentation: [], attributes: ["@available(*, deprecated)"], head: "static func value",
                        parameters: ["of cases: _Cases"], tail: " -> \(typeName)",
                        body: [.switchBlock("switch cases {", toMirror)])),
            ])
        return [
            .nestedType(mirror),
            .nestedType(requirements),
            .nestedType(witnesses),
            .property(
                SwiftProperty(
                    documentation: ["Where generated code finds the case conversions."], attributes: [], modifiers: "static ",
                    keyword: "var", name: "_spelling", type: "any _CaseSpelling.Type", initialValue: nil,
                    getter: [.line("_DeprecatedCaseSpelling.self")])),
        ]
    }
}
