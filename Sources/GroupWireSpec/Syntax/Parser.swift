/// Parses the tokens of one spec file into a ``SpecFile``, collecting every syntax error.
///
/// Recovery: a bad top-level item skips to the next line that starts with a declaration
/// keyword; a bad member skips to the next line (or the closing brace). Each loop either
/// consumes a token or stops, so parsing always terminates.
struct Parser {
    private var tokens: [Token]
    private var position = 0
    private let file: String
    private let limits: SpecLimits
    private(set) var diagnostics: [Diagnostic] = []

    static let declarationKeywords: Set<String> = ["message", "struct", "enum", "union"]
    static let topLevelKeywords: Set<String> = ["package", "import", "message", "struct", "enum", "union"]

    init(source: String, file: String, limits: SpecLimits) {
        var lexer = Lexer(source: source, file: file, maxDiagnostics: limits.maxDiagnosticsPerFile)
        self.tokens = lexer.tokenize()
        self.diagnostics = lexer.diagnostics
        self.file = file
        self.limits = limits
    }

    // MARK: Token access

    private var current: Token {
        // Safe because tokens always ends with `.end` (never empty) and position never passes it.
        position < tokens.count ? tokens[position] : tokens[tokens.count - 1]
    }

    private func peek(_ offset: Int) -> Token {
        let index = position + offset
        // Safe because tokens is never empty: the lexer always appends `.end`.
        return index < tokens.count ? tokens[index] : tokens[tokens.count - 1]
    }

    private mutating func advance() {
        if position < tokens.count - 1 { position += 1 }
    }

    private var atEnd: Bool { current.kind == .end }

    private mutating func error(_ message: String, at location: SourceLocation, hint: String? = nil) {
        diagnostics.append(.error(message, at: location, hint: hint))
    }

    private var tooManyErrors: Bool { diagnostics.count >= limits.maxDiagnosticsPerFile }

    /// Consumes the punctuation `symbol` or reports what was expected.
    private mutating func expect(_ symbol: String, _ what: String, hint: String? = nil) -> Bool {
        if current.isPunctuation(symbol) {
            advance()
            return true
        }
        error("expected \(what), found \(current.quoted)", at: current.location, hint: hint)
        return false
    }

    private mutating func expectIdentifier(_ what: String, hint: String? = nil) -> String? {
        guard current.kind == .identifier else {
            error("expected \(what), found \(current.quoted)", at: current.location, hint: hint)
            return nil
        }
        let text = current.text
        advance()
        return text
    }

    // MARK: File

    mutating func parseFile() -> SpecFile {
        var package: PackageDecl?
        var imports: [ImportDecl] = []
        var declarations: [TypeDecl] = []
        var sawDeclaration = false
        let firstLocation = current.location

        while !atEnd && !tooManyErrors {
            let token = current
            if token.isWord("package") {
                if let parsed = parsePackage() {
                    if let package {
                        diagnostics.append(
                            .error(
                                "duplicate package line", at: parsed.location,
                                hint: "a spec file has exactly one package line",
                                notes: [.init("first package line is here", at: package.location)]))
                    } else {
                        if sawDeclaration || !imports.isEmpty {
                            error(
                                "the package line must come first", at: parsed.location,
                                hint: "move 'package \(parsed.name) version \(parsed.version)' to the top of the file")
                        }
                        package = parsed
                    }
                }
            } else if token.isWord("import") {
                if sawDeclaration {
                    error(
                        "imports must come before declarations", at: token.location,
                        hint: "move this import above the first message, struct, enum or union")
                }
                if let parsed = parseImport() { imports.append(parsed) }
            } else if Parser.declarationKeywords.contains(token.text) && token.kind == .identifier || token.isPunctuation("@") {
                sawDeclaration = true
                if let decl = parseDeclaration() { declarations.append(decl) }
            } else {
                var hint: String?
                if token.kind == .identifier, let suggestion = Suggest.closest(to: token.text, in: Parser.topLevelKeywords) {
                    hint = "did you mean '\(suggestion)'?"
                }
                error(
                    "expected a declaration ('message', 'struct', 'enum' or 'union'), found \(token.quoted)",
                    at: token.location, hint: hint)
                advance()
                skipToTopLevel()
            }
        }
        if package == nil && !tooManyErrors {
            error("missing package line", at: firstLocation, hint: "start the file with 'package name version 1'")
        }
        return SpecFile(path: file, package: package, imports: imports, declarations: declarations)
    }

