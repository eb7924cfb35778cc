/// Compares two versions of a spec and classifies every difference that matters on the wire.
///
/// Messages are matched by name (then by type id, to detect renames); structs, enums and
/// unions by name; fields and cases by number (then by name, to detect renumbering).
/// Both sets should be free of errors (see ``SpecCompilation/checkedSpec()``).
public enum CompatibilityChecker {
    /// Compares `old` with `new`.
    /// - Parameters:
    ///   - old: the published version.
    ///   - new: the candidate version.
    /// - Returns: every change, sorted by path then rule id, with the verdict.
    public static func compare(old: SpecSet, new: SpecSet) -> CompatibilityReport {
        var differ = SpecDiffer(old: old, new: new)
        differ.run()
        let changes = differ.changes.sorted { ($0.path, $0.rule.id, $0.message) < ($1.path, $1.rule.id, $1.message) }
        return CompatibilityReport(
            old: .init(spec: old), new: .init(spec: new), changes: changes,
            messages: MessageCompatibility.all(old: old, new: new, changes: changes))
    }
}

/// Members of two versions of one declaration, paired by number, then by name.
private struct MemberMatch<Member: NumberedMember> {
    /// Same number in both versions.
    var common: [(old: Member, new: Member)] = []
    /// Same name, different number.
    var renumbered: [(old: Member, new: Member)] = []
    /// Only in the old version.
    var removed: [Member] = []
    /// Only in the new version.
    var added: [Member] = []

    init(old: [Member], new: [Member]) {
        let oldSorted = old.sorted { $0.number < $1.number }
        let newSorted = new.sorted { $0.number < $1.number }
        let newByNumber = Dictionary(newSorted.map { ($0.number, $0) }, uniquingKeysWith: { first, _ in first })
        let oldNumbers = Set(oldSorted.map(\.number))
        added = newSorted.filter { !oldNumbers.contains($0.number) }
        for member in oldSorted {
            if let match = newByNumber[member.number] {
                common.append((member, match))
            } else if let index = added.firstIndex(where: { $0.name == member.name }) {
                renumbered.append((member, added.remove(at: index)))
            } else {
                removed.append(member)
            }
        }
    }
}

/// Walks two spec sets side by side, collecting changes.
private struct SpecDiffer {
    let old: SpecSet
    let new: SpecSet
    var changes: [SpecChange] = []

    init(old: SpecSet, new: SpecSet) {
        self.old = old
        self.new = new
    }

    private mutating func add(
        _ rule: CompatibilityRule, _ path: String, _ message: String, at location: SourceLocation?,
        newReader: ReaderEffect? = nil, oldReader: ReaderEffect? = nil
    ) {
        changes.append(
            SpecChange(
                rule, path: path, message, location: location,
                newReaderOldData: newReader, oldReaderNewData: oldReader))
    }

    mutating func run() {
        if let oldPackage = old.package, let newPackage = new.package {
            if oldPackage.name != newPackage.name {
                add(
                    .packageRenamed, "package", "package '\(oldPackage.name)' was renamed to '\(newPackage.name)'",
                    at: newPackage.location)
            }
            let oldShape = old.canonicalText.split(separator: "\n", maxSplits: 1).dropFirst().joined()
            let newShape = new.canonicalText.split(separator: "\n", maxSplits: 1).dropFirst().joined()
            if oldShape != newShape && newPackage.version <= oldPackage.version {
                add(
                    .versionNotIncreased, "package",
                    "the wire shape changed but the version went from \(oldPackage.version) to \(newPackage.version)",
                    at: newPackage.location)
            }
        }
        compareMessages()
        for oldDecl in old.declarations {
            if case .message = oldDecl { continue }
            guard let newDecl = new.declaration(named: oldDecl.name) else {
                add(.declarationRemoved, oldDecl.name, "\(oldDecl.keyword) '\(oldDecl.name)' was removed", at: oldDecl.location)
                continue
            }
            switch (oldDecl, newDecl) {
            case (.struct(let a), .struct(let b)): compareFields(a, b)
            case (.enum(let a), .enum(let b)): compareEnums(a, b)
            case (.union(let a), .union(let b)): compareUnions(a, b)
            default:
                add(
                    .declarationKindChanged, oldDecl.name,
                    "'\(oldDecl.name)' changed from \(oldDecl.keyword) to \(newDecl.keyword)", at: newDecl.location)
            }
        }
    }

