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
    /// Every message type of either version, sorted by type id, with the verdict in both
    /// directions (the per-message view of ``changes``).
    public var messages: [MessageCompatibility]

    /// Creates a report.
    public init(old: Side, new: Side, changes: [SpecChange], messages: [MessageCompatibility] = []) {
        self.old = old
        self.new = new
        self.changes = changes
        self.messages = messages
    }

    /// `breaking` if any change is breaking, else `compatible`.
    public var verdict: Verdict { verdict(strict: false) }

    /// `breaking` if any change is breaking (or, when `strict`, a warning), else `compatible`.
    public func verdict(strict: Bool) -> Verdict {
        changes.contains { $0.severity == .breaking || (strict && $0.severity == .warning) } ? .breaking : .compatible
    }

    /// The report without the changes of `rules`: the verdict and the message verdicts no
    /// longer count them (a message left without failures becomes `compatible`).
    public func ignoring(_ rules: Set<CompatibilityRule>) -> CompatibilityReport {
        func filtered(_ verdict: CompatibilityVerdict?) -> CompatibilityVerdict? {
            guard case .incompatible(let failures)? = verdict else { return verdict }
            let kept = failures.filter { !rules.contains($0.rule) }
            return kept.isEmpty ? .compatible : .incompatible(kept)
        }
        return CompatibilityReport(
            old: old, new: new, changes: changes.filter { !rules.contains($0.rule) },
            messages: messages.map {
                MessageCompatibility(
                    typeID: $0.typeID, oldName: $0.oldName, newName: $0.newName,
                    newReaderOldData: filtered($0.newReaderOldData), oldReaderNewData: filtered($0.oldReaderNewData))
            })
    }

    /// The number of changes of `severity`.
    public func count(_ severity: ChangeSeverity) -> Int {
        changes.filter { $0.severity == severity }.count
    }

    /// The text rendering (format in Spec/LANGUAGE.md), ending with a newline.
    public func renderText() -> String {
        var lines = [
            "compatibility: \(old.package) \(old.version) (\(old.fingerprint)) -> \(new.package) \(new.version) (\(new.fingerprint))"
        ]
        for change in changes {
            let name = change.severity.rawValue
            let padded = name + String(repeating: " ", count: max(0, 8 - name.count))
            lines.append("\(change.rule.id) \(padded) \(change.rule.name) \(change.path): \(change.message)")
            var detail =
                "    new reader of old data: \(change.newReaderOldData); old reader of new data: \(change.oldReaderNewData)"
            if let location = change.location { detail += "; at \(location)" }
            lines.append(detail)
        }
        for message in messages where message.newReaderOldData != .same || message.oldReaderNewData != .same {
            lines.append(
                "message \(message.typeID) \(message.displayName): new reader of old data: \(Self.summary(message.newReaderOldData)); old reader of new data: \(Self.summary(message.oldReaderNewData))"
            )
        }
        lines.append(
            "verdict: \(verdict.rawValue) (\(count(.breaking)) breaking, \(count(.warning)) warning, \(count(.info)) info)")
        return lines.joined(separator: "\n") + "\n"
    }

    /// `same`, `compatible`, `incompatible (GW006, GW013)` or `not sent`.
    private static func summary(_ verdict: CompatibilityVerdict?) -> String {
        switch verdict {
        case nil: "not sent"
        case .incompatible(let failures)?:
            "incompatible (" + Array(Set(failures.map(\.rule.id))).sorted().joined(separator: ", ") + ")"
        case let other?: other.name
        }
    }

    /// The JSON rendering (format in Spec/LANGUAGE.md): keys sorted, two-space indent,
    /// ending with a newline.
    public func renderJSON() -> String {
        func side(_ side: Side) -> JSONValue {
            .members([
                ("fingerprint", .string(side.fingerprint.description)), ("package", .string(side.package)),
                ("version", .uint(side.version)),
            ])
        }
        func effect(_ effect: ReaderEffect) -> JSONValue {
            .members([
                ("detail", .string(effect.detail)), ("error", effect.errorKind.map(JSONValue.string) ?? .null),
                ("failure", .string(effect.failure.rawValue)),
            ])
        }
        func verdictValue(_ verdict: CompatibilityVerdict?) -> JSONValue {
            guard let verdict else { return .null }
            var failures: [JSONValue] = []
            if case .incompatible(let list) = verdict {
                failures = list.map {
                    .members([("effect", effect($0.effect)), ("path", .string($0.path)), ("rule", .string($0.rule.id))])
                }
            }
            return .members([("failures", .array(failures)), ("verdict", .string(verdict.name))])
        }
        let messageValues: [JSONValue] = messages.map { message in
            .members([
                ("newName", message.newName.map(JSONValue.string) ?? .null),
                ("newReaderOldData", verdictValue(message.newReaderOldData)),
                ("oldName", message.oldName.map(JSONValue.string) ?? .null),
                ("oldReaderNewData", verdictValue(message.oldReaderNewData)),
                ("typeID", .uint(message.typeID)),
            ])
        }
        let changeValues: [JSONValue] = changes.map { change in
            .members([
                ("breaks", .string(change.direction.rawValue)),
                ("location", change.location.map { .string($0.description) } ?? .null),
                ("message", .string(change.message)),
                ("newReaderOldData", effect(change.newReaderOldData)),
                ("oldReaderNewData", effect(change.oldReaderNewData)),
                ("path", .string(change.path)),
                ("rule", .string(change.rule.id)),
                ("ruleName", .string(change.rule.name)),
                ("severity", .string(change.severity.rawValue)),
            ])
        }
        let root = JSONValue.members([
            ("changes", .array(changeValues)),
            ("messages", .array(messageValues)),
            ("new", side(new)),
            ("old", side(old)),
            (
                "summary",
                .members([
                    ("breaking", .int(Int64(count(.breaking)))), ("info", .int(Int64(count(.info)))),
                    ("warning", .int(Int64(count(.warning)))),
                ])
            ),
            ("verdict", .string(verdict.rawValue)),
        ])
        return root.rendered() + "\n"
    }
}

