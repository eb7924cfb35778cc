/// Checks parsed files as one spec set and resolves field defaults.
///
/// Rules (each violation is an error diagnostic unless noted):
/// - type names are unique across the set and do not reuse a scalar name;
/// - message type ids are 1...4_294_967_295 and unique across the set, and only a package
///   named `groupwire.…` declares one of GroupWire's own (`MessageDecl.groupWireTypeIDs`);
/// - field and union case numbers are 1...536_870_911, enum case numbers 0...4_294_967_295;
///   numbers and names are unique per declaration and not reserved there;
/// - named types exist and are declared in the same file or a file it imports directly;
/// - arrays and maps are not optional, do not directly contain arrays or maps, map keys
///   are integer, String, Bool or UUID scalars, and union payloads are not collections;
/// - enums have a case numbered 0, unions have at least one case;
/// - no message, struct or union contains itself by value (recursion only through arrays or maps);
/// - defaults match the field type and its range, and only non-optional fields of Bool,
///   integer, float, String or enum type have them;
/// - duplicate imports are warnings.
struct SemanticChecker {
    private var files: [SpecFile]
    private(set) var diagnostics: [Diagnostic] = []
    /// The first declaration of each name, with the index of its file.
    private var declarations: [String: (decl: TypeDecl, file: Int)] = [:]

    static let maxFieldNumber: UInt64 = (1 << 29) - 1
    static let maxTypeID: UInt64 = UInt64(UInt32.max)
    static let maxEnumNumber: UInt64 = UInt64(UInt32.max)

    init(files: [SpecFile]) {
        self.files = files
    }

    private mutating func error(
        _ message: String, at location: SourceLocation, hint: String? = nil, notes: [Diagnostic.Note] = []
    ) {
        diagnostics.append(.error(message, at: location, hint: hint, notes: notes))
    }

    mutating func check() -> [SpecFile] {
        indexDeclarations()
        checkTypeIDs()
        for fileIndex in files.indices {
            checkImports(of: fileIndex)
            let visible = visibleNames(for: fileIndex)
            for declIndex in files[fileIndex].declarations.indices {
                var decl = files[fileIndex].declarations[declIndex]
                switch decl {
                case .message(var message):
                    message.fields = checkFields(
                        message.fields, reserved: message.reserved, owner: message.name, visible: visible, file: fileIndex)
                    checkReserved(message.reserved, maxNumber: SemanticChecker.maxFieldNumber, minNumber: 1)
                    decl = .message(message)
                case .struct(var structDecl):
                    structDecl.fields = checkFields(
                        structDecl.fields, reserved: structDecl.reserved, owner: structDecl.name, visible: visible,
                        file: fileIndex)
                    checkReserved(structDecl.reserved, maxNumber: SemanticChecker.maxFieldNumber, minNumber: 1)
                    decl = .struct(structDecl)
                case .enum(let enumDecl):
                    checkEnum(enumDecl)
                case .union(let union):
                    checkUnion(union, visible: visible, file: fileIndex)
                }
                files[fileIndex].declarations[declIndex] = decl
            }
        }
        checkRecursion()
        return files
    }

    // MARK: Names and ids