    private mutating func compareMessages() {
        var matchedNew: Set<String> = []
        let oldNames = Set(old.messages.map(\.name))
        for oldMessage in old.messages {
            if let newDecl = new.declaration(named: oldMessage.name) {
                guard case .message(let newMessage) = newDecl else {
                    add(
                        .declarationKindChanged, oldMessage.name,
                        "'\(oldMessage.name)' changed from message to \(newDecl.keyword)", at: newDecl.location)
                    continue
                }
                matchedNew.insert(newMessage.name)
                if oldMessage.typeID != newMessage.typeID {
                    add(
                        .typeIDChanged, oldMessage.name,
                        "type id of '\(oldMessage.name)' changed from \(oldMessage.typeID) to \(newMessage.typeID)",
                        at: newMessage.typeIDLocation)
                }
                compareFields(oldMessage, newMessage)
            } else if let newMessage = new.message(typeID: oldMessage.typeID), !oldNames.contains(newMessage.name) {
                matchedNew.insert(newMessage.name)
                add(
                    .messageRenamed, oldMessage.name,
                    "message '\(oldMessage.name)' (type id \(oldMessage.typeID)) was renamed to '\(newMessage.name)'",
                    at: newMessage.location)
                compareFields(oldMessage, newMessage)
            } else {
                add(
                    .messageRemoved, oldMessage.name,
                    "message '\(oldMessage.name)' (type id \(oldMessage.typeID)) was removed; new readers reject it as an unknown type",
                    at: oldMessage.location)
            }
        }
        for newMessage in new.messages where !matchedNew.contains(newMessage.name) {
            if case .message? = old.declaration(named: newMessage.name) { continue }
            if let oldDecl = old.declaration(named: newMessage.name) {
                add(
                    .declarationKindChanged, newMessage.name,
                    "'\(newMessage.name)' changed from \(oldDecl.keyword) to message", at: newMessage.location)
                continue
            }
            add(
                .messageAdded, newMessage.name,
                "message '\(newMessage.name)' (type id \(newMessage.typeID)) was added; old readers reject it as an unknown type",
                at: newMessage.location)
        }
    }

    // MARK: Fields

    private mutating func compareFields(_ oldDecl: some FieldContainerDecl, _ newDecl: some FieldContainerDecl) {
        let owner = newDecl.name
        let match = MemberMatch(old: oldDecl.fields, new: newDecl.fields)
        for (oldField, newField) in match.common {
            let path = "\(owner).\(newField.name)"
            if oldField.name != newField.name {
                add(
                    .fieldRenamed, path, "field \(newField.number) was renamed from '\(oldField.name)' to '\(newField.name)'",
                    at: newField.location)
            }
            let typeChanged = compareTypes(
                oldField.type, newField.type, path: path,
                what: "field \(newField.number) '\(newField.name)'", at: newField.typeLocation)
            if oldField.isOptional != newField.isOptional {
                add(
                    .fieldOptionalityChanged, path,
                    oldField.isOptional
                        ? "field \(newField.number) '\(newField.name)' is no longer optional; an absent value now decodes as the default instead of nil"
                        : "field \(newField.number) '\(newField.name)' became optional; a value equal to the default (which writers omit) now decodes as nil",
                    at: newField.location)
            } else if !typeChanged {
                let oldDefault = oldField.defaultValue.flatMap { CanonicalForm.defaultText($0, type: oldField.type) }
                let newDefault = newField.defaultValue.flatMap { CanonicalForm.defaultText($0, type: newField.type) }
                if oldDefault != newDefault {
                    add(
                        .defaultChanged, path,
                        "default of field \(newField.number) '\(newField.name)' changed from \(describe(oldField.defaultValue)) to \(describe(newField.defaultValue)); writers omit values equal to their default",
                        at: newField.defaultLiteral?.location ?? newField.location)
                }
            }
        }
        for (oldField, newField) in match.renumbered {
            add(
                .fieldRenumbered, "\(owner).\(newField.name)",
                "field '\(newField.name)' moved from number \(oldField.number) to \(newField.number)", at: newField.location)
        }
        for oldField in match.removed {
            let path = "\(owner).\(oldField.name)"
            if newDecl.reserved.reserves(number: oldField.number) {
                add(
                    .fieldRemoved, path,
                    "field \(oldField.number) '\(oldField.name)' was removed and its number reserved; old readers see \(oldField.isOptional ? "nil" : "the default")",
                    at: newDecl.reserved.first { $0.contains(number: oldField.number) }?.location ?? newDecl.location)
            } else {
                add(
                    .fieldRemovedNotReserved, path,
                    "field \(oldField.number) '\(oldField.name)' was removed without reserving its number; old readers see \(oldField.isOptional ? "nil" : "the default") and a later field could reuse \(oldField.number)",
                    at: newDecl.location)
            }
        }
        for newField in match.added {
            let path = "\(owner).\(newField.name)"
            if oldDecl.reserved.reserves(number: newField.number) {
                add(
                    .fieldNumberReused, path,
                    "field \(newField.number) '\(newField.name)' reuses a number reserved in the old version; data from the removed field is misread",
                    at: newField.location)
            } else {
                add(
                    .fieldAdded, path,
                    "field \(newField.number) '\(newField.name): \(newField.type)\(newField.isOptional ? "?" : "")' was added; old readers skip it, new readers use \(newField.isOptional ? "nil" : describe(newField.defaultValue)) when it is absent",
                    at: newField.location)
            }
        }
        compareReservations(
            oldDecl.reserved, newDecl.reserved, used: Set(newDecl.fields.map(\.number)),
            usedNames: Set(newDecl.fields.map(\.name)), owner: owner, location: newDecl.location)
    }

