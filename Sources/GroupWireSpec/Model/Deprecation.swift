/// A `@deprecated` or `@deprecated("message")` attribute on a declaration, field or case.
///
/// Deprecation never changes the wire format or the fingerprint; generators emit it as
/// `@available(*, deprecated, message: ...)`.
public struct Deprecation: Sendable, Hashable {
    /// The optional explanation given in the attribute.
    public var message: String?
    /// Where the attribute starts.
    public var location: SourceLocation

    /// Creates a deprecation.
    /// - Parameters:
    ///   - message: the optional explanation.
    ///   - location: where the attribute starts.
    public init(message: String?, location: SourceLocation) {
        self.message = message
        self.location = location
    }
}
