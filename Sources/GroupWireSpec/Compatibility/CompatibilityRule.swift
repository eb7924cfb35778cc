/// One rule of the compatibility checker, with a stable id (`GW001`...) and name.
///
/// Each rule says what happens in both directions: a new reader of bytes an old writer
/// wrote, and an old reader of bytes a new writer wrote (``ReaderEffect``). Ids and names
/// never change meaning; new rules get new ids. The table with every rule is in
/// Spec/LANGUAGE.md ("Compatibility rules").
public struct CompatibilityRule: Sendable, Hashable, CustomStringConvertible {
    /// The stable id, e.g. `GW004`.
    public let id: String
    /// The stable kebab-case name, e.g. `field-wire-type-changed`.
    public let name: String
    /// How serious a change of this rule is.
    public let severity: ChangeSeverity
    /// What a reader on the new version does with bytes written by the old version.
    public let newReaderOldData: ReaderEffect
    /// What a reader on the old version does with bytes written by the new version.
    public let oldReaderNewData: ReaderEffect

    private init(
        _ id: String, _ name: String, _ severity: ChangeSeverity,
        newReaderOldData: ReaderEffect, oldReaderNewData: ReaderEffect
    ) {
        self.id = id
        self.name = name
        self.severity = severity
        self.newReaderOldData = newReaderOldData
        self.oldReaderNewData = oldReaderNewData
    }

    /// The pairings in which a reader fails (loudly or silently).
    public var direction: BreakDirection {
        BreakDirection(newReaderFails: newReaderOldData.fails, oldReaderFails: oldReaderNewData.fails)
    }

    /// The rule with `id` (`GW004`) or `name` (`field-wire-type-changed`), if any.
    public static func named(_ idOrName: String) -> CompatibilityRule? {
        all.first { $0.id == idOrName.uppercased() || $0.name == idOrName }
    }

    /// `GW004 field-wire-type-changed`.
    public var description: String { "\(id) \(name)" }

    /// A field was removed and neither its number nor its name was reserved.
    public static let fieldRemovedNotReserved = CompatibilityRule(
        "GW001", "field-removed-not-reserved", .warning,
        newReaderOldData: .decodes,
        oldReaderNewData: .defaulted("the field is no longer written; old readers use its default (or nil)"))

    /// A field was removed and its number reserved.
    public static let fieldRemoved = CompatibilityRule(
        "GW002", "field-removed", .info,
        newReaderOldData: .decodes,
        oldReaderNewData: .defaulted("the field is no longer written; old readers use its default (or nil)"))

    /// A field was added.
    public static let fieldAdded = CompatibilityRule(
        "GW003", "field-added", .info,
        newReaderOldData: .defaulted("old writers do not write the field; new readers use its default (or nil)"),
        oldReaderNewData: .decodes)

    /// A field's type changed to one with another wire type.
    public static let fieldWireTypeChanged = CompatibilityRule(
        "GW004", "field-wire-type-changed", .breaking,
        newReaderOldData: .loud("typeMismatch", "when the field is present"),
        oldReaderNewData: .loud("typeMismatch", "when the field is present"))

    /// A field's type changed but its wire type did not: bytes are read with the wrong meaning.
    public static let fieldTypeChanged = CompatibilityRule(
        "GW005", "field-type-changed", .breaking,
        newReaderOldData: .silent(
            "the bytes are read as the other type (or fail with invalidValue or invalidUTF8 where they do not fit it)"),
        oldReaderNewData: .silent(
            "the bytes are read as the other type (or fail with invalidValue or invalidUTF8 where they do not fit it)"))

    /// An integer field was widened with the same signedness (Int32 → Int64).
    public static let integerWidened = CompatibilityRule(
        "GW006", "integer-widened", .warning,
        newReaderOldData: .decodes,
        oldReaderNewData: .loud("invalidValue", "for values that do not fit the old type"))

    /// An integer field was narrowed with the same signedness (Int64 → Int32).
    public static let integerNarrowed = CompatibilityRule(
        "GW007", "integer-narrowed", .breaking,
        newReaderOldData: .loud("invalidValue", "for old values that do not fit the new type"),
        oldReaderNewData: .decodes)

    /// An integer field changed between signed (zigzag) and unsigned (plain).
    public static let integerSignednessChanged = CompatibilityRule(
        "GW008", "integer-signedness-changed", .breaking,
        newReaderOldData: .silent("zigzag and plain varints decode to different numbers"),
        oldReaderNewData: .silent("zigzag and plain varints decode to different numbers"))