    /// Skips to the next token that starts a line with a top-level keyword or `@`.
    /// Braces are skipped as balanced groups so a broken body is not read as declarations.
    private mutating func skipToTopLevel() {
        var depth = 0
        while !atEnd {
            let token = current
            if depth == 0 && token.startsLine
                && ((token.kind == .identifier && Parser.topLevelKeywords.contains(token.text)) || token.isPunctuation("@"))
            {
                return
            }
            if token.isPunctuation("{") { depth += 1 }
            if token.isPunctuation("}") { depth = max(0, depth - 1) }
            advance()
        }
    }

    /// Skips to the first token of the next line or to a `}` on this line (not consumed).
    private mutating func skipToNextMember() {
        advance()
        while !atEnd && !current.startsLine && !current.isPunctuation("}") { advance() }
    }

    private mutating func parsePackage() -> PackageDecl? {
        let start = current
        advance()
        guard var name = expectIdentifier("a package name after 'package'", hint: "write 'package name version 1'") else {
            skipToTopLevel()
            return nil
        }
        while current.isPunctuation(".") {
            advance()
            guard let part = expectIdentifier("a name after '.' in the package name") else {
                skipToTopLevel()
                return nil
            }
            name += "." + part
        }
        guard current.isWord("version") else {
            error(
                "expected 'version' after the package name, found \(current.quoted)", at: current.location,
                hint: "write 'package \(name) version 1'")
            skipToTopLevel()
            return nil
        }
        advance()
        guard current.kind == .integer else {
            error(
                "expected a version number, found \(current.quoted)", at: current.location,
                hint: "versions are positive integers: 'version 1'")
            skipToTopLevel()
            return nil
        }
        let versionToken = current
        advance()
        let version = versionToken.integer ?? 0
        if version == 0 {
            // Keep the package line so no "missing package line" error follows.
            error("version '\(versionToken.text)' is out of range; versions are 1...\(UInt64.max)", at: versionToken.location)
        }
        skipSeparator()
        return PackageDecl(name: name, version: version, documentation: start.documentation, location: start.location)
    }

    private mutating func parseImport() -> ImportDecl? {
        let start = current
        advance()
        guard current.kind == .string else {
            error(
                "expected a quoted file path after 'import', found \(current.quoted)", at: current.location,
                hint: "write 'import \"other.gwspec\"'")
            skipToTopLevel()
            return nil
        }
        let pathToken = current
        advance()
        skipSeparator()
        if pathToken.text.isEmpty {
            error("import path is empty", at: pathToken.location)
            return nil
        }
        return ImportDecl(path: pathToken.text, location: start.location, pathLocation: pathToken.location)
    }

    private mutating func skipSeparator() {
        while current.isPunctuation(";") { advance() }
    }

    // MARK: Attributes

    /// Parses `@deprecated` / `@deprecated("why")` attributes (any number; the last wins).
    private mutating func parseAttributes() -> Deprecation? {
        var deprecation: Deprecation?
        while current.isPunctuation("@") && peek(1).kind == .identifier {
            let at = current
            advance()
            let name = current
            advance()
            guard name.text == "deprecated" else {
                error("unknown attribute '@\(name.text)'", at: at.location, hint: "the only attribute is '@deprecated'")
                if current.isPunctuation("(") { skipParenthesized() }
                continue
            }
            var message: String?
            if current.isPunctuation("(") {
                advance()
                if current.kind == .string {
                    message = current.text
                    advance()
                } else {
                    error("expected a quoted message in '@deprecated(...)', found \(current.quoted)", at: current.location)
                }
                if !expect(")", "')' to close '@deprecated('") { skipParenthesized() }
            }
            deprecation = Deprecation(message: message, location: at.location)
        }
        return deprecation
    }

    private mutating func skipParenthesized() {
        while !atEnd && !current.isPunctuation(")") && !current.isPunctuation("{") && !current.isPunctuation("}") { advance() }
        if current.isPunctuation(")") { advance() }
    }

    // MARK: Declarations

