/// An error raised while encoding or decoding GroupWire bytes.
///
/// `WireError` is a struct rather than an enum so that new kinds can be added without
/// breaking callers. It says what went wrong (``kind``), where (``offset``, the byte offset
/// in the input being decoded, when one applies) and the details a person needs to act on
/// it (``context``: the field, the limit, the value seen).
public struct WireError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The class of problem. Compare kinds with `==` (for example `error.kind == .truncated`).
    public struct Kind: Sendable, Hashable, CustomStringConvertible {
        /// The stable name of the kind, as used in test vectors and JSON output.
        public let name: String

        /// Creates a kind. Other GroupWire modules declare their own kinds with this.
        package init(name: String) {
            self.name = name
        }

        /// The stable name of the kind.
        public var description: String { name }

        /// The input ended before a complete value or frame.
        public static let truncated = Kind(name: "truncated")
        /// The first byte of a frame is not the GroupWire magic byte.
        public static let badMagic = Kind(name: "badMagic")
        /// The frame's version is not one this decoder understands.
        public static let unsupportedVersion = Kind(name: "unsupportedVersion")
        /// A frame's length field is out of range (too small, or over `Limits.maxFrameSize`).
        public static let frameTooLarge = Kind(name: "frameTooLarge")
        /// The frame's length field is smaller than the smallest possible frame.
        public static let frameTooSmall = Kind(name: "frameTooSmall")
        /// The CRC32C stored in the frame does not match its bytes.
        public static let checksumMismatch = Kind(name: "checksumMismatch")
        /// The frame kind is reserved or unknown.
        public static let unknownKind = Kind(name: "unknownKind")
        /// The frame sets reserved flag bits.
        public static let unknownFlags = Kind(name: "unknownFlags")
        /// A variable-length integer is overlong, non-minimal or does not fit 64 bits.
        public static let malformedVarint = Kind(name: "malformedVarint")
        /// A message type id is zero or out of range.
        public static let invalidTypeID = Kind(name: "invalidTypeID")
        /// Two different message types declare the same type id.
        public static let duplicateTypeID = Kind(name: "duplicateTypeID")
        /// A payload field uses a wire type that does not exist.
        public static let unknownWireType = Kind(name: "unknownWireType")
        /// A length, count or size is over the configured limit.
        public static let limitExceeded = Kind(name: "limitExceeded")
        /// Nesting is deeper than `Limits.maxNestingDepth`.
        public static let depthExceeded = Kind(name: "depthExceeded")
        /// String bytes are not valid UTF-8.
        public static let invalidUTF8 = Kind(name: "invalidUTF8")
        /// A value was encoded with a different wire type than the reader expects.
        public static let typeMismatch = Kind(name: "typeMismatch")
        /// A required field or key is absent.
        public static let missingField = Kind(name: "missingField")
        /// A value is structurally valid but not allowed (a field number of zero, a bad UUID length).
        public static let invalidValue = Kind(name: "invalidValue")
        /// No message type is registered under the frame's type id.
        public static let unknownType = Kind(name: "unknownType")
        /// Bytes remain after a complete value where none may.
        public static let trailingBytes = Kind(name: "trailingBytes")
        /// The compressed frame names a codec this build does not know.
        public static let unknownCodec = Kind(name: "unknownCodec")
        /// A fragment frame's fields are out of range or inconsistent.
        public static let invalidFragment = Kind(name: "invalidFragment")
    }

    /// What went wrong.
    public let kind: Kind
    /// The byte offset in the input at which the problem was found, when one applies.
    public let offset: Int?
    /// A human-readable explanation: field, limit, value seen.
    public let context: String

    /// Creates an error.
    /// - Parameters:
    ///   - kind: the class of problem.
    ///   - offset: the byte offset in the input, if the error concerns a position.
    ///   - context: what was expected and what was seen.
    public init(_ kind: Kind, offset: Int? = nil, _ context: String) {
        self.kind = kind
        self.offset = offset
        self.context = context
    }

    /// Returns the same error with its offset moved by `base`, for errors raised while
    /// decoding a sub-range of a larger input.
    public func shifted(by base: Int) -> WireError {
        WireError(kind, offset: offset.map { $0 + base }, context)
    }

    /// `kind at offset N: context`, or `kind: context` when no offset applies.
    public var description: String {
        if let offset {
            return "\(kind.name) at offset \(offset): \(context)"
        }
        return "\(kind.name): \(context)"
    }
}