    private mutating func indexDeclarations() {
        for (fileIndex, file) in files.enumerated() {
            for decl in file.declarations {
                if ScalarType(rawValue: decl.name) != nil {
                    error(
                        "'\(decl.name)' is a built-in type and cannot be declared", at: decl.location,
                        hint: "choose another name for this \(decl.keyword)")
                    continue
                }
                if let origin = GeneratedSwiftNames.typeOrigin(of: decl.name) {
                    error(
                        "type name '\(decl.name)' would hide the '\(decl.name)' of \(origin) that generated Swift uses",
                        at: decl.location,
                        hint: "choose another name for this \(decl.keyword), such as '\(decl.name)Value'")
                    continue
                }
                // A file without a package line is only ever built in memory (the imported
                // part of a hello's schema): no code, so no message set enum, is generated
                // from it, and a name its own file allowed stays allowed here.
                let setName = GeneratedSwiftNames.messageSetName(package: file.package?.name, path: file.path)
                if file.package != nil, decl.name == setName {
                    error(
                        "type name '\(decl.name)' is the enum generated Swift declares over this file's messages",
                        at: decl.location, hint: "choose another name for this \(decl.keyword), such as '\(decl.name)Kind'")
                    continue
                }
                if case .message = decl,
                    GeneratedSwiftNames.messageSetMembers.contains(decl.name.prefix(1).lowercased() + decl.name.dropFirst())
                {
                    error(
                        "message name '\(decl.name)' clashes with the member '\(decl.name.prefix(1).lowercased() + decl.name.dropFirst())' of the generated '\(setName)'",
                        at: decl.location, hint: "choose another name for this message, such as '\(decl.name)Sent'")
                    continue
                }
                if let first = declarations[decl.name] {
                    error(
                        "duplicate type name '\(decl.name)'", at: decl.location,
                        hint: "type names must be unique across all imported files",
                        notes: [.init("'\(decl.name)' was first declared here", at: first.decl.location)])
                    continue
                }
                declarations[decl.name] = (decl, fileIndex)
            }
        }
    }

    private mutating func checkTypeIDs() {
        var seen: [UInt64: MessageDecl] = [:]
        for file in files {
            for case .message(let message) in file.declarations {
                guard message.typeID >= 1 && message.typeID <= SemanticChecker.maxTypeID else {
                    error(
                        "type id \(message.typeID) of '\(message.name)' is out of range; type ids are 1...\(SemanticChecker.maxTypeID)",
                        at: message.typeIDLocation)
                    continue
                }
                if MessageDecl.groupWireTypeIDs.contains(message.typeID), !(file.package?.name.hasPrefix("groupwire.") ?? false) {
                    error(
                        "type id \(message.typeID) of '\(message.name)' is GroupWire's own; type ids \(MessageDecl.groupWireTypeIDs.lowerBound)...\(MessageDecl.groupWireTypeIDs.upperBound) are reserved for GroupWire's specs (coordinated playback)",
                        at: message.typeIDLocation, hint: "choose a type id below \(MessageDecl.groupWireTypeIDs.lowerBound)")
                    continue
                }
                if let first = seen[message.typeID] {
                    error(
                        "duplicate type id \(message.typeID): '\(message.name)' and '\(first.name)'", at: message.typeIDLocation,
                        hint: "every message needs its own type id; the next free one is \(nextFreeTypeID(after: seen.keys))",
                        notes: [.init("'\(first.name)' uses type id \(message.typeID) here", at: first.typeIDLocation)])
                    continue
                }
                seen[message.typeID] = message
            }
        }
    }

    private func nextFreeTypeID(after used: some Sequence<UInt64>) -> UInt64 {
        let maximum = used.max() ?? 0
        return maximum < SemanticChecker.maxTypeID ? maximum + 1 : 1
    }

    private mutating func checkImports(of fileIndex: Int) {
        var seen: [String: ImportDecl] = [:]
        for decl in files[fileIndex].imports {
            let key = decl.resolvedPath ?? decl.path
            if let first = seen[key] {
                diagnostics.append(
                    .warning(
                        "duplicate import of '\(decl.path)'", at: decl.location,
                        hint: "remove this line", notes: [.init("first imported here", at: first.location)]))
            } else {
                seen[key] = decl
            }
        }
    }

    /// Names a file may use: its own declarations and those of files it imports directly.
    private func visibleNames(for fileIndex: Int) -> Set<String> {
        var names = Set(files[fileIndex].declarations.map(\.name))
        let imported = Set(files[fileIndex].imports.compactMap(\.resolvedPath))
        for other in files where imported.contains(other.path) {
            names.formUnion(other.declarations.map(\.name))
        }
        return names
    }

    // MARK: Type references

