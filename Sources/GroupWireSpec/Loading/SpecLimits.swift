/// Bounds that keep the compiler safe on hostile input. Each has a documented default.
public struct SpecLimits: Sendable, Hashable {
    /// Largest spec file in UTF-8 bytes (default 1 MiB).
    public var maxFileSize: Int
    /// Most files in one spec set, entry included (default 256).
    public var maxFiles: Int
    /// Deepest nesting of `[...]` in one type reference (default 16).
    public var maxTypeNesting: Int
    /// Most diagnostics collected per file before the parser stops (default 200).
    public var maxDiagnosticsPerFile: Int

    /// Creates limits.
    public init(maxFileSize: Int = 1 << 20, maxFiles: Int = 256, maxTypeNesting: Int = 16, maxDiagnosticsPerFile: Int = 200) {
        self.maxFileSize = maxFileSize
        self.maxFiles = maxFiles
        self.maxTypeNesting = maxTypeNesting
        self.maxDiagnosticsPerFile = maxDiagnosticsPerFile
    }

    /// The defaults.
    public static let `default` = SpecLimits()
}