    private mutating func parseDeclaration() -> TypeDecl? {
        let documentation = current.documentation
        let deprecation = parseAttributes()
        let keywordToken = current
        guard keywordToken.kind == .identifier, Parser.declarationKeywords.contains(keywordToken.text) else {
            error(
                "expected 'message', 'struct', 'enum' or 'union' after the attribute, found \(keywordToken.quoted)",
                at: keywordToken.location)
            skipToTopLevel()
            return nil
        }
        advance()
        var headerOK = true
        let nameToken = current
        var name = ""
        if nameToken.kind == .identifier {
            name = nameToken.text
            advance()
        } else {
            error("expected a name after '\(keywordToken.text)', found \(nameToken.quoted)", at: nameToken.location)
            headerOK = false
        }
        var typeID: UInt64 = 0
        var typeIDLocation = nameToken.location
        if keywordToken.text == "message" && headerOK {
            if current.isPunctuation("@") {
                advance()
                typeIDLocation = current.location
                if current.kind == .integer {
                    if let value = current.integer {
                        typeID = value
                    } else {
                        error("type id '\(current.text)' is out of range; type ids are 1...4294967295", at: current.location)
                    }
                    advance()
                } else {
                    error(
                        "expected a type id after '@', found \(current.quoted)", at: current.location,
                        hint: "write 'message \(name) @ 1'")
                    headerOK = false
                }
            } else {
                error(
                    "message '\(name)' has no type id", at: current.location,
                    hint: "write 'message \(name) @ N' with a number no other message uses")
                headerOK = false
            }
        } else if current.isPunctuation("@") && headerOK {
            error(
                "only messages have type ids; '\(keywordToken.text) \(name)' cannot have '@'", at: current.location,
                hint: "remove the type id, or declare 'message \(name)'")
            advance()
            if current.kind == .integer { advance() }
        }
        if !current.isPunctuation("{") {
            if headerOK {
                error("expected '{' after '\(keywordToken.text) \(name)', found \(current.quoted)", at: current.location)
            }
            // Find the body on this line if there is one; otherwise skip the declaration.
            while !atEnd && !current.isPunctuation("{") && !(current.startsLine && Parser.topLevelKeywords.contains(current.text))
            {
                advance()
            }
            guard current.isPunctuation("{") else { return nil }
        }
        advance()
        let location = keywordToken.location
        switch keywordToken.text {
        case "message":
            let (fields, reserved) = parseFieldBody()
            guard headerOK else { return nil }
            return .message(
                MessageDecl(
                    name: name, typeID: typeID, fields: fields, reserved: reserved,
                    documentation: documentation, deprecation: deprecation, location: location, typeIDLocation: typeIDLocation))
        case "struct":
            let (fields, reserved) = parseFieldBody()
            guard headerOK else { return nil }
            return .struct(
                StructDecl(
                    name: name, fields: fields, reserved: reserved,
                    documentation: documentation, deprecation: deprecation, location: location))
        case "enum":
            let (cases, reserved) = parseEnumBody()
            guard headerOK else { return nil }
            return .enum(
                EnumDecl(
                    name: name, cases: cases, reserved: reserved,
                    documentation: documentation, deprecation: deprecation, location: location))
        default:
            let (cases, reserved) = parseUnionBody()
            guard headerOK else { return nil }
            return .union(
                UnionDecl(
                    name: name, cases: cases, reserved: reserved,
                    documentation: documentation, deprecation: deprecation, location: location))
        }
    }

    /// Runs `member` for each member until `}`; handles `reserved`, separators, end of file.
    private mutating func parseBody(_ what: String, reserved: inout [ReservedDecl], member: (inout Parser) -> Bool) {
        while !tooManyErrors {
            skipSeparator()
            if current.isPunctuation("}") {
                advance()
                return
            }
            if atEnd {
                error("expected '}' to close the \(what), found end of file", at: current.location)
                return
            }
            if current.startsLine && current.kind == .identifier && Parser.topLevelKeywords.contains(current.text)
                && peek(1).kind == .identifier
            {
                error(
                    "expected '}' to close the \(what) before '\(current.text)'", at: current.location,
                    hint: "add '}' on the line above")
                return
            }
            if current.isWord("reserved") {
                if let decl = parseReserved() { reserved.append(decl) } else { skipToNextMember() }
                continue
            }
            let before = position
            if !member(&self) {
                if position == before || !(current.startsLine || current.isPunctuation("}")) { skipToNextMember() }
            }
        }
    }

    private mutating func parseFieldBody() -> ([FieldDecl], [ReservedDecl]) {
        var fields: [FieldDecl] = []
        var reserved: [ReservedDecl] = []
        parseBody("field list", reserved: &reserved) { parser in
            guard let field = parser.parseField() else { return false }
            fields.append(field)
            return true
        }
        return (fields, reserved)
    }

