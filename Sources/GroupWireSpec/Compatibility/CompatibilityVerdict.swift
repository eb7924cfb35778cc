/// Whether a reader decodes what a writer on another spec version sends, for one message type.
public enum CompatibilityVerdict: Sendable, Hashable {
    /// Both versions declare the message with the same canonical shape (same fingerprint).
    case same
    /// The shapes differ, but the reader decodes every value the writer meant (fields the
    /// writer does not know read as their defaults).
    case compatible
    /// The reader fails, loudly or silently, for some values; the changes say how.
    case incompatible([ReaderFailure])

    /// Whether the reader decodes what the writer meant.
    public var isCompatible: Bool {
        if case .incompatible = self { return false }
        return true
    }

    /// `same`, `compatible` or `incompatible`.
    public var name: String {
        switch self {
        case .same: "same"
        case .compatible: "compatible"
        case .incompatible: "incompatible"
        }
    }
}

/// One change seen from one reader: the rule, where, and what the reader does.
public struct ReaderFailure: Sendable, Hashable {
    /// The rule that classifies the change.
    public var rule: CompatibilityRule
    /// `Declaration` or `Declaration.member`.
    public var path: String
    /// What the reader does with the writer's bytes.
    public var effect: ReaderEffect

    /// Creates a failure.
    public init(rule: CompatibilityRule, path: String, effect: ReaderEffect) {
        self.rule = rule
        self.path = path
        self.effect = effect
    }
}

/// One message type seen from both sides of a comparison.
public struct MessageCompatibility: Sendable, Hashable {
    /// The type id on the wire.
    public var typeID: UInt64
    /// The message's name in the old version, or `nil` when it has no message with this id.
    public var oldName: String?
    /// The message's name in the new version, or `nil` when it has no message with this id.
    public var newName: String?
    /// A new reader of bytes an old writer sends; `nil` when the old version cannot send it.
    public var newReaderOldData: CompatibilityVerdict?
    /// An old reader of bytes a new writer sends; `nil` when the new version cannot send it.
    public var oldReaderNewData: CompatibilityVerdict?

    /// Creates an entry.
    public init(
        typeID: UInt64, oldName: String?, newName: String?,
        newReaderOldData: CompatibilityVerdict?, oldReaderNewData: CompatibilityVerdict?
    ) {
        self.typeID = typeID
        self.oldName = oldName
        self.newName = newName
        self.newReaderOldData = newReaderOldData
        self.oldReaderNewData = oldReaderNewData
    }

    /// The verdicts for every message type of `old` and `new`, sorted by type id, from the
    /// changes between them.
    static func all(old: SpecSet, new: SpecSet, changes: [SpecChange]) -> [MessageCompatibility] {
        let typeIDs = Set(old.messages.map(\.typeID)).union(new.messages.map(\.typeID)).sorted()
        return typeIDs.map { typeID in
            let oldMessage = old.message(typeID: typeID)
            let newMessage = new.message(typeID: typeID)
            let relevant = relevantChanges(old: oldMessage, in: old, new: newMessage, in: new, changes: changes)
            let oldFingerprint = oldMessage.flatMap { old.fingerprint(ofMessage: $0.name) }
            let same = oldFingerprint != nil && oldFingerprint == newMessage.flatMap { new.fingerprint(ofMessage: $0.name) }
            let names = Set([oldMessage?.name, newMessage?.name].compactMap { $0 })
            return MessageCompatibility(
                typeID: typeID, oldName: oldMessage?.name, newName: newMessage?.name,
                newReaderOldData: oldMessage == nil
                    ? nil
                    : verdict(
                        relevant, same: same, readerKnowsType: newMessage != nil, names: names,
                        effect: \.newReaderOldData, fallback: .messageRemoved,
                        path: oldMessage?.name ?? ""),
                oldReaderNewData: newMessage == nil
                    ? nil
                    : verdict(
                        relevant, same: same, readerKnowsType: oldMessage != nil, names: names,
                        effect: \.oldReaderNewData, fallback: .messageAdded,
                        path: newMessage?.name ?? ""))
        }
    }

    /// The changes that touch a message: those of every declaration either version of it
    /// reaches (its own fields, nested structs, enums and unions).
    private static func relevantChanges(
        old oldMessage: MessageDecl?, in old: SpecSet, new newMessage: MessageDecl?, in new: SpecSet,
        changes: [SpecChange]
    ) -> [SpecChange] {
        var names = Set(oldMessage.map { old.closure(of: $0.name) } ?? [])
        names.formUnion(newMessage.map { new.closure(of: $0.name) } ?? [])
        return changes.filter { names.contains($0.declarationName) }
    }

    private static func verdict(
        _ changes: [SpecChange], same: Bool, readerKnowsType: Bool, names: Set<String>,
        effect: KeyPath<SpecChange, ReaderEffect>, fallback: CompatibilityRule,
        path: String
    ) -> CompatibilityVerdict {
        // A reader without the type id rejects every message of it; only changes to the message itself explain why.
        let candidates = readerKnowsType ? changes : changes.filter { names.contains($0.path) }
        var failures = candidates.filter { $0[keyPath: effect].fails }
            .map { ReaderFailure(rule: $0.rule, path: $0.path, effect: $0[keyPath: effect]) }
        if !readerKnowsType && failures.isEmpty {
            failures = [
                ReaderFailure(
                    rule: fallback, path: path,
                    effect: fallback.newReaderOldData.fails
                        ? fallback.newReaderOldData : fallback.oldReaderNewData)
            ]
        }
        if !failures.isEmpty { return .incompatible(failures) }
        return same ? .same : .compatible
    }
}