    private func describe(_ value: DefaultValue?) -> String {
        value.map { $0.description } ?? "the zero value"
    }

    /// Reports a type change, if any. Returns whether one was reported.
    private mutating func compareTypes(
        _ oldType: TypeRef, _ newType: TypeRef, path: String, what: String,
        at location: SourceLocation
    ) -> Bool {
        guard oldType != newType else { return false }
        switch (oldType, newType) {
        case (.array(let a), .array(let b)):
            return compareTypes(a, b, path: path, what: "elements of \(what)", at: location)
        case (.map(let ak, let av), .map(let bk, let bv)):
            let key = compareTypes(ak, bk, path: path, what: "keys of \(what)", at: location)
            let value = compareTypes(av, bv, path: path, what: "values of \(what)", at: location)
            return key || value
        default:
            break
        }
        if let oldName = oldType.name, let newName = newType.name, sameMembers(oldName, newName) {
            add(.typeRenamed, path, "\(what) now uses '\(newName)', which has the same members as '\(oldName)'", at: location)
            return true
        }
        let text = "type of \(what) changed from \(oldType) to \(newType)"
        // Varint integers widen and narrow; a fixed-width integer changes its wire type with
        // its width (Fixed32 to Fixed64), or keeps it beside a float (Fixed64 to Float64).
        if let a = oldType.scalar, let b = newType.scalar, a.isInteger, b.isInteger, a.wireType == .varint,
            b.wireType == .varint
        {
            if a.isSignedInteger != b.isSignedInteger {
                add(
                    .integerSignednessChanged, path, text + "; zigzag and plain varints decode to different numbers", at: location
                )
            } else if (b.bitWidth ?? 0) > (a.bitWidth ?? 0) {
                add(
                    .integerWidened, path, text + "; old readers reject values that do not fit \(a.rawValue)", at: location,
                    oldReader: .loud("invalidValue", "for values that do not fit \(a.rawValue)"))
            } else {
                add(
                    .integerNarrowed, path, text + "; new readers reject old values that do not fit \(b.rawValue)", at: location,
                    newReader: .loud("invalidValue", "for old values that do not fit \(b.rawValue)"))
            }
            return true
        }
        let oldWire = old.wireType(of: oldType)
        let newWire = new.wireType(of: newType)
        if oldWire != newWire {
            add(
                .fieldWireTypeChanged, path,
                text
                    + " (wire type \(oldWire.map(\.description) ?? "?") to \(newWire.map(\.description) ?? "?")); readers fail with a type mismatch",
                at: location,
                newReader: arrayEffect(writer: oldType, reader: newType),
                oldReader: arrayEffect(writer: newType, reader: oldType))
        } else {
            add(
                .fieldTypeChanged, path, text + " with the same wire type; readers misinterpret the bytes", at: location,
                newReader: arrayEffect(writer: oldType, reader: newType)
                    ?? Self.sameWireTypeEffect(writer: oldType, reader: newType),
                oldReader: arrayEffect(writer: newType, reader: oldType)
                    ?? Self.sameWireTypeEffect(writer: newType, reader: oldType))
        }
        return true
    }