    /// Checks that every name in `type` resolves and is visible, and that the shape is allowed.
    /// Returns false when a name is unknown (so default checks can be skipped).
    @discardableResult
    private mutating func checkTypeRef(
        _ type: TypeRef, nameLocations: [SourceLocation], typeLocation: SourceLocation,
        visible: Set<String>, file: Int
    ) -> Bool {
        var resolved = true
        for (offset, name) in type.referencedNames.enumerated() {
            let location = offset < nameLocations.count ? nameLocations[offset] : typeLocation
            if let found = declarations[name] {
                if !visible.contains(name) {
                    let declaringPath = files[found.file].path
                    error(
                        "type '\(name)' is declared in '\(declaringPath)', which this file does not import", at: location,
                        hint: "add 'import \"\(relativeImportPath(to: declaringPath, from: files[file].path))\"'")
                    resolved = false
                }
            } else {
                var hint: String?
                // Suggestions cost an edit distance per candidate; skip them for huge specs.
                if declarations.count <= 1_000 {
                    let candidates = Array(declarations.keys) + ScalarType.allCases.map(\.rawValue)
                    if let suggestion = Suggest.closest(to: name, in: candidates) { hint = "did you mean '\(suggestion)'?" }
                }
                error("unknown type '\(name)'", at: location, hint: hint)
                resolved = false
            }
        }
        checkShape(type, at: typeLocation)
        return resolved
    }

    private mutating func checkShape(_ type: TypeRef, at location: SourceLocation) {
        switch type {
        case .scalar, .named:
            return
        case .array(let element):
            if element.isCollection {
                error(
                    "arrays cannot directly contain \(element.isArray ? "arrays" : "maps") ('\(type)')", at: location,
                    hint: "wrap the inner collection in a struct and use an array of that struct")
            } else {
                checkShape(element, at: location)
            }
        case .map(let key, let value):
            if !(key.scalar?.isValidMapKey ?? false) {
                error(
                    "map key type '\(key)' is not allowed", at: location,
                    hint: "map keys are integers, String, Bool or UUID")
            }
            if value.isCollection {
                error(
                    "map values cannot be \(value.isArray ? "arrays" : "maps") ('\(type)')", at: location,
                    hint: "wrap the inner collection in a struct and use that struct as the value")
            } else {
                checkShape(value, at: location)
            }
        }
    }

    private func relativeImportPath(to target: String, from importer: String) -> String {
        let importerFolder = importer.split(separator: "/", omittingEmptySubsequences: false).dropLast()
        let targetParts = target.split(separator: "/", omittingEmptySubsequences: false)
        var common = 0
        while common < importerFolder.count, common < targetParts.count - 1,
            importerFolder[importerFolder.startIndex + common] == targetParts[common]
        {
            common += 1
        }
        let ups = Array(repeating: "..", count: importerFolder.count - common)
        return (ups + targetParts[common...].map(String.init)).joined(separator: "/")
    }

    // MARK: Fields

    private mutating func checkFields(
        _ fields: [FieldDecl], reserved: [ReservedDecl], owner: String,
        visible: Set<String>, file: Int
    ) -> [FieldDecl] {
        checkMembers(
            fields, kind: "field", nameKind: "field", owner: owner,
            numbers: 1...SemanticChecker.maxFieldNumber, reserved: reserved)
        var result = fields
        for (index, field) in fields.enumerated() {
            let resolved = checkTypeRef(
                field.type, nameLocations: field.typeNameLocations, typeLocation: field.typeLocation,
                visible: visible, file: file)
            if field.isOptional && field.type.isCollection {
                error(
                    "\(field.type.isArray ? "array" : "map") field '\(field.name)' cannot be optional", at: field.typeLocation,
                    hint: "remove the '?': an absent \(field.type.isArray ? "array" : "map") decodes as empty")
            }
            if let literal = field.defaultLiteral, resolved {
                result[index].defaultValue = checkDefault(literal, field: field)
            }
        }
        return result
    }

