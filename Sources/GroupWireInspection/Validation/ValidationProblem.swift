import Foundation

/// One thing `groupwire validate` found wrong, with where it is.
public struct ValidationProblem: Sendable, Hashable {
    /// Which check failed. Compare with `==` (for example `problem.kind == .payload`).
    public struct Kind: Sendable, Hashable, CustomStringConvertible {
        /// The stable name of the kind.
        public let name: String

        init(name: String) {
            self.name = name
        }

        /// The stable name.
        public var description: String { name }

        /// The frame itself is not valid (Spec/FORMAT.md, "Reading frames").
        public static let envelope = Kind(name: "envelope")
        /// A capture packet is unreadable or was captured cut short, or the capture ends
        /// inside a block.
        public static let capture = Kind(name: "capture")
        /// A fragmented message was dropped: contradicting fragments, limits, or fragments
        /// missing at the end of the capture.
        public static let fragment = Kind(name: "fragment")
        /// A compressed body does not decompress within the limits with the dictionaries given.
        public static let compression = Kind(name: "compression")
        /// The message's type id is not in the spec (nor in the sender's hello).
        public static let unknownType = Kind(name: "unknownType")
        /// The payload does not decode against the spec: a bad value, a wrong wire type,
        /// bytes left over.
        public static let payload = Kind(name: "payload")
        /// The sender's hello announced a schema the spec cannot read for this type.
        public static let schema = Kind(name: "schema")
        /// A control frame (hello, session control, acknowledgement) is malformed or uses a
        /// reserved control id.
        public static let control = Kind(name: "control")
        /// A delivery stream repeats a sequence with different bytes, repeats an
        /// unreliable one, or leaves a reliable one with gaps.
        public static let sequence = Kind(name: "sequence")
        /// A frame does not follow what the two peers' captured hellos agreed: a codec or
        /// dictionary the receiver did not offer, a frame over its limit, a type it cannot
        /// read, another envelope version.
        public static let agreement = Kind(name: "agreement")
    }

    /// Which check failed.
    public let kind: Kind
    /// The number of the frame (the packet number in a capture), from 1; nil for a
    /// problem found at the end (gaps, unfinished messages).
    public let frame: Int?
    /// The byte offset in the input: of the problem when known, else of the frame.
    public let offset: Int?
    /// What is wrong.
    public let reason: String

    /// Creates a problem.
    public init(_ kind: Kind, frame: Int?, offset: Int?, _ reason: String) {
        self.kind = kind
        self.frame = frame
        self.offset = offset
        self.reason = reason
    }

    /// `path: error: frame N, byte B: reason [kind]`.
    public func diagnostic(path: String) -> String {
        var place: [String] = []
        if let frame { place.append("frame \(frame)") }
        if let offset { place.append("byte \(offset)") }
        let prefix = place.isEmpty ? "" : place.joined(separator: ", ") + ": "
        return "\(path): error: \(prefix)\(reason) [\(kind)]"
    }
}
