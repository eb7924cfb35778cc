/// The `package name version N` line that starts every spec file.
public struct PackageDecl: Sendable, Hashable {
    /// The dotted package name, e.g. `draw.together`.
    public var name: String
    /// The spec version, a positive integer that grows with each published change.
    public var version: UInt64
    /// The `///` doc comment above the line (the file's documentation).
    public var documentation: String?
    /// Where the `package` keyword is.
    public var location: SourceLocation

    /// Creates a package line.
    public init(name: String, version: UInt64, documentation: String? = nil, location: SourceLocation) {
        self.name = name
        self.version = version
        self.documentation = documentation
        self.location = location
    }
}

/// An `import "path.gwspec"` line.
public struct ImportDecl: Sendable, Hashable {
    /// The path as written, relative to the importing file's folder.
    public var path: String
    /// The path the loader resolved it to (set when the import was loaded).
    public var resolvedPath: String?
    /// Where the `import` keyword is.
    public var location: SourceLocation
    /// Where the path string is.
    public var pathLocation: SourceLocation

    /// Creates an import line.
    public init(path: String, resolvedPath: String? = nil, location: SourceLocation, pathLocation: SourceLocation) {
        self.path = path
        self.resolvedPath = resolvedPath
        self.location = location
        self.pathLocation = pathLocation
    }
}

/// One parsed spec file: its package line, imports and declarations, in source order.
public struct SpecFile: Sendable, Hashable {
    /// The file's path (as given to the parser or resolved by the loader).
    public var path: String
    /// The package line; `nil` only when the file lacks one (an error was reported).
    public var package: PackageDecl?
    /// The imports, in source order.
    public var imports: [ImportDecl]
    /// The declarations, in source order.
    public var declarations: [TypeDecl]

    /// Creates a spec file.
    public init(path: String, package: PackageDecl?, imports: [ImportDecl], declarations: [TypeDecl]) {
        self.path = path
        self.package = package
        self.imports = imports
        self.declarations = declarations
    }

    /// The declaration called `name` in this file, if any.
    public func declaration(named name: String) -> TypeDecl? {
        declarations.first { $0.name == name }
    }
}
