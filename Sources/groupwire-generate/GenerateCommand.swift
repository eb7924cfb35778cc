import Foundation
import GroupWireCodegen
import GroupWireSpec

/// `groupwire-generate [--access-level public|package|internal] [--with-imports] --output DIR SPEC...`
///
/// A thin shell around ``CodeGenerator``: reads each spec file (imports resolve next to
/// it), generates its Swift file (or, with `--with-imports`, the files of everything it
/// imports too) and writes only files whose content changed. Exit codes: 0 success,
/// 1 usage or I/O error, 2 spec errors (diagnostics go to standard error).
@main
struct GenerateCommand {
    static func main() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        switch parse(arguments) {
        case .failure(let message):
            FileHandle.standardError.write(Data("groupwire-generate: error: \(message)\n\(usage)\n".utf8))
            exit(1)
        case .success(let invocation):
            exit(run(invocation))
        }
    }

    static let usage = "usage: groupwire-generate [--access-level public|package|internal] [--with-imports] --output DIR SPEC..."

    struct Invocation {
        var output: String
        var specs: [String]
        var options: GeneratorOptions
    }

    static func parse(_ arguments: [String]) -> Result<Invocation, ParseFailure> {
        var output: String?
        var specs: [String] = []
        var options = GeneratorOptions(files: .entryOnly)
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            switch argument {
            case "--output", "--access-level":
                guard index < arguments.count else { return .failure(ParseFailure("\(argument) needs a value")) }
                let value = arguments[index]
                index += 1
                if argument == "--output" {
                    output = value
                } else if let level = GeneratorOptions.AccessLevel(value) {
                    options.accessLevel = level
                } else {
                    return .failure(ParseFailure("unknown access level \(value); use public, package or internal"))
                }
            case "--with-imports":
                options.files = .all
            case "--help", "-h":
                return .failure(ParseFailure("help requested"))
            default:
                if argument.hasPrefix("--") {
                    return .failure(ParseFailure("unknown option \(argument)"))
                }
                specs.append(argument)
            }
        }
        guard let output else { return .failure(ParseFailure("--output DIR is required")) }
        guard !specs.isEmpty else { return .failure(ParseFailure("give at least one .gwspec file")) }
        return .success(Invocation(output: output, specs: specs, options: options))
    }

    static func run(_ invocation: Invocation) -> Int32 {
        let generator = CodeGenerator(options: invocation.options)
        var status: Int32 = 0
        for path in invocation.specs {
            let compilation: SpecCompilation
            do {
                compilation = try SpecCompiler().compile(entry: path, loader: FileSpecLoader())
            } catch {
                FileHandle.standardError.write(Data("\(path): error: \(error)\n".utf8))
                status = max(status, 1)
                continue
            }
            if !compilation.diagnostics.isEmpty {
                FileHandle.standardError.write(Data(compilation.renderedDiagnostics.utf8))
            }
            guard let spec = try? compilation.checkedSpec() else {
                status = 2
                continue
            }
            for file in generator.generate(spec) {
                let destination = URL(fileURLWithPath: invocation.output).appendingPathComponent(file.path)
                do {
                    try writeIfChanged(file.contents, to: destination)
                } catch {
                    FileHandle.standardError.write(Data("\(destination.path): error: \(error)\n".utf8))
                    status = max(status, 1)
                }
            }
        }
        return status
    }

    /// Writes `contents` unless the file already holds exactly that (keeps timestamps, so
    /// builds that depend on the file do not rerun).
    static func writeIfChanged(_ contents: String, to url: URL) throws {
        let data = Data(contents.utf8)
        if let existing = try? Data(contentsOf: url), existing == data {
            return
        }
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try data.write(to: url, options: .atomic)
    }
}

/// A command-line mistake, described for the user.
struct ParseFailure: Error {
    var message: String
    init(_ message: String) { self.message = message }
}

extension ParseFailure: CustomStringConvertible {
    var description: String { message }
}
