/// Whether a reader on one spec version decodes what a writer on another sends, message
/// type by message type, and how it fails where it cannot.
///
/// It is a view of ``CompatibilityChecker/compare(old:new:)``, so it applies exactly the
/// rules `groupwire spec diff` reports, named as `spec diff` names them: the spec with the
/// lower package version is the old one (the writer's when the versions are equal). Both
/// sets should be free of errors (see ``SpecCompilation/checkedSpec()``).
public struct ReaderWriterCompatibility: Sendable, Hashable {
    /// One message type the writer can send.
    public struct Entry: Sendable, Hashable {
        /// The type id on the wire.
        public var typeID: UInt64
        /// The message's name in the writer's spec.
        public var writerName: String
        /// The message's name in the reader's spec, or `nil` when the reader has no such type id.
        public var readerName: String?
        /// Whether the reader decodes it, and how it fails where it cannot.
        public var verdict: CompatibilityVerdict
    }

    /// The reader's spec.
    public var reader: CompatibilityReport.Side
    /// The writer's spec.
    public var writer: CompatibilityReport.Side
    /// Every message type of the writer's spec, sorted by type id.
    public var messages: [Entry]

    /// Compares what `writer` sends with what `reader` understands.
    public init(reader: SpecSet, writer: SpecSet) {
        let readerIsOlder = (reader.package?.version ?? 0) < (writer.package?.version ?? 0)
        let report =
            readerIsOlder
            ? CompatibilityChecker.compare(old: reader, new: writer)
            : CompatibilityChecker.compare(old: writer, new: reader)
        self.reader = readerIsOlder ? report.old : report.new
        self.writer = readerIsOlder ? report.new : report.old
        messages = report.messages.compactMap { message in
            let (writerName, readerName, verdict) =
                readerIsOlder
                ? (message.newName, message.oldName, message.oldReaderNewData)
                : (message.oldName, message.newName, message.newReaderOldData)
            guard let writerName, let verdict else { return nil }
            return Entry(typeID: message.typeID, writerName: writerName, readerName: readerName, verdict: verdict)
        }
    }

    /// The verdict for `typeID`, or `nil` when the writer's spec has no such message.
    public func verdict(typeID: UInt64) -> CompatibilityVerdict? {
        messages.first { $0.typeID == typeID }?.verdict
    }

    /// Whether the reader decodes every message type the writer can send.
    public var isCompatible: Bool { messages.allSatisfy(\.verdict.isCompatible) }
}