    private func nextFree(_ used: some Sequence<UInt64>, reserved: [ReservedDecl]) -> UInt64 {
        var candidate = (used.max() ?? 0) + 1
        while reserved.reserves(number: candidate) && candidate < SemanticChecker.maxFieldNumber { candidate += 1 }
        return candidate
    }

    private mutating func checkDefault(_ literal: Literal, field: FieldDecl) -> DefaultValue? {
        if field.isOptional {
            error(
                "optional field '\(field.name)' cannot have a default", at: literal.location,
                hint: "an absent optional field is nil; remove '= \(literal.text)' or the '?'")
            return nil
        }
        let typeName = field.type.description
        func mismatch(_ hint: String) -> DefaultValue? {
            error("default value \(literal.text) does not match type \(typeName)", at: literal.location, hint: hint)
            return nil
        }
        switch field.type {
        case .scalar(let scalar) where scalar == .bool:
            guard case .bool(let value) = literal.kind else { return mismatch("use true or false") }
            return .bool(value)
        case .scalar(let scalar) where scalar.isInteger:
            guard case .integer(let negative, let magnitude) = literal.kind else {
                return mismatch("use an integer literal such as 0 or -1")
            }
            return checkIntegerRange(literal, scalar: scalar, negative: negative, magnitude: magnitude)
        case .scalar(let scalar) where scalar.isFloatingPoint:
            let value: Double
            switch literal.kind {
            case .float(let parsed): value = parsed
            case .integer(let negative, let magnitude):
                guard let magnitude else { value = .infinity; break }
                value = negative ? -Double(magnitude) : Double(magnitude)
            default: return mismatch("use a number such as 1.5")
            }
            let limit = scalar == .float32 ? Double(Float.greatestFiniteMagnitude) : Double.greatestFiniteMagnitude
            guard value.isFinite, abs(value) <= limit else {
                error("default value \(literal.text) is out of range for \(scalar.rawValue)", at: literal.location)
                return nil
            }
            if scalar == .float32, Double(Float(value)) != value {
                diagnostics.append(
                    .warning(
                        "default value \(literal.text) is not exactly representable as Float32; it is rounded to \(Float(value))",
                        at: literal.location))
                return .float(Double(Float(value)))
            }
            return .float(value)
        case .scalar(let scalar) where scalar == .string:
            guard case .string(let value) = literal.kind else { return mismatch("use a quoted string such as \"text\"") }
            return .string(value)
        case .named(let name):
            if case .enum(let enumDecl)? = declarations[name]?.decl {
                guard case .identifier(let caseName) = literal.kind else {
                    return mismatch("use a case name of '\(name)', such as '\(enumDecl.casesByNumber.first?.name ?? "caseName")'")
                }
                guard let found = enumDecl.declaredCase(named: caseName) else {
                    let suggestion = Suggest.closest(to: caseName, in: enumDecl.cases.map(\.name))
                    error(
                        "enum '\(name)' has no case '\(caseName)'", at: literal.location,
                        hint: suggestion.map { "did you mean '\($0)'?" })
                    return nil
                }
                return .enumCase(name: found.name, number: found.number)
            }
            fallthrough
        default:
            error(
                "field '\(field.name)' of type \(typeName) cannot have a default", at: literal.location,
                hint: "defaults are allowed for Bool, integer, float, String and enum fields")
            return nil
        }
    }

    private mutating func checkIntegerRange(_ literal: Literal, scalar: ScalarType, negative: Bool, magnitude: UInt64?)
        -> DefaultValue?
    {
        guard let range = scalar.integerRange else { return nil }
        let rangeText = "\(range.min)...\(range.max)"
        func outOfRange() -> DefaultValue? {
            error("default value \(literal.text) is out of range for \(scalar.rawValue) (\(rangeText))", at: literal.location)
            return nil
        }
        guard let magnitude else { return outOfRange() }
        if negative && magnitude > 0 {
            // -magnitude >= min  <=>  magnitude <= |min|; |Int64.min| is Int64.max + 1.
            guard magnitude <= range.min.magnitude else { return outOfRange() }
            // Safe because magnitude <= |Int64.min| was checked; 0 &- magnitude wraps to the right value.
            return .signed(Int64(bitPattern: 0 &- magnitude))
        }
        guard magnitude <= range.max else { return outOfRange() }
        return scalar.isSignedInteger ? .signed(Int64(magnitude)) : .unsigned(magnitude)
    }

