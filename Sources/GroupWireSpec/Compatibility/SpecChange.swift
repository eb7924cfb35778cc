/// One difference between two versions of a spec, classified by a ``CompatibilityRule``.
public struct SpecChange: Sendable, Hashable {
    /// The rule that classifies the change.
    public var rule: CompatibilityRule
    /// What a new reader does with old bytes (usually the rule's; some changes refine it).
    public var newReaderOldData: ReaderEffect
    /// What an old reader does with new bytes (usually the rule's; some changes refine it).
    public var oldReaderNewData: ReaderEffect
    /// What changed: `Declaration` or `Declaration.member`, or `package`.
    public var path: String
    /// A one-line explanation.
    public var message: String
    /// Where the change is in the new spec (or the old one, for removals).
    public var location: SourceLocation?

    /// Creates a change with the rule's effects unless given.
    public init(
        _ rule: CompatibilityRule, path: String, _ message: String, location: SourceLocation?,
        newReaderOldData: ReaderEffect? = nil, oldReaderNewData: ReaderEffect? = nil
    ) {
        self.rule = rule
        self.newReaderOldData = newReaderOldData ?? rule.newReaderOldData
        self.oldReaderNewData = oldReaderNewData ?? rule.oldReaderNewData
        self.path = path
        self.message = message
        self.location = location
    }

    /// The rule's severity.
    public var severity: ChangeSeverity { rule.severity }

    /// The pairings in which a reader fails.
    public var direction: BreakDirection {
        BreakDirection(newReaderFails: newReaderOldData.fails, oldReaderFails: oldReaderNewData.fails)
    }

    /// The declaration the change belongs to (the part of ``path`` before the first `.`).
    public var declarationName: String {
        String(path.prefix { $0 != "." })
    }
}
