/// One rule of the compatibility checker, with a stable id (`GW001`...) and name.
///
/// Ids and names never change meaning; new rules get new ids. The table with every rule's
/// severity, direction and failure mode is in Spec/LANGUAGE.md ("Compatibility rules").
public struct CompatibilityRule: Sendable, Hashable, CustomStringConvertible {
    /// The stable id, e.g. `GW004`.
    public let id: String
    /// The stable kebab-case name, e.g. `field-wire-type-changed`.
    public let name: String
    /// How serious a change of this rule is.
    public let severity: ChangeSeverity
    /// Which writer/reader pairing the change affects.
    public let direction: BreakDirection
    /// How the affected reader fails.
    public let failure: FailureMode

    private init(_ id: String, _ name: String, _ severity: ChangeSeverity, _ direction: BreakDirection, _ failure: FailureMode) {
        self.id = id
        self.name = name
        self.severity = severity
        self.direction = direction
        self.failure = failure
    }

    /// `GW004 field-wire-type-changed`.
    public var description: String { "\(id) \(name)" }

    /// A field was removed and neither its number nor its name was reserved.
    public static let fieldRemovedNotReserved = CompatibilityRule("GW001", "field-removed-not-reserved", .warning, .newWriterOldReader, .silent)
    /// A field was removed and its number reserved.
    public static let fieldRemoved = CompatibilityRule("GW002", "field-removed", .info, .newWriterOldReader, .silent)
    /// A field was added.
    public static let fieldAdded = CompatibilityRule("GW003", "field-added", .info, .none, .none)
    /// A field's type changed to one with another wire type.
    public static let fieldWireTypeChanged = CompatibilityRule("GW004", "field-wire-type-changed", .breaking, .both, .loud)
    /// A field's type changed but its wire type did not: bytes are read with the wrong meaning.
    public static let fieldTypeChanged = CompatibilityRule("GW005", "field-type-changed", .breaking, .both, .silent)
    /// An integer field was widened with the same signedness (Int32 → Int64).
    public static let integerWidened = CompatibilityRule("GW006", "integer-widened", .warning, .newWriterOldReader, .loud)
    /// An integer field was narrowed with the same signedness (Int64 → Int32).
    public static let integerNarrowed = CompatibilityRule("GW007", "integer-narrowed", .breaking, .oldWriterNewReader, .loud)
    /// An integer field changed between signed (zigzag) and unsigned (plain).
    public static let integerSignednessChanged = CompatibilityRule("GW008", "integer-signedness-changed", .breaking, .both, .silent)
    /// A field became optional or stopped being optional.
    public static let fieldOptionalityChanged = CompatibilityRule("GW009", "field-optionality-changed", .breaking, .both, .silent)
    /// A new field uses a number the old version reserved.
    public static let fieldNumberReused = CompatibilityRule("GW010", "field-number-reused", .breaking, .both, .silent)
    /// A field kept its name but moved to another number.
    public static let fieldRenumbered = CompatibilityRule("GW011", "field-renumbered", .breaking, .both, .silent)
    /// A field kept its number but changed its name (source-breaking only).
    public static let fieldRenamed = CompatibilityRule("GW012", "field-renamed", .warning, .none, .none)
    /// A field's default changed: writers omit values equal to the default.
    public static let defaultChanged = CompatibilityRule("GW013", "default-changed", .breaking, .both, .silent)
    /// A message's type id changed.
    public static let typeIDChanged = CompatibilityRule("GW014", "type-id-changed", .breaking, .both, .loud)
    /// A message was removed.
    public static let messageRemoved = CompatibilityRule("GW015", "message-removed", .breaking, .oldWriterNewReader, .loud)
    /// A message was added (old peers reject it with unknownType if it is sent to them).
    public static let messageAdded = CompatibilityRule("GW016", "message-added", .info, .newWriterOldReader, .loud)
    /// A message kept its type id but changed its name (source-breaking only).
    public static let messageRenamed = CompatibilityRule("GW017", "message-renamed", .warning, .none, .none)
    /// An enum case was added (old readers keep it as an unknown value).
    public static let enumCaseAdded = CompatibilityRule("GW018", "enum-case-added", .info, .newWriterOldReader, .none)
    /// An enum case was removed (new readers keep old values as unknown).
    public static let enumCaseRemoved = CompatibilityRule("GW019", "enum-case-removed", .warning, .oldWriterNewReader, .silent)
    /// An enum case kept its name but moved to another number.
    public static let enumCaseRenumbered = CompatibilityRule("GW020", "enum-case-renumbered", .breaking, .both, .silent)
    /// An enum case kept its number but changed its name (source-breaking only).
    public static let enumCaseRenamed = CompatibilityRule("GW021", "enum-case-renamed", .warning, .none, .none)
    /// A union case was added (old readers reject values that use it).
    public static let unionCaseAdded = CompatibilityRule("GW022", "union-case-added", .warning, .newWriterOldReader, .loud)
    /// A union case was removed (new readers reject old values that use it).
    public static let unionCaseRemoved = CompatibilityRule("GW023", "union-case-removed", .breaking, .oldWriterNewReader, .loud)
    /// A union case's payload type changed (or a payload was added or dropped).
    public static let unionCasePayloadChanged = CompatibilityRule("GW024", "union-case-payload-changed", .breaking, .both, .silent)
    /// A union case kept its name but moved to another number.
    public static let unionCaseRenumbered = CompatibilityRule("GW025", "union-case-renumbered", .breaking, .both, .loud)
    /// A union case kept its number but changed its name (source-breaking only).
    public static let unionCaseRenamed = CompatibilityRule("GW026", "union-case-renamed", .warning, .none, .none)
    /// A declaration changed kind (struct, enum, union, message).
    public static let declarationKindChanged = CompatibilityRule("GW027", "declaration-kind-changed", .breaking, .both, .loud)
    /// A struct, enum or union was removed (uses of it are reported as field changes).
    public static let declarationRemoved = CompatibilityRule("GW028", "declaration-removed", .info, .none, .none)
    /// A reserved number or name is no longer reserved.
    public static let reservationDropped = CompatibilityRule("GW029", "reservation-dropped", .warning, .none, .none)
    /// The package name changed.
    public static let packageRenamed = CompatibilityRule("GW030", "package-renamed", .warning, .none, .none)
    /// The wire shape changed but the version did not increase.
    public static let versionNotIncreased = CompatibilityRule("GW031", "version-not-increased", .warning, .none, .none)

    /// A field or payload now refers to a differently named declaration of the same kind
    /// whose members are identical (a rename; source-breaking only).
    public static let typeRenamed = CompatibilityRule("GW032", "type-renamed", .warning, .none, .none)

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
    /// Safe today, but risky or source-breaking for generated code.
    case warning
    /// Peers of the two versions misunderstand each other.
    case breaking
}

/// Which writer → reader pairing a change affects.
public enum BreakDirection: String, Sendable, Hashable, CaseIterable {
    /// Neither.
    case none
    /// Bytes written by the old version, read by the new one.
    case oldWriterNewReader = "old-writer-new-reader"
    /// Bytes written by the new version, read by the old one.
    case newWriterOldReader = "new-writer-old-reader"
    /// Both pairings.
    case both
}

/// How an affected reader fails.
public enum FailureMode: String, Sendable, Hashable, CaseIterable {
    /// It does not fail.
    case none
    /// Decoding throws (type mismatch, unknown type or case, value out of range).
    case loud
    /// Decoding succeeds with a wrong or default value.
    case silent
}