    /// The rules fields, enum cases and union cases share: numbers in range, numbers and
    /// names unique and not reserved.
    private mutating func checkMembers(
        _ members: [some NumberedMember], kind: String, nameKind: String, owner: String,
        numbers: ClosedRange<UInt64>, reserved: [ReservedDecl]
    ) {
        var byNumber: [UInt64: any NumberedMember] = [:]
        var byName: [String: any NumberedMember] = [:]
        // Suggest numbers above every member, not just those seen so far.
        let suggestion = nextFree(members.map(\.number).filter { numbers.contains($0) }, reserved: reserved)
        for member in members {
            if !numbers.contains(member.number) {
                error(
                    "\(kind) number \(member.number) of '\(owner).\(member.name)' is out of range; \(kind) numbers are \(numbers.lowerBound)...\(numbers.upperBound)",
                    at: member.location)
            } else if let first = byNumber[member.number] {
                error(
                    "\(kind) number \(member.number) is already used by '\(first.name)' in '\(owner)'", at: member.location,
                    hint: "use an unused number, such as \(suggestion)",
                    notes: [.init("'\(first.name)' is declared here", at: first.location)])
            } else {
                byNumber[member.number] = member
                if reserved.reserves(number: member.number) {
                    error(
                        "\(kind) number \(member.number) of '\(owner).\(member.name)' is reserved", at: member.location,
                        hint: "reserved numbers belonged to removed members; use an unused number, such as \(suggestion)")
                }
            }
            if GeneratedSwiftNames.members.contains(member.name) {
                error(
                    "\(nameKind) name '\(member.name)' in '\(owner)' is a member generated Swift declares", at: member.location,
                    hint:
                        "rename the \(kind), such as '\(owner.prefix(1).lowercased() + owner.dropFirst())\(member.name.prefix(1).uppercased() + member.name.dropFirst())' (JSON keys follow the spec name)"
                )
            } else if let origin = GeneratedSwiftNames.typeOrigin(of: member.name) {
                error(
                    "\(nameKind) name '\(member.name)' in '\(owner)' would hide the type '\(member.name)' of \(origin) that generated Swift uses",
                    at: member.location,
                    hint: "rename the \(kind), such as '\(member.name.prefix(1).lowercased() + member.name.dropFirst())Value'")
            }
            if let first = byName[member.name] {
                error(
                    "duplicate \(nameKind) name '\(member.name)' in '\(owner)'", at: member.location,
                    notes: [.init("'\(member.name)' is first declared here", at: first.location)])
            } else {
                byName[member.name] = member
                if reserved.reserves(name: member.name) {
                    error(
                        "\(nameKind) name '\(member.name)' is reserved in '\(owner)'", at: member.location,
                        hint: "reserved names belonged to removed members; choose another name")
                }
            }
        }
    }

    // MARK: Enums and unions

    private mutating func checkEnum(_ decl: EnumDecl) {
        checkMembers(
            decl.cases, kind: "enum case", nameKind: "case", owner: decl.name,
            numbers: 0...SemanticChecker.maxEnumNumber, reserved: decl.reserved)
        if decl.declaredCase(number: 0) == nil {
            error(
                "enum '\(decl.name)' has no case numbered 0", at: decl.location,
                hint: "add a case numbered 0: absent enum fields decode as 0")
        }
        checkReserved(decl.reserved, maxNumber: SemanticChecker.maxEnumNumber, minNumber: 0)
    }

