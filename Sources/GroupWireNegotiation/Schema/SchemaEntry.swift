import GroupWireSpec

/// One declaration of a hello's schema table: what a peer needs of a message, struct, enum
/// or union to decide compatibility without its spec file (Spec/FORMAT.md, "The hello").
///
/// It keeps what the compatibility checker reads (names, numbers, types, optionality,
/// non-zero defaults, type ids, reserved numbers and names) and drops what it does not
/// (documentation, deprecation, source locations).
public struct SchemaEntry: Sendable, Hashable {
    /// The kind of declaration, with its code on the wire.
    public enum Kind: UInt64, Sendable, Hashable {
        /// `message Name @ id`.
        case message = 1
        /// `struct Name`.
        case `struct` = 2
        /// `enum Name`.
        case `enum` = 3
        /// `union Name`.
        case union = 4
    }

    /// The declared name.
    public var name: String
    /// What it declares.
    public var kind: Kind
    /// The message type id; 0 for other kinds.
    public var typeID: UInt64
    /// The message fingerprint (FNV-1a 64 of its canonical text); nil for other kinds.
    public var fingerprint: Fingerprint?
    /// The fields of a message or struct, by ascending number.
    public var fields: [SchemaField]
    /// The cases of an enum or union, by ascending number.
    public var cases: [SchemaCase]
    /// Reserved number ranges, sorted.
    public var reservedNumbers: [ClosedRange<UInt64>]
    /// Reserved names, sorted by their UTF-8 bytes.
    public var reservedNames: [String]
    /// Whether the declaration comes from a file the spec's entry file imports.
    public var isImported: Bool

    /// Creates an entry.
    public init(
        name: String, kind: Kind, typeID: UInt64 = 0, fingerprint: Fingerprint? = nil, fields: [SchemaField] = [],
        cases: [SchemaCase] = [], reservedNumbers: [ClosedRange<UInt64>] = [], reservedNames: [String] = [],
        isImported: Bool = false
    ) {
        self.name = name
        self.kind = kind
        self.typeID = typeID
        self.fingerprint = fingerprint
        self.fields = fields
        self.cases = cases
        self.reservedNumbers = reservedNumbers
        self.reservedNames = reservedNames
        self.isImported = isImported
    }
}

/// A field of a ``SchemaEntry``.
public struct SchemaField: Sendable, Hashable {
    /// The field number.
    public var number: UInt64
    /// The field name.
    public var name: String
    /// The field type.
    public var type: TypeRef
    /// Whether the field is optional.
    public var isOptional: Bool
    /// The default, only when it differs from the type's zero value (as in the canonical form).
    public var defaultValue: DefaultValue?

    /// Creates a field.
    public init(number: UInt64, name: String, type: TypeRef, isOptional: Bool = false, defaultValue: DefaultValue? = nil) {
        self.number = number
        self.name = name
        self.type = type
        self.isOptional = isOptional
        self.defaultValue = defaultValue
    }
}

/// A case of an enum or union ``SchemaEntry``.
public struct SchemaCase: Sendable, Hashable {
    /// The case number.
    public var number: UInt64
    /// The case name.
    public var name: String
    /// A union case's payload type, if it has one.
    public var payload: TypeRef?

    /// Creates a case.
    public init(number: UInt64, name: String, payload: TypeRef? = nil) {
        self.number = number
        self.name = name
        self.payload = payload
    }
}