    /// A field became optional or stopped being optional.
    public static let fieldOptionalityChanged = CompatibilityRule(
        "GW009", "field-optionality-changed", .breaking,
        newReaderOldData: .silent("nil and the default are confused: one side omits what the other reads as present"),
        oldReaderNewData: .silent("nil and the default are confused: one side omits what the other reads as present"))

    /// A new field uses a number the old version reserved.
    public static let fieldNumberReused = CompatibilityRule(
        "GW010", "field-number-reused", .breaking,
        newReaderOldData: .defaulted(
            "old writers do not write the field; bytes from versions before the old one, which used the number for the removed field, are misread"
        ),
        oldReaderNewData: .decodes)

    /// A field kept its name but moved to another number.
    public static let fieldRenumbered = CompatibilityRule(
        "GW011", "field-renumbered", .breaking,
        newReaderOldData: .silent("the value is written under the other number; the reader skips it and uses the default"),
        oldReaderNewData: .silent("the value is written under the other number; the reader skips it and uses the default"))

    /// A field kept its number but changed its name (source-breaking only).
    public static let fieldRenamed = CompatibilityRule(
        "GW012", "field-renamed", .warning,
        newReaderOldData: .decodes,
        oldReaderNewData: .decodes)

    /// A field's default changed: writers omit values equal to the default.
    public static let defaultChanged = CompatibilityRule(
        "GW013", "default-changed", .breaking,
        newReaderOldData: .silent("a value equal to the writer's default is omitted and read as the reader's default"),
        oldReaderNewData: .silent("a value equal to the writer's default is omitted and read as the reader's default"))

    /// A message's type id changed.
    public static let typeIDChanged = CompatibilityRule(
        "GW014", "type-id-changed", .breaking,
        newReaderOldData: .loud("unknownType", "for every message of the type"),
        oldReaderNewData: .loud("unknownType", "for every message of the type"))

    /// A message was removed.
    public static let messageRemoved = CompatibilityRule(
        "GW015", "message-removed", .breaking,
        newReaderOldData: .loud("unknownType", "for every message of the type"),
        oldReaderNewData: .decodes)

    /// A message was added (old peers reject it with unknownType if it is sent to them).
    public static let messageAdded = CompatibilityRule(
        "GW016", "message-added", .info,
        newReaderOldData: .decodes,
        oldReaderNewData: .loud("unknownType", "for every message of the type; negotiation keeps senders from sending it"))

    /// A message kept its type id but changed its name (source-breaking only).
    public static let messageRenamed = CompatibilityRule(
        "GW017", "message-renamed", .warning,
        newReaderOldData: .decodes,
        oldReaderNewData: .decodes)

    /// An enum case was added (old readers keep it as an unknown value).
    public static let enumCaseAdded = CompatibilityRule(
        "GW018", "enum-case-added", .info,
        newReaderOldData: .decodes,
        oldReaderNewData: .decodes("the new case is kept as an unknown number"))

    /// An enum case was removed (new readers keep old values as unknown).
    public static let enumCaseRemoved = CompatibilityRule(
        "GW019", "enum-case-removed", .warning,
        newReaderOldData: .decodes("the old case is kept as an unknown number"),
        oldReaderNewData: .decodes)

    /// An enum case kept its name but moved to another number.
    public static let enumCaseRenumbered = CompatibilityRule(
        "GW020", "enum-case-renumbered", .breaking,
        newReaderOldData: .silent("the case is written under the other number and read as another or an unknown case"),
        oldReaderNewData: .silent("the case is written under the other number and read as another or an unknown case"))

    /// An enum case kept its number but changed its name (source-breaking only).
    public static let enumCaseRenamed = CompatibilityRule(
        "GW021", "enum-case-renamed", .warning,
        newReaderOldData: .decodes,
        oldReaderNewData: .decodes)

    /// A union case was added (old readers reject values that use it).
    public static let unionCaseAdded = CompatibilityRule(
        "GW022", "union-case-added", .warning,
        newReaderOldData: .decodes,
        oldReaderNewData: .loud("invalidValue", "for values that use the new case"))

    /// A union case was removed (new readers reject old values that use it).
    public static let unionCaseRemoved = CompatibilityRule(
        "GW023", "union-case-removed", .breaking,
        newReaderOldData: .loud("invalidValue", "for old values that use the removed case"),
        oldReaderNewData: .decodes)

