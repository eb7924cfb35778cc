import GroupWireCodegen
import Testing

@Suite("CodePrinter")
struct CodePrinterTests {
    @Test("Lines are indented by the current level and blocks indent their body")
    func indentation() {
        var printer = CodePrinter()
        printer.line("struct A {")
        printer.indent()
        printer.block("func f() {") { printer in
            printer.line("return")
        }
        printer.outdent()
        printer.line("}")
        #expect(printer.content == "struct A {\n    func f() {\n        return\n    }\n}\n")
    }

    @Test("Empty lines carry no indentation")
    func emptyLinesHaveNoTrailingSpaces() {
        var printer = CodePrinter()
        printer.indent()
        printer.line("a")
        printer.line()
        printer.line("b")
        #expect(printer.content == "    a\n\n    b\n")
    }

    @Test("Outdenting at level zero stays at level zero")
    func outdentBelowZero() {
        var printer = CodePrinter()
        printer.outdent()
        printer.line("x")
        #expect(printer.level == 0)
        #expect(printer.content == "x\n")
    }

    @Test("Multi-line text is printed line by line at the current level, with a custom unit")
    func multiLineText() {
        var printer = CodePrinter(indentUnit: "\t")
        printer.indent()
        printer.lines("a\nb")
        printer.block("if x {", footer: "} else {") { $0.line("y") }
        #expect(printer.content == "\ta\n\tb\n\tif x {\n\t\ty\n\t} else {\n")
    }
}