    /// What a reader does when one side is an array of the other's type, where it differs from
    /// the rule's effect: an array reader takes a single value as a one-element array; a single
    /// value reader of unpacked elements keeps the last one, and of packed ones throws.
    private func arrayEffect(writer: TypeRef, reader: TypeRef) -> ReaderEffect? {
        if case .array(let element) = reader, element == writer {
            return .decodes("a single value reads as a one-element array")
        }
        if case .array(let element) = writer, element == reader {
            let packed = old.isPacked(element) || new.isPacked(element)
            return packed
                ? .loud("typeMismatch", "for a non-empty array, written packed")
                : .silent("only the last element of the array is kept")
        }
        return nil
    }

    /// What a reader of type `reader` does with a value written as `writer` when both share a
    /// wire type, where it differs from ``CompatibilityRule/fieldTypeChanged``'s effect.
    private static func sameWireTypeEffect(writer: TypeRef, reader: TypeRef) -> ReaderEffect? {
        switch (writer.scalar, reader.scalar) {
        case (.string?, .bytes?): .decodes("the text's UTF-8 bytes")
        case (.bytes?, .string?): .loud("invalidUTF8", "for bytes that are not UTF-8; UTF-8 bytes decode as text")
        default: nil
        }
    }

    /// Whether `oldName` in the old set and `newName` in the new set are the same kind of
    /// declaration with the same canonical members (their blocks without the first line).
    private func sameMembers(_ oldName: String, _ newName: String) -> Bool {
        guard let oldDecl = old.declaration(named: oldName), let newDecl = new.declaration(named: newName),
            oldDecl.keyword == newDecl.keyword
        else { return false }
        let oldBody = CanonicalForm.block(oldDecl, in: old).split(separator: "\n").dropFirst()
        let newBody = CanonicalForm.block(newDecl, in: new).split(separator: "\n").dropFirst()
        if case .message(let a) = oldDecl, case .message(let b) = newDecl, a.typeID != b.typeID { return false }
        return oldBody.elementsEqual(newBody)
    }

    private mutating func compareReservations(
        _ oldReserved: [ReservedDecl], _ newReserved: [ReservedDecl], used: Set<UInt64>,
        usedNames: Set<String>, owner: String, location: SourceLocation
    ) {
        var covering = newReserved.flatMap(\.numberRanges)
        for range in oldReserved.flatMap(\.numberRanges) {
            guard !isCovered(range, by: covering, used: used) else { continue }
            let text = range.lowerBound == range.upperBound ? "\(range.lowerBound)" : "\(range.lowerBound)...\(range.upperBound)"
            add(.reservationDropped, owner, "reserved number \(text) of '\(owner)' is no longer reserved", at: location)
            covering.append(range)
        }
        for name in oldReserved.flatMap(\.names) where !newReserved.reserves(name: name) && !usedNames.contains(name) {
            add(.reservationDropped, owner, "reserved name '\(name)' of '\(owner)' is no longer reserved", at: location)
        }
    }

    /// Whether every number of `range` is in `ranges` or `used`. Walks merged intervals, so
    /// huge ranges cost nothing extra.
    private func isCovered(_ range: ClosedRange<UInt64>, by ranges: [ClosedRange<UInt64>], used: Set<UInt64>) -> Bool {
        let intervals = (ranges + used.map { $0...$0 }).sorted { $0.lowerBound < $1.lowerBound }
        var next = range.lowerBound
        for interval in intervals where interval.upperBound >= next {
            if interval.lowerBound > next { return false }
            if interval.upperBound >= range.upperBound { return true }
            // Safe because interval.upperBound < range.upperBound <= UInt64.max here, so + 1 cannot overflow.
            next = interval.upperBound + 1
        }
        return false
    }

