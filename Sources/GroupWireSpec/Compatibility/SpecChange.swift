/// One difference between two versions of a spec, classified by a ``CompatibilityRule``.
public struct SpecChange: Sendable, Hashable {
    /// The rule that classifies the change.
    public var rule: CompatibilityRule
    /// The effective direction (usually the rule's; some changes refine it).
    public var direction: BreakDirection
    /// The effective failure mode (usually the rule's).
    public var failure: FailureMode
    /// What changed: `Declaration` or `Declaration.member`, or `package`.
    public var path: String
    /// A one-line explanation.
    public var message: String
    /// Where the change is in the new spec (or the old one, for removals).
    public var location: SourceLocation?

    /// Creates a change with the rule's direction and failure mode unless given.
    public init(_ rule: CompatibilityRule, path: String, _ message: String, location: SourceLocation?,
                direction: BreakDirection? = nil, failure: FailureMode? = nil) {
        self.rule = rule
        self.direction = direction ?? rule.direction
        self.failure = failure ?? rule.failure
        self.path = path
        self.message = message
        self.location = location
    }

    /// The rule's severity.
    public var severity: ChangeSeverity { rule.severity }
}
