/// The entry point: parses a spec file and its imports, checks them, and returns the model
/// with every diagnostic found.
///
/// ```swift
/// let loader = InMemorySpecLoader(files: ["draw.gwspec": text])
/// let compilation = try SpecCompiler().compile(entry: "draw.gwspec", loader: loader)
/// print(compilation.renderedDiagnostics)          // compiler-style, with carets
/// let spec = try compilation.checkedSpec()         // throws if there were errors
/// for message in spec.messages { ... }
/// ```
public struct SpecCompiler: Sendable {
    /// The bounds applied to the input.
    public var limits: SpecLimits

    /// Creates a compiler.
    /// - Parameter limits: bounds on file size, file count and nesting.
    public init(limits: SpecLimits = .default) {
        self.limits = limits
    }

    /// Parses one file's text without resolving imports or checking semantics.
    /// - Parameters:
    ///   - source: the spec text.
    ///   - path: the path used in locations.
    /// - Returns: the syntax tree and the syntax diagnostics.
    public func parse(source: String, path: String) -> (file: SpecFile, diagnostics: [Diagnostic]) {
        var parser = Parser(source: source, file: path, limits: limits)
        let file = parser.parseFile()
        return (file, parser.diagnostics)
    }

    /// Compiles a single spec held in memory. Imports are resolved against `otherFiles`.
    /// - Parameters:
    ///   - source: the entry file's text.
    ///   - path: its path (default `spec.gwspec`).
    ///   - otherFiles: importable files, path → text.
    /// - Returns: the compilation (never throws for spec mistakes; see ``SpecCompilation``).
    public func compile(source: String, path: String = "spec.gwspec", otherFiles: [String: String] = [:]) -> SpecCompilation {
        var files = otherFiles
        files[path] = source
        let loader = InMemorySpecLoader(files: files)
        do {
            return try compile(entry: path, loader: loader)
        } catch {
            // Only limit errors can reach here; report them as a diagnostic on the entry file.
            let location = error.location ?? SourceLocation(file: path, line: 1, column: 1)
            return SpecCompilation(
                spec: SpecSet(files: []), diagnostics: [.error(error.context, at: location)],
                sources: files)
        }
    }

    /// Loads `entry` and every file it imports through `loader`, parses and checks them.
    /// - Parameters:
    ///   - entry: the entry file path.
    ///   - loader: resolves and reads files.
    /// - Returns: the model and all diagnostics, sorted by location.
    /// - Throws: ``SpecError`` when the entry file cannot be found or read, or a limit
    ///   (file count, file size) is exceeded. Missing or cyclic imports are diagnostics.
    public func compile(entry: String, loader: some SpecLoader) throws(SpecError) -> SpecCompilation {
        var session = ImportResolver(compiler: self, loader: loader)
        let entryPath = loader.resolve(entry, from: nil)
        guard let text = try loader.load(entryPath) else {
            throw SpecError(.unreadable, "cannot find spec file '\(entry)'")
        }
        try session.visit(path: entryPath, text: text)
        var checker = SemanticChecker(files: session.files)
        let checked = checker.check()
        let diagnostics = (session.diagnostics + checker.diagnostics).sorted { $0.location < $1.location }
        return SpecCompilation(spec: SpecSet(files: checked), diagnostics: diagnostics, sources: session.sources)
    }
}

extension SpecCompiler {
    /// Checks files built in memory rather than parsed (a schema read off the wire, for
    /// instance) as one spec set, with the same semantic rules as ``compile(entry:loader:)``,
    /// and resolves their field defaults from their `defaultLiteral`s.
    /// - Parameter files: the entry file first, then the files it imports; imports name
    ///   their targets through `resolvedPath`.
    /// - Returns: the checked model and the diagnostics, sorted by location (no sources, so
    ///   they render without source lines).
    public func check(files: [SpecFile]) -> SpecCompilation {
        var checker = SemanticChecker(files: files)
        let checked = checker.check()
        return SpecCompilation(
            spec: SpecSet(files: checked), diagnostics: checker.diagnostics.sorted { $0.location < $1.location },
            sources: [:])
    }
}

/// The result of compiling a spec: the (best-effort) model and every diagnostic.
public struct SpecCompilation: Sendable {
    /// The model. Complete only when ``hasErrors`` is false.
    public let spec: SpecSet
    /// Every error and warning, sorted by file, line and column.
    public let diagnostics: [Diagnostic]
    /// The text of every file read, by path (for rendering source lines).
    public let sources: [String: String]

    /// Creates a compilation result.
    public init(spec: SpecSet, diagnostics: [Diagnostic], sources: [String: String]) {
        self.spec = spec
        self.diagnostics = diagnostics
        self.sources = sources
    }

    /// Whether any diagnostic is an error.
    public var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }

    /// The error diagnostics only.
    public var errors: [Diagnostic] { diagnostics.filter { $0.severity == .error } }

    /// All diagnostics rendered compiler-style with source lines and carets.
    public var renderedDiagnostics: String { DiagnosticRenderer(sources: sources).render(diagnostics) }

    /// The model, or a thrown ``SpecError`` (kind ``SpecError/Kind/invalidSpec``) listing
    /// the errors when there are any.
    public func checkedSpec() throws(SpecError) -> SpecSet {
        let errors = errors
        guard errors.isEmpty else {
            throw SpecError(
                .invalidSpec, at: errors.first?.location,
                "the spec has \(errors.count) error\(errors.count == 1 ? "" : "s")", diagnostics: errors)
        }
        return spec
    }
}