    // MARK: Enums and unions

    private mutating func compareEnums(_ oldDecl: EnumDecl, _ newDecl: EnumDecl) {
        let owner = newDecl.name
        let match = MemberMatch(old: oldDecl.cases, new: newDecl.cases)
        for (oldCase, newCase) in match.common where newCase.name != oldCase.name {
            add(
                .enumCaseRenamed, "\(owner).\(newCase.name)",
                "enum case \(newCase.number) was renamed from '\(oldCase.name)' to '\(newCase.name)'", at: newCase.location)
        }
        for (oldCase, newCase) in match.renumbered {
            add(
                .enumCaseRenumbered, "\(owner).\(newCase.name)",
                "enum case '\(newCase.name)' moved from number \(oldCase.number) to \(newCase.number)", at: newCase.location)
        }
        for oldCase in match.removed {
            let reserved = newDecl.reserved.reserves(number: oldCase.number)
            add(
                .enumCaseRemoved, "\(owner).\(oldCase.name)",
                "enum case \(oldCase.number) '\(oldCase.name)' was removed\(reserved ? "" : " without reserving its number"); new readers keep it as an unknown value",
                at: newDecl.location)
        }
        for newCase in match.added {
            add(
                .enumCaseAdded, "\(owner).\(newCase.name)",
                "enum case \(newCase.number) '\(newCase.name)' was added; old readers keep it as an unknown value",
                at: newCase.location)
        }
        compareReservations(
            oldDecl.reserved, newDecl.reserved, used: Set(newDecl.cases.map(\.number)),
            usedNames: Set(newDecl.cases.map(\.name)), owner: owner, location: newDecl.location)
    }

    private mutating func compareUnions(_ oldDecl: UnionDecl, _ newDecl: UnionDecl) {
        let owner = newDecl.name
        let match = MemberMatch(old: oldDecl.cases, new: newDecl.cases)
        for (oldCase, newCase) in match.common {
            let path = "\(owner).\(newCase.name)"
            if newCase.name != oldCase.name {
                add(
                    .unionCaseRenamed, path,
                    "union case \(newCase.number) was renamed from '\(oldCase.name)' to '\(newCase.name)'",
                    at: newCase.location)
            }
            if oldCase.payload != newCase.payload {
                let oldWire = oldCase.payload.flatMap { old.wireType(of: $0) } ?? .len
                let newWire = newCase.payload.flatMap { new.wireType(of: $0) } ?? .len
                add(
                    .unionCasePayloadChanged, path,
                    "payload of union case \(newCase.number) '\(newCase.name)' changed from \(oldCase.payload.map { "\($0)" } ?? "none") to \(newCase.payload.map { "\($0)" } ?? "none")",
                    at: newCase.payloadLocation,
                    newReader: oldWire == newWire ? nil : .loud("typeMismatch", "for values that use the case"),
                    oldReader: oldWire == newWire ? nil : .loud("typeMismatch", "for values that use the case"))
            }
        }
        for (oldCase, newCase) in match.renumbered {
            add(
                .unionCaseRenumbered, "\(owner).\(newCase.name)",
                "union case '\(newCase.name)' moved from number \(oldCase.number) to \(newCase.number)", at: newCase.location)
        }
        for oldCase in match.removed {
            add(
                .unionCaseRemoved, "\(owner).\(oldCase.name)",
                "union case \(oldCase.number) '\(oldCase.name)' was removed; new readers reject old values that use it",
                at: newDecl.location)
        }
        for newCase in match.added {
            add(
                .unionCaseAdded, "\(owner).\(newCase.name)",
                "union case \(newCase.number) '\(newCase.name)' was added; old readers reject values that use it",
                at: newCase.location)
        }
        compareReservations(
            oldDecl.reserved, newDecl.reserved, used: Set(newDecl.cases.map(\.number)),
            usedNames: Set(newDecl.cases.map(\.name)), owner: owner, location: newDecl.location)
    }
}
