/// Walks imports depth-first from the entry file, loading each file once, and reports
/// missing files and cycles at the import that causes them.
struct ImportResolver<Loader: SpecLoader> {
    let compiler: SpecCompiler
    let loader: Loader
    private(set) var files: [SpecFile] = []
    private(set) var diagnostics: [Diagnostic] = []
    private(set) var sources: [String: String] = [:]
    private var stack: [String] = []
    private var done: Set<String> = []

    init(compiler: SpecCompiler, loader: Loader) {
        self.compiler = compiler
        self.loader = loader
    }

    mutating func visit(path: String, text: String) throws(SpecError) {
        guard sources.count < compiler.limits.maxFiles else {
            throw SpecError(.limitExceeded, "more than \(compiler.limits.maxFiles) spec files")
        }
        guard text.utf8.count <= compiler.limits.maxFileSize else {
            throw SpecError(.limitExceeded, "'\(path)' is larger than \(compiler.limits.maxFileSize) bytes")
        }
        sources[path] = text
        var (file, parseDiagnostics) = compiler.parse(source: text, path: path)
        diagnostics += parseDiagnostics
        stack.append(path)
        let index = files.count
        files.append(file)
        for (importIndex, decl) in file.imports.enumerated() {
            let resolved = loader.resolve(decl.path, from: path)
            file.imports[importIndex].resolvedPath = resolved
            if let cycleStart = stack.firstIndex(of: resolved) {
                let cycle = (stack[cycleStart...] + [resolved]).joined(separator: " -> ")
                diagnostics.append(
                    .error(
                        "import cycle: \(cycle)", at: decl.pathLocation,
                        hint: "move the shared declarations into a file that both can import"))
                continue
            }
            if done.contains(resolved) || sources[resolved] != nil { continue }
            guard let importedText = try loader.load(resolved) else {
                diagnostics.append(
                    .error(
                        "cannot find imported file '\(decl.path)'", at: decl.pathLocation,
                        hint: resolved == decl.path ? nil : "looked for '\(resolved)'"))
                continue
            }
            try visit(path: resolved, text: importedText)
        }
        files[index] = file
        stack.removeLast()
        done.insert(path)
    }
}