    /// A union case's payload type changed (or a payload was added or dropped).
    public static let unionCasePayloadChanged = CompatibilityRule(
        "GW024", "union-case-payload-changed", .breaking,
        newReaderOldData: .silent("the payload is read as the other type"),
        oldReaderNewData: .silent("the payload is read as the other type"))

    /// A union case kept its name but moved to another number.
    public static let unionCaseRenumbered = CompatibilityRule(
        "GW025", "union-case-renumbered", .breaking,
        newReaderOldData: .loud("invalidValue", "for values that use the case"),
        oldReaderNewData: .loud("invalidValue", "for values that use the case"))

    /// A union case kept its number but changed its name (source-breaking only).
    public static let unionCaseRenamed = CompatibilityRule(
        "GW026", "union-case-renamed", .warning,
        newReaderOldData: .decodes,
        oldReaderNewData: .decodes)

    /// A declaration changed kind (struct, enum, union, message).
    public static let declarationKindChanged = CompatibilityRule(
        "GW027", "declaration-kind-changed", .breaking,
        newReaderOldData: .loud(
            "typeMismatch", "where the value is present (another error, or a wrong value, when both kinds are LEN)"),
        oldReaderNewData: .loud(
            "typeMismatch", "where the value is present (another error, or a wrong value, when both kinds are LEN)"))

    /// A struct, enum or union was removed (uses of it are reported as field changes).
    public static let declarationRemoved = CompatibilityRule(
        "GW028", "declaration-removed", .info,
        newReaderOldData: .decodes,
        oldReaderNewData: .decodes)

    /// A reserved number or name is no longer reserved.
    public static let reservationDropped = CompatibilityRule(
        "GW029", "reservation-dropped", .warning,
        newReaderOldData: .decodes,
        oldReaderNewData: .decodes)

    /// The package name changed.
    public static let packageRenamed = CompatibilityRule(
        "GW030", "package-renamed", .warning,
        newReaderOldData: .decodes,
        oldReaderNewData: .decodes)

    /// The wire shape changed but the version did not increase.
    public static let versionNotIncreased = CompatibilityRule(
        "GW031", "version-not-increased", .warning,
        newReaderOldData: .decodes,
        oldReaderNewData: .decodes)

    /// A field or payload now refers to a differently named declaration of the same kind
    /// whose members are identical (a rename; source-breaking only).
    public static let typeRenamed = CompatibilityRule(
        "GW032", "type-renamed", .warning,
        newReaderOldData: .decodes,
        oldReaderNewData: .decodes)

    /// Every rule, by id.
    public static let all: [CompatibilityRule] = [
        fieldRemovedNotReserved, fieldRemoved, fieldAdded, fieldWireTypeChanged, fieldTypeChanged,
        integerWidened, integerNarrowed, integerSignednessChanged, fieldOptionalityChanged, fieldNumberReused,
        fieldRenumbered, fieldRenamed, defaultChanged, typeIDChanged, messageRemoved, messageAdded, messageRenamed,
        enumCaseAdded, enumCaseRemoved, enumCaseRenumbered, enumCaseRenamed, unionCaseAdded, unionCaseRemoved,
        unionCasePayloadChanged, unionCaseRenumbered, unionCaseRenamed, declarationKindChanged, declarationRemoved,
        reservationDropped, packageRenamed, versionNotIncreased, typeRenamed,
    ]
}

/// How serious a change is. Only `breaking` changes make the verdict breaking.
public enum ChangeSeverity: String, Sendable, Hashable, CaseIterable {
    /// Safe by design.
    case info
    /// Safe for every value both versions can express, but a reader fails on values only the
    /// new version can write (a wider range, a new union case), or the change is risky for a
    /// later version or source-breaking for generated code.
    case warning
    /// A reader on one version fails on values the other version writes in normal use.
    case breaking
}

/// Which writer → reader pairing a change affects: the pairings whose reader fails.
public enum BreakDirection: String, Sendable, Hashable, CaseIterable {
    /// Neither.
    case none
    /// Bytes written by the old version, read by the new one.
    case oldWriterNewReader = "old-writer-new-reader"
    /// Bytes written by the new version, read by the old one.
    case newWriterOldReader = "new-writer-old-reader"
    /// Both pairings.
    case both

    /// The direction in which the failing readers are.
    public init(newReaderFails: Bool, oldReaderFails: Bool) {
        switch (newReaderFails, oldReaderFails) {
        case (true, true): self = .both
        case (true, false): self = .oldWriterNewReader
        case (false, true): self = .newWriterOldReader
        case (false, false): self = .none
        }
    }
}
