import GroupWireSpec

/// Generates Swift from a checked spec set: spec model in, files in memory out.
///
/// Pure and deterministic: the same spec set and options give the same files, byte for
/// byte, with no file system or clock access. Stages: spec model → Swift model
/// (`SwiftModelBuilder`) → text (`SwiftRenderer` over a ``CodePrinter``).
public struct CodeGenerator: Sendable {
    /// How the Swift is written.
    public var options: GeneratorOptions

    /// Creates a generator.
    public init(options: GeneratorOptions = GeneratorOptions()) {
        self.options = options
    }

    /// One Swift file per spec file of `spec` (or for the entry only, per
    /// ``GeneratorOptions/files``), named after the spec file: `DrawTogether.gwspec` →
    /// `DrawTogether.gwspec.swift`. Each holds the declarations of its spec file only; types a file
    /// imports come from the other files generated into the same target.
    ///
    /// With the spec files' texts (`SpecCompilation.sources`), each message set carries the
    /// text of its file and the files it imports (`WireMessageSet.specSource`).
    /// - Parameters:
    ///   - spec: a spec set without errors (see `SpecCompilation.checkedSpec()`).
    ///   - sources: the texts of the spec's files by path, as compiled.
    /// - Returns: the files, in the order of `spec.files`.
    public func generate(_ spec: SpecSet, sources: [String: String] = [:]) -> [GeneratedFile] {
        let builder = SwiftModelBuilder(spec: spec, options: options, sources: sources)
        let renderer = SwiftRenderer()
        let files = options.files == .entryOnly ? Array(spec.files.prefix(1)) : spec.files
        return files.map { file in
            GeneratedFile(path: Self.outputPath(forSpec: file.path), contents: renderer.render(builder.file(file)))
        }
    }

    /// The output file name for a spec file: its last path component with `.swift`
    /// appended (`DrawTogether.gwspec` → `DrawTogether.gwspec.swift`), so it never has the
    /// name of a Swift file of the app beside it (`DrawTogether.swift`), which two
    /// sources of one module cannot share.
    public static func outputPath(forSpec path: String) -> String {
        SwiftModelBuilder.fileName(of: path) + ".swift"
    }
}
