import GroupWireJSON

/// The result of comparing two spec versions: every change and the verdict.
public struct CompatibilityReport: Sendable, Hashable {
    /// Identifies one side of the comparison.
    public struct Side: Sendable, Hashable {
        /// The package name (empty when the spec had no package line).
        public var package: String
        /// The spec version (0 when the spec had no package line).
        public var version: UInt64
        /// The spec fingerprint.
        public var fingerprint: Fingerprint

        /// Creates a side.
        public init(package: String, version: UInt64, fingerprint: Fingerprint) {
            self.package = package
            self.version = version
            self.fingerprint = fingerprint
        }

        /// Describes `spec`.
        public init(spec: SpecSet) {
            self.init(package: spec.package?.name ?? "", version: spec.package?.version ?? 0, fingerprint: spec.fingerprint)
        }
    }

    /// Whether two versions can talk.
    public enum Verdict: String, Sendable, Hashable {
        /// No breaking change (there may be warnings).
        case compatible
        /// At least one breaking change.
        case breaking
    }

    /// The old version.
    public var old: Side
    /// The new version.
    public var new: Side
    /// Every change, sorted by path, then rule id, then message.
    public var changes: [SpecChange]

    /// Creates a report.
    public init(old: Side, new: Side, changes: [SpecChange]) {
        self.old = old
        self.new = new
        self.changes = changes
    }

    /// `breaking` if any change is breaking, else `compatible`.
    public var verdict: Verdict {
        changes.contains { $0.severity == .breaking } ? .breaking : .compatible
    }

    /// The number of changes of `severity`.
    public func count(_ severity: ChangeSeverity) -> Int {
        changes.filter { $0.severity == severity }.count
    }

    /// The text rendering (format in Spec/LANGUAGE.md), ending with a newline.
    public func renderText() -> String {
        var lines = ["compatibility: \(old.package) \(old.version) (\(old.fingerprint)) -> \(new.package) \(new.version) (\(new.fingerprint))"]
        for change in changes {
            let name = change.severity.rawValue
            let padded = name + String(repeating: " ", count: max(0, 8 - name.count))
            lines.append("\(change.rule.id) \(padded) \(change.rule.name) \(change.path): \(change.message)")
            var detail = "    breaks: \(change.direction.rawValue), failure: \(change.failure.rawValue)"
            if let location = change.location { detail += ", at \(location)" }
            lines.append(detail)
        }
        lines.append("verdict: \(verdict.rawValue) (\(count(.breaking)) breaking, \(count(.warning)) warning, \(count(.info)) info)")
        return lines.joined(separator: "\n") + "\n"
    }

    /// The JSON rendering (format in Spec/LANGUAGE.md): keys sorted, two-space indent,
    /// ending with a newline.
    public func renderJSON() -> String {
        func side(_ side: Side) -> JSONValue {
            .object(["fingerprint": .string(side.fingerprint.description), "package": .string(side.package),
                     "version": .uint(side.version)])
        }
        let changeValues: [JSONValue] = changes.map { change in
            .object([
                "breaks": .string(change.direction.rawValue),
                "failure": .string(change.failure.rawValue),
                "location": change.location.map { .string($0.description) } ?? .null,
                "message": .string(change.message),
                "path": .string(change.path),
                "rule": .string(change.rule.id),
                "ruleName": .string(change.rule.name),
                "severity": .string(change.severity.rawValue),
            ])
        }
        let root = JSONValue.object([
            "changes": .array(changeValues),
            "new": side(new),
            "old": side(old),
            "summary": .object(["breaking": .int(Int64(count(.breaking))), "info": .int(Int64(count(.info))),
                                "warning": .int(Int64(count(.warning)))]),
            "verdict": .string(verdict.rawValue),
        ])
        return root.rendered() + "\n"
    }
}