extension CompatibilityReport {
    /// The GitHub Actions workflow-command rendering: one `::error` (breaking), `::warning`
    /// or `::notice` (info) line per change, then a summary line, each ending with a newline.
    ///
    /// A change located in one of `newFiles` carries `file`, `line` and `col`; a change located
    /// elsewhere (a removal, located in the old version) is annotated on `fallbackFile` without
    /// a line, its old location in the message.
    /// - Parameters:
    ///   - newFiles: the paths of the new version's files, as they appear in locations.
    ///   - fallbackFile: the file to annotate for changes outside `newFiles`.
    ///   - strict: whether warnings count as breaking (they are then `::error` lines).
    public func renderAnnotations(newFiles: Set<String>, fallbackFile: String, strict: Bool = false) -> String {
        var lines: [String] = []
        for change in changes {
            let command: String
            switch change.severity {
            case .breaking: command = "error"
            case .warning: command = strict ? "error" : "warning"
            case .info: command = "notice"
            }
            var message =
                "\(change.path): \(change.message) (new reader of old data: \(change.newReaderOldData); old reader of new data: \(change.oldReaderNewData))"
            var properties: [String]
            if let location = change.location, newFiles.contains(location.file) {
                properties = ["file=\(location.file)", "line=\(location.line)", "col=\(location.column)"]
            } else {
                properties = ["file=\(fallbackFile)"]
                if let location = change.location { message += " [old version at \(location)]" }
            }
            properties.append("title=\(change.rule.id) \(change.rule.name)")
            lines.append(
                "::\(command) " + properties.map(Self.escapeProperty).joined(separator: ",") + "::" + Self.escapeData(message))
        }
        let summary =
            "compatibility: \(verdict(strict: strict).rawValue) (\(count(.breaking)) breaking, \(count(.warning)) warning, \(count(.info)) info)"
        lines.append("::notice title=groupwire spec diff::" + Self.escapeData(summary))
        return lines.joined(separator: "\n") + "\n"
    }

    /// Escapes a workflow-command message: `%`, CR and LF.
    static func escapeData(_ text: String) -> String {
        text.replacingOccurrences(of: "%", with: "%25").replacingOccurrences(of: "\r", with: "%0D")
            .replacingOccurrences(of: "\n", with: "%0A")
    }

    /// Escapes a workflow-command property `key=value`: its value also escapes `:` and `,`.
    static func escapeProperty(_ property: String) -> String {
        guard let equals = property.firstIndex(of: "=") else { return property }
        let value = escapeData(String(property[property.index(after: equals)...]))
            .replacingOccurrences(of: ":", with: "%3A").replacingOccurrences(of: ",", with: "%2C")
        return String(property[...equals]) + value
    }
}

extension MessageCompatibility {
    /// The new name, with the old one when it differs: `Stroke (was Line)`.
    var displayName: String {
        switch (oldName, newName) {
        case (let old?, let new?) where old != new: "\(new) (was \(old))"
        default: newName ?? oldName ?? ""
        }
    }
}

extension JSONValue {
    /// An object from members listed in key order (the writer sorts keys anyway).
    fileprivate static func members(_ members: [(String, JSONValue)]) -> JSONValue {
        .object(Dictionary(members, uniquingKeysWith: { _, last in last }))
    }
}
