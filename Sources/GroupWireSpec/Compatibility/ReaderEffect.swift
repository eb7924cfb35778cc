/// What a reader does with bytes from a writer on another spec version, for one change.
///
/// `loud` and `silent` effects fail; `none` and `defaulted` effects decode what the writer
/// meant, as far as the reader's spec can say it.
public struct ReaderEffect: Sendable, Hashable, CustomStringConvertible {
    /// How the reader fares.
    public var failure: FailureMode
    /// The name of the ``FailureMode/loud`` reader's error kind (`WireError.Kind`), e.g.
    /// `invalidValue`; `nil` otherwise.
    public var errorKind: String?
    /// When and why, in a few words (may be empty).
    public var detail: String

    /// Creates an effect.
    public init(failure: FailureMode, errorKind: String? = nil, detail: String = "") {
        self.failure = failure
        self.errorKind = errorKind
        self.detail = detail
    }

    /// Decodes the value the writer meant.
    public static let decodes = ReaderEffect(failure: .none)

    /// Decodes the value the writer meant; `detail` says how it appears.
    public static func decodes(_ detail: String) -> ReaderEffect { ReaderEffect(failure: .none, detail: detail) }

    /// Decodes; a field the writer does not write reads as the reader's default (or nil).
    public static func defaulted(_ detail: String) -> ReaderEffect { ReaderEffect(failure: .defaulted, detail: detail) }

    /// Throws the error of kind `errorKind`; `detail` says when.
    public static func loud(_ errorKind: String, _ detail: String) -> ReaderEffect {
        ReaderEffect(failure: .loud, errorKind: errorKind, detail: detail)
    }

    /// Decodes a wrong value; `detail` says which.
    public static func silent(_ detail: String) -> ReaderEffect { ReaderEffect(failure: .silent, detail: detail) }

    /// Whether the reader fails (loudly or silently).
    public var fails: Bool { failure == .loud || failure == .silent }

    /// `decodes`, `default`, `loud invalidValue (for values ...)` or `silent (...)`.
    public var description: String {
        var text: String
        switch failure {
        case .none: text = "decodes"
        case .defaulted: text = "default"
        case .loud: text = "loud \(errorKind ?? "error")"
        case .silent: text = "silent"
        }
        if !detail.isEmpty { text += " (\(detail))" }
        return text
    }
}

/// How a reader fares with bytes from a writer on another spec version.
public enum FailureMode: String, Sendable, Hashable, CaseIterable {
    /// It decodes the value the writer meant.
    case none
    /// It decodes; a field the writer does not write reads as the reader's default (or nil).
    case defaulted = "default"
    /// Decoding throws a typed error (type mismatch, unknown type or case, value out of range).
    case loud
    /// Decoding succeeds with a wrong value.
    case silent
}