    private mutating func checkUnion(_ decl: UnionDecl, visible: Set<String>, file: Int) {
        if decl.cases.isEmpty {
            error("union '\(decl.name)' has no cases", at: decl.location, hint: "add at least one case: '1 name: Type'")
        }
        checkMembers(
            decl.cases, kind: "union case", nameKind: "case", owner: decl.name,
            numbers: 1...SemanticChecker.maxFieldNumber, reserved: decl.reserved)
        for item in decl.cases {
            if let payload = item.payload {
                if payload.isCollection {
                    error(
                        "union case '\(decl.name).\(item.name)' cannot carry \(payload.isArray ? "an array" : "a map") directly",
                        at: item.payloadLocation, hint: "wrap the collection in a struct and use that struct as the payload")
                }
                checkTypeRef(
                    payload, nameLocations: item.payloadNameLocations, typeLocation: item.payloadLocation,
                    visible: visible, file: file)
            }
        }
        checkReserved(decl.reserved, maxNumber: SemanticChecker.maxFieldNumber, minNumber: 1)
    }

    private mutating func checkReserved(_ reserved: [ReservedDecl], maxNumber: UInt64, minNumber: UInt64) {
        for line in reserved {
            for range in line.numberRanges where range.lowerBound < minNumber || range.upperBound > maxNumber {
                let text =
                    range.lowerBound == range.upperBound ? "\(range.lowerBound)" : "\(range.lowerBound)...\(range.upperBound)"
                error("reserved number \(text) is out of range; numbers here are \(minNumber)...\(maxNumber)", at: line.location)
            }
        }
    }

    // MARK: Recursion

    /// The by-value edges of a declaration: named types of fields or payloads that are not
    /// inside an array or map (optional fields count: an optional struct is still stored inline).
    private static func byValueEdges(of decl: TypeDecl) -> [(target: String, member: String, location: SourceLocation)] {
        switch decl {
        case .message(let message):
            message.fields.compactMap { field in field.type.name.map { ($0, field.name, field.location) } }
        case .struct(let structDecl):
            structDecl.fields.compactMap { field in field.type.name.map { ($0, field.name, field.location) } }
        case .union(let union):
            union.cases.compactMap { item in item.payload?.name.map { ($0, item.name, item.location) } }
        case .enum:
            []
        }
    }

    private mutating func checkRecursion() {
        // Iterative depth-first search with colours; each cycle is reported once, at the
        // member that closes it, in the declaration where the search entered the cycle.
        var state: [String: Int] = [:]  // 1 = on the current path, 2 = finished
        for root in declarations.keys.sorted() where state[root] == nil {
            var path: [(name: String, edges: [(target: String, member: String, location: SourceLocation)], next: Int)] = []
            if let decl = declarations[root]?.decl {
                path.append((root, SemanticChecker.byValueEdges(of: decl), 0))
                state[root] = 1
            }
            while !path.isEmpty {
                let top = path.count - 1
                guard path[top].next < path[top].edges.count else {
                    state[path[top].name] = 2
                    path.removeLast()
                    continue
                }
                let edge = path[top].edges[path[top].next]
                path[top].next += 1
                guard let target = declarations[edge.target]?.decl else { continue }
                switch state[edge.target] {
                case 1:
                    let start = path.firstIndex { $0.name == edge.target } ?? 0
                    let cycle = path[start...].map(\.name) + [edge.target]
                    let owner = path[top].name
                    error(
                        "'\(edge.target)' contains itself by value (\(cycle.joined(separator: " -> ")))", at: edge.location,
                        hint:
                            "recursion is only allowed through arrays or maps; make '\(owner).\(edge.member)' an array ([\(edge.target)])"
                    )
                case 2:
                    continue
                default:
                    state[edge.target] = 1
                    path.append((edge.target, SemanticChecker.byValueEdges(of: target), 0))
                }
            }
        }
    }
}

extension TypeRef {
    /// Whether this is an array.
    var isArray: Bool {
        if case .array = self { return true }
        return false
    }
}
