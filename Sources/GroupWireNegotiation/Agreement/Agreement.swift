import GroupWire
import GroupWireSpec

/// What this peer and one other agree from their two hellos (Spec/FORMAT.md, "The
/// agreement"): the envelope version, how each side compresses for the other, the sizes,
/// and for every message type whether the other side can read it.
///
/// The agreement is a pure function of the two hellos, so both peers compute the same one
/// seen from opposite sides: `Agreement(local: a, remote: b).sending` is
/// `Agreement(local: b, remote: a).receiving`, type by type, and the envelope version and
/// status are equal.
///
/// ```swift
/// let agreement = Agreement(local: myHello, remote: try Hello(payload: body))
/// for type in agreement.types where type.sending?.isReadable == false {
///     print("\(type.name): \(type.sending!)")   // e.g. "unknown to the peer"
/// }
/// ```
public struct Agreement: Sendable, Hashable {
    /// Whether the two peers talk at all.
    public enum Status: Sendable, Hashable {
        /// They talk; each message type follows its verdict.
        case agreed
        /// They do not; the reason names what failed.
        case incompatible(NegotiationFailure)
    }

    /// Whether the two peers talk at all.
    public var status: Status
    /// The envelope version both write: the highest in both ranges; nil when they share none.
    public var envelopeVersion: UInt8?
    /// How this peer's messages travel to the other.
    public var sending: Direction
    /// How the other peer's messages travel to this one.
    public var receiving: Direction
    /// Every message type either spec declares, by type id.
    public var types: [TypeAgreement]
    /// Dictionary ids both peers hold with different content (different hashes): never used
    /// between them, in either direction.
    public var dictionaryConflicts: [UInt32]

    /// One direction of the agreement: what the writer may send the reader.
    public struct Direction: Sendable, Hashable {
        /// The compression codec, or nil: payloads travel uncompressed.
        public var codec: UInt8?
        /// The dictionary of ``codec``, 0 for none.
        public var dictionaryID: UInt32
        /// The largest frame the reader accepts.
        public var maxFrameSize: Int
        /// The largest message the reader accepts.
        public var maxMessageSize: Int
    }

    /// Computes the agreement between `local`'s peer and `remote`'s.
    public init(local: Hello, remote: Hello) {
        let lowest = max(local.envelopeVersions.lowerBound, remote.envelopeVersions.lowerBound)
        let highest = min(local.envelopeVersions.upperBound, remote.envelopeVersions.upperBound)
        envelopeVersion = lowest <= highest ? highest : nil
        sending = Self.direction(writer: local, reader: remote)
        receiving = Self.direction(writer: remote, reader: local)
        dictionaryConflicts = Self.conflicts(local, remote)
        types = TypeAgreement.all(local: local.schema, remote: remote.schema)
        if envelopeVersion == nil {
            status = .incompatible(
                NegotiationFailure(
                    .noCommonVersion,
                    "envelope versions \(Self.text(local.envelopeVersions)) here and \(Self.text(remote.envelopeVersions)) there do not overlap"
                ))
        } else if let mine = local.schema, let theirs = remote.schema, mine.package != theirs.package {
            status = .incompatible(
                NegotiationFailure(
                    .otherPackage,
                    "this peer speaks \(mine.package) \(mine.version), the other \(theirs.package) \(theirs.version)"))
        } else {
            status = .agreed
        }
    }

    /// The agreement for type id `typeID`, nil when neither spec declares it.
    public func type(_ typeID: UInt64) -> TypeAgreement? {
        types.first { $0.typeID == typeID }
    }

    /// Whether the status is ``Status/agreed``.
    public var isAgreed: Bool { status == .agreed }

    /// The codec and dictionary the writer uses for the reader: the first codec in the
    /// writer's list the reader also decompresses, and the first of the writer's
    /// dictionaries for it that the reader holds with the same content hash.
    private static func direction(writer: Hello, reader: Hello) -> Direction {
        var codec: UInt8?
        var dictionaryID: UInt32 = 0
        for offered in writer.codecs {
            guard let accepted = reader.codecs.first(where: { $0.codec == offered.codec }) else { continue }
            codec = offered.codec
            dictionaryID = offered.dictionaries.first { accepted.dictionaries.contains($0) }?.id ?? 0
            break
        }
        return Direction(
            codec: codec, dictionaryID: dictionaryID, maxFrameSize: reader.maxFrameSize,
            maxMessageSize: reader.maxMessageSize)
    }

    private static func conflicts(_ local: Hello, _ remote: Hello) -> [UInt32] {
        var found: Set<UInt32> = []
        for mine in local.codecs {
            guard let theirs = remote.codecs.first(where: { $0.codec == mine.codec }) else { continue }
            for dictionary in mine.dictionaries {
                if theirs.dictionaries.contains(where: { $0.id == dictionary.id && $0.contentHash != dictionary.contentHash }) {
                    found.insert(dictionary.id)
                }
            }
        }
        return found.sorted()
    }

    private static func text(_ range: ClosedRange<UInt8>) -> String {
        range.lowerBound == range.upperBound ? "\(range.lowerBound)" : "\(range.lowerBound)-\(range.upperBound)"
    }
}

/// Why two peers do not talk: a kind and a sentence naming what failed.
public struct NegotiationFailure: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of failure, as a stable name.
    public struct Kind: Sendable, Hashable, CustomStringConvertible {
        /// The stable name.
        public let name: String

        /// Creates a kind.
        public init(name: String) {
            self.name = name
        }

        /// The envelope version ranges do not overlap.
        public static let noCommonVersion = Kind(name: "noCommonVersion")
        /// The peers speak specs of different packages.
        public static let otherPackage = Kind(name: "otherPackage")
        /// The peer's hello did not decode (malformed, oversized or contradictory).
        public static let invalidHello = Kind(name: "invalidHello")
        /// No hello came from the peer within the timeout.
        public static let noHello = Kind(name: "noHello")

        /// The stable name.
        public var description: String { name }
    }

    /// What kind of failure.
    public var kind: Kind
    /// What failed, in a sentence.
    public var reason: String

    /// Creates a failure.
    public init(_ kind: Kind, _ reason: String) {
        self.kind = kind
        self.reason = reason
    }

    /// `kind: reason`.
    public var description: String { "\(kind): \(reason)" }
}