    private mutating func parseEnumBody() -> ([EnumCaseDecl], [ReservedDecl]) {
        var cases: [EnumCaseDecl] = []
        var reserved: [ReservedDecl] = []
        parseBody("enum", reserved: &reserved) { parser in
            let documentation = parser.current.documentation
            let deprecation = parser.parseAttributes()
            guard let (number, location) = parser.parseMemberNumber(example: "0 name") else { return false }
            guard let name = parser.expectIdentifier("a case name after the number") else { return false }
            cases.append(
                EnumCaseDecl(
                    number: number, name: name, documentation: documentation,
                    deprecation: deprecation, location: location))
            if parser.current.isPunctuation(":") {
                // Keep the case (so later checks do not cascade) and skip the payload.
                parser.error(
                    "enum cases have no payload", at: parser.current.location,
                    hint: "use a union for cases with payloads")
                return false
            }
            return parser.expectMemberEnd()
        }
        return (cases, reserved)
    }

    private mutating func parseUnionBody() -> ([UnionCaseDecl], [ReservedDecl]) {
        var cases: [UnionCaseDecl] = []
        var reserved: [ReservedDecl] = []
        parseBody("union", reserved: &reserved) { parser in
            let documentation = parser.current.documentation
            let deprecation = parser.parseAttributes()
            guard let (number, location) = parser.parseMemberNumber(example: "1 name: Type") else { return false }
            guard let name = parser.expectIdentifier("a case name after the number") else { return false }
            var payload: TypeRef?
            var payloadLocation = location
            var nameLocations: [SourceLocation] = []
            if parser.current.isPunctuation(":") {
                parser.advance()
                payloadLocation = parser.current.location
                guard let type = parser.parseType(depth: 0, nameLocations: &nameLocations) else { return false }
                payload = type
                if parser.current.isPunctuation("?") {
                    parser.error(
                        "union case payloads cannot be optional", at: parser.current.location,
                        hint: "add a case without payload instead of making '\(name)' optional")
                    parser.advance()
                }
            }
            cases.append(
                UnionCaseDecl(
                    number: number, name: name, payload: payload, documentation: documentation,
                    deprecation: deprecation, location: location, payloadLocation: payloadLocation,
                    payloadNameLocations: nameLocations))
            return parser.expectMemberEnd()
        }
        return (cases, reserved)
    }

    /// After a member: a `;`, a new line or `}` must follow.
    private mutating func expectMemberEnd() -> Bool {
        // A ';' ends a member, so another may follow on the same line.
        if current.isPunctuation(";") {
            skipSeparator()
            return true
        }
        if current.startsLine || current.isPunctuation("}") || atEnd { return true }
        error(
            "expected a new line after the member, found \(current.quoted)", at: current.location,
            hint: "put each field or case on its own line")
        return false
    }

    /// The leading number of a field or case, with its location.
    private mutating func parseMemberNumber(example: String) -> (UInt64, SourceLocation)? {
        let token = current
        guard token.kind == .integer else {
            var hint = "members start with their number: '\(example)'"
            if token.kind == .identifier && peek(1).isPunctuation(":") {
                hint = "field numbers come first: write '1 \(token.text): ...'"
            }
            error("expected a number, found \(token.quoted)", at: token.location, hint: hint)
            return nil
        }
        advance()
        // An overflowing literal is kept as UInt64.max so range checks report it.
        return (token.integer ?? UInt64.max, token.location)
    }

    private mutating func parseField() -> FieldDecl? {
        let documentation = current.documentation
        let deprecation = parseAttributes()
        guard let (number, location) = parseMemberNumber(example: "1 name: Type") else { return nil }
        guard let name = expectIdentifier("a field name after the number") else { return nil }
        guard expect(":", "':' after the field name", hint: "write '\(number) \(name): Type'") else { return nil }
        let typeLocation = current.location
        var nameLocations: [SourceLocation] = []
        guard let type = parseType(depth: 0, nameLocations: &nameLocations) else { return nil }
        var isOptional = false
        if current.isPunctuation("?") {
            isOptional = true
            advance()
        }
        var literal: Literal?
        if current.isPunctuation("=") {
            advance()
            guard let parsed = parseLiteral() else { return nil }
            literal = parsed
        }
        let field = FieldDecl(
            number: number, name: name, type: type, isOptional: isOptional, defaultLiteral: literal,
            documentation: documentation, deprecation: deprecation, location: location,
            typeLocation: typeLocation, typeNameLocations: nameLocations)
        guard expectMemberEnd() else { return nil }
        return field
    }

