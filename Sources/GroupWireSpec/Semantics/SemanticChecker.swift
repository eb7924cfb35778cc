/// Checks parsed files as one spec set and resolves field defaults.
struct SemanticChecker {
    private var files: [SpecFile]
    private(set) var diagnostics: [Diagnostic] = []

    init(files: [SpecFile]) {
        self.files = files
    }

    mutating func check() -> [SpecFile] {
        files
    }
}
