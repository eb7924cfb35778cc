/// Renders the Swift model to text with a ``CodePrinter``. Knows layout only, no semantics.
struct SwiftRenderer {
    /// Longer signatures are printed one parameter a line.
    static let maxLineLength = 120

    /// The text of `file`.
    func render(_ file: SwiftFile) -> String {
        var printer = CodePrinter()
        for line in file.header {
            printer.line(line.isEmpty ? "//" : "// " + line)
        }
        printer.line()
        for item in file.imports {
            render(item, into: &printer)
        }
        for type in file.types {
            printer.line()
            render(type, into: &printer)
        }
        return printer.content
    }

    private func render(_ type: SwiftType, into printer: inout CodePrinter) {
        documentation(type.documentation, into: &printer)
        for attribute in type.attributes {
            printer.line(attribute)
        }
        let conformances = type.conformances.isEmpty ? "" : ": " + type.conformances.joined(separator: ", ")
        printer.block("\(type.access)\(type.kind.rawValue) \(type.name)\(conformances) {") { printer in
            var previous: SwiftMember?
            for member in type.members {
                if let previous, needsBlankLine(between: previous, and: member) {
                    printer.line()
                }
                render(member, requirementsOnly: type.kind == .protocol, into: &printer)
                previous = member
            }
        }
    }

    /// Cases and stored properties without documentation sit together; everything else is
    /// separated by an empty line.
    private func needsBlankLine(between previous: SwiftMember, and next: SwiftMember) -> Bool {
        switch (previous, next) {
        case (.enumCase, .enumCase(let next)):
            return !next.documentation.isEmpty
        case (.property(let previous), .property(let next)):
            return previous.getter != nil || next.getter != nil || !next.documentation.isEmpty
                || previous.modifiers.hasSuffix("static ") != next.modifiers.hasSuffix("static ")
        default:
            return true
        }
    }

    private func render(_ member: SwiftMember, requirementsOnly: Bool, into printer: inout CodePrinter) {
        switch member {
        case .property(let property):
            documentation(property.documentation, into: &printer)
            for attribute in property.attributes {
                printer.line(attribute)
            }
            let declaration = "\(property.modifiers)\(property.keyword) \(property.name): \(property.type)"
            if let getter = property.getter {
                if let setter = property.setter {
                    printer.block(declaration + " {") { printer in
                        printer.block("get {") { printer in render(getter, into: &printer) }
                        printer.block("set {") { printer in render(setter, into: &printer) }
                    }
                } else {
                    printer.block(declaration + " {") { printer in render(getter, into: &printer) }
                }
            } else if let initialValue = property.initialValue {
                printer.line(declaration + " = " + initialValue)
            } else {
                printer.line(declaration)
            }
        case .enumCase(let enumCase):
            documentation(enumCase.documentation, into: &printer)
            for attribute in enumCase.attributes {
                printer.line(attribute)
            }
            printer.line("case \(enumCase.name)\(enumCase.associatedType ?? "")")
        case .function(let function):
            documentation(function.documentation, into: &printer)
            for attribute in function.attributes {
                printer.line(attribute)
            }
            let signature = "\(function.head)(\(function.parameters.joined(separator: ", ")))\(function.tail)"
            if requirementsOnly {
                printer.line(signature)
                return
            }
            let oneLine = signature + " {"
            if oneLine.count + printer.level * printer.indentUnit.count <= Self.maxLineLength {
                printer.line(oneLine)
            } else {
                printer.line(function.head + "(")
                printer.indent()
                for (index, parameter) in function.parameters.enumerated() {
                    printer.line(parameter + (index == function.parameters.count - 1 ? "" : ","))
                }
                printer.outdent()
                printer.line(")\(function.tail) {")
            }
            printer.indent()
            render(function.body, into: &printer)
            printer.outdent()
            printer.line("}")
        case .nestedType(let type):
            render(type, into: &printer)
        }
    }

    private func render(_ items: [CodeItem], into printer: inout CodePrinter) {
        for item in items {
            render(item, into: &printer)
        }
    }

    private func render(_ item: CodeItem, into printer: inout CodePrinter) {
        switch item {
        case .line(let text):
            printer.line(text)
        case .blank:
            printer.line()
        case .block(let header, let body, let footer):
            printer.block(header, footer: footer) { printer in render(body, into: &printer) }
        case .ifElse(let header, let then, let otherwise):
            printer.line(header)
            printer.indent()
            render(then, into: &printer)
            printer.outdent()
            printer.block("} else {") { printer in render(otherwise, into: &printer) }
        case .switchBlock(let header, let cases):
            printer.line(header)
            for switchCase in cases {
                printer.line(switchCase.label)
                printer.indent()
                render(switchCase.body, into: &printer)
                printer.outdent()
            }
            printer.line("}")
        }
    }

    private func documentation(_ lines: [String], into printer: inout CodePrinter) {
        for line in lines {
            printer.line(line.isEmpty ? "///" : "/// " + line)
        }
    }
}