    /// `Name`, `[T]` or `[K: V]`, nesting bounded by ``SpecLimits/maxTypeNesting``.
    private mutating func parseType(depth: Int, nameLocations: inout [SourceLocation]) -> TypeRef? {
        let token = current
        if token.kind == .identifier {
            advance()
            var name = token.text
            while current.isPunctuation(".") && peek(1).kind == .identifier {
                // Recover by using the last component, the likely intended plain name.
                name = peek(1).text
                error(
                    "qualified type names are not supported; write '\(name)'", at: token.location,
                    hint: "type names are unique across a spec set; import the file and use the plain name")
                advance()
                advance()
            }
            if let scalar = ScalarType(rawValue: name) { return .scalar(scalar) }
            nameLocations.append(token.location)
            return .named(name)
        }
        guard token.isPunctuation("[") else {
            error(
                "expected a type, found \(token.quoted)", at: token.location,
                hint: "types are scalars such as Int32 or String, declared names, [Element] or [Key: Value]")
            return nil
        }
        guard depth < limits.maxTypeNesting else {
            error("type is nested more than \(limits.maxTypeNesting) levels deep", at: token.location)
            return nil
        }
        advance()
        guard let element = parseType(depth: depth + 1, nameLocations: &nameLocations) else { return nil }
        if current.isPunctuation("?") {
            error(
                "array elements and map values cannot be optional", at: current.location,
                hint: "remove the '?'; absent elements cannot be represented on the wire")
            advance()
        }
        if current.isPunctuation(":") {
            advance()
            guard let value = parseType(depth: depth + 1, nameLocations: &nameLocations) else { return nil }
            if current.isPunctuation("?") {
                error(
                    "array elements and map values cannot be optional", at: current.location,
                    hint: "remove the '?'; absent elements cannot be represented on the wire")
                advance()
            }
            guard expect("]", "']' to close the map type") else { return nil }
            return .map(key: element, value: value)
        }
        guard expect("]", "']' to close the array type") else { return nil }
        return .array(element)
    }

    private mutating func parseLiteral() -> Literal? {
        let token = current
        var negative = false
        if token.isPunctuation("-") {
            negative = true
            advance()
        }
        let valueToken = current
        let text = (negative ? "-" : "") + valueToken.text
        switch valueToken.kind {
        case .integer:
            advance()
            return Literal(
                kind: .integer(negative: negative, magnitude: valueToken.integer), text: text, location: token.location)
        case .float:
            advance()
            let value = valueToken.float ?? .infinity
            return Literal(kind: .float(negative ? -value : value), text: text, location: token.location)
        case .string where !negative:
            advance()
            return Literal(kind: .string(valueToken.text), text: "\"\(valueToken.text)\"", location: token.location)
        case .identifier where !negative:
            advance()
            if valueToken.text == "true" || valueToken.text == "false" {
                return Literal(kind: .bool(valueToken.text == "true"), text: text, location: token.location)
            }
            return Literal(kind: .identifier(valueToken.text), text: text, location: token.location)
        default:
            error(
                "expected a default value after '=', found \(valueToken.quoted)", at: valueToken.location,
                hint: "defaults are numbers, strings, true/false or enum case names")
            return nil
        }
    }

    private mutating func parseReserved() -> ReservedDecl? {
        let start = current
        advance()
        var ranges: [ClosedRange<UInt64>] = []
        var names: [String] = []
        repeat {
            if current.kind == .integer {
                let low = current
                advance()
                var high = low
                if current.isPunctuation("...") {
                    advance()
                    guard current.kind == .integer else {
                        error("expected a number after '...', found \(current.quoted)", at: current.location)
                        return nil
                    }
                    high = current
                    advance()
                }
                let lowValue = low.integer ?? UInt64.max
                let highValue = high.integer ?? UInt64.max
                if lowValue > highValue {
                    error(
                        "reserved range \(low.text)...\(high.text) is empty", at: low.location,
                        hint: "write the smaller number first: \(high.text)...\(low.text)")
                } else {
                    ranges.append(lowValue...highValue)
                }
            } else if current.kind == .string {
                names.append(current.text)
                advance()
            } else {
                error(
                    "expected a number, a range or a quoted name after 'reserved', found \(current.quoted)",
                    at: current.location, hint: "write 'reserved 4, 8...10, \"oldName\"'")
                return nil
            }
            guard current.isPunctuation(",") else { break }
            advance()
        } while true
        guard expectMemberEnd() else { return nil }
        return ReservedDecl(numberRanges: ranges, names: names, location: start.location)
    }
}
