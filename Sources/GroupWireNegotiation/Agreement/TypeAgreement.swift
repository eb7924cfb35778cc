import GroupWire
import GroupWireSpec

/// Whether a reader can take one message type from a writer (Spec/FORMAT.md, "The agreement").
public enum TypeVerdict: Sendable, Hashable, CustomStringConvertible {
    /// Both declare the type with the same schema (same fingerprint): decoded as is.
    case same
    /// The schemas differ and the reader decodes every value the writer means: fields it
    /// does not know are kept, fields the writer does not send take their defaults.
    case compatible
    /// The reader has no message type with this id.
    case unknown
    /// The reader would fail for some values; the failures name the rules.
    case incompatible([ReaderFailure])

    /// Whether messages of the type go to the reader: ``same`` or ``compatible``.
    public var isReadable: Bool {
        switch self {
        case .same, .compatible: true
        case .unknown, .incompatible: false
        }
    }

    /// `same`, `compatible`, `unknown`, or `incompatible` with the rules.
    public var description: String {
        switch self {
        case .same: "same"
        case .compatible: "compatible"
        case .unknown: "unknown"
        case .incompatible(let failures):
            "incompatible (" + failures.map { "\($0.rule.id) \($0.rule.name) \($0.path)" }.joined(separator: ", ") + ")"
        }
    }

    /// The verdict's stable name: `same`, `compatible`, `unknown` or `incompatible`.
    public var name: String {
        switch self {
        case .same: "same"
        case .compatible: "compatible"
        case .unknown: "unknown"
        case .incompatible: "incompatible"
        }
    }
}

/// One message type between two peers: its names on both sides and a verdict per direction.
public struct TypeAgreement: Sendable, Hashable {
    /// The type id on the wire.
    public var typeID: UInt64
    /// Its name in this peer's spec, nil when this peer has no such type.
    public var localName: String?
    /// Its name in the other peer's spec, nil when that peer has no such type.
    public var remoteName: String?
    /// Whether the other peer reads what this one sends; nil when this peer cannot send it.
    public var sending: TypeVerdict?
    /// Whether this peer reads what the other sends; nil when the other cannot send it.
    public var receiving: TypeVerdict?

    /// The name to show: this peer's, else the other's.
    public var name: String { localName ?? remoteName ?? "type \(typeID)" }

    /// Every message type of either schema, by type id, decided with `ReaderWriterCompatibility`
    /// in each direction: the rules and verdicts of `groupwire spec diff`. A side without a
    /// schema (a tool) neither sends nor reads any type.
    package static func all(local: HelloSchema?, remote: HelloSchema?) -> [TypeAgreement] {
        var byID: [UInt64: TypeAgreement] = [:]
        for entry in local?.messages ?? [] {
            byID[entry.typeID] = TypeAgreement(typeID: entry.typeID, localName: entry.name, sending: .unknown)
        }
        for entry in remote?.messages ?? [] {
            byID[entry.typeID, default: TypeAgreement(typeID: entry.typeID)].remoteName = entry.name
            byID[entry.typeID]?.receiving = .unknown
        }
        if let local, let remote {
            for entry in ReaderWriterCompatibility(reader: remote.spec, writer: local.spec).messages {
                byID[entry.typeID]?.sending = verdict(entry)
            }
            for entry in ReaderWriterCompatibility(reader: local.spec, writer: remote.spec).messages {
                byID[entry.typeID]?.receiving = verdict(entry)
            }
        }
        return byID.values.sorted { $0.typeID < $1.typeID }
    }

    private static func verdict(_ entry: ReaderWriterCompatibility.Entry) -> TypeVerdict {
        guard entry.readerName != nil else { return .unknown }
        switch entry.verdict {
        case .same: return .same
        case .compatible: return .compatible
        case .incompatible(let failures): return .incompatible(failures)
        }
    }
}
