import GroupWire
import GroupWireSpec

/// The spec a peer speaks, as its hello carries it: package, version, spec fingerprint and
/// the schema table, with the checked model the compatibility API decides with.
///
/// ```swift
/// let mine = try HelloSchema(spec: compiledSpec)
/// // ... a peer's hello arrives and decodes ...
/// let verdicts = ReaderWriterCompatibility(reader: mine.spec, writer: theirs.spec)
/// ```
public struct HelloSchema: Sendable, Hashable {
    /// The spec's package name.
    public let package: String
    /// The spec's version.
    public let version: UInt64
    /// The spec fingerprint (FNV-1a 64 of the spec's canonical text).
    public let fingerprint: Fingerprint
    /// The declarations: the entry file's and every message's, with all they reference,
    /// sorted by name.
    public let entries: [SchemaEntry]
    /// The model of ``entries``, checked by the rules of a spec file: what
    /// `CompatibilityChecker` and `ReaderWriterCompatibility` take. Its messages'
    /// fingerprints and its spec fingerprint are those of the spec the table was made from.
    public let spec: SpecSet

    /// The table of a compiled spec.
    /// - Parameter spec: a spec without errors (`SpecCompilation.checkedSpec()`).
    /// - Throws: `WireError.Kind.invalidSchema` for a spec without a package line or
    ///   with errors.
    public init(spec: SpecSet) throws(WireError) {
        guard let package = spec.package else {
            throw WireError(.invalidSchema, "a spec needs a package line to be announced in a hello")
        }
        var names: Set<String> = []
        for declaration in spec.entry?.declarations ?? [] { names.formUnion(spec.closure(of: declaration.name)) }
        for message in spec.messages { names.formUnion(spec.closure(of: message.name)) }
        let entries = SchemaModel.entries(of: spec, names: names)
        try self.init(
            package: package.name, version: package.version, fingerprint: spec.fingerprint, entries: entries,
            offsets: .zero(for: entries))
    }

    /// The table of the spec a generated message set was made from
    /// (`WireMessageSet.specSource`): what the compiled types read and write, with no spec
    /// file needed at run time.
    /// - Throws: `WireError.Kind.invalidSchema` when the set carries no spec (made by
    ///   hand, or generated without the spec's text), or its spec does not compile (the
    ///   diagnostics in the context) or has no package line.
    public init<Messages: WireMessageSet>(messages: Messages.Type) throws(WireError) {
        guard let source = Messages.specSource else {
            throw WireError(
                .invalidSchema,
                "\(Messages.self) carries no spec text: generate it from its .gwspec with this version of groupwire")
        }
        let compilation: SpecCompilation
        do throws(SpecError) {
            compilation = try SpecCompiler().compile(entry: source.entry, loader: InMemorySpecLoader(files: source.files))
        } catch {
            throw WireError(.invalidSchema, "the spec of \(Messages.self) does not load: \(error)")
        }
        guard let spec = try? compilation.checkedSpec() else {
            throw WireError(.invalidSchema, "the spec of \(Messages.self) has errors:\n\(compilation.renderedDiagnostics)")
        }
        try self.init(spec: spec)
    }

    /// A table read from a hello: builds and checks its model, then its fingerprints.
    /// - Throws: `invalidSchema` (a rule of the spec language), `fingerprintMismatch` (a
    ///   message's, in table order, then the spec's), at the offsets in `offsets`.
    init(package: String, version: UInt64, fingerprint: Fingerprint, entries: [SchemaEntry], offsets: SchemaOffsets)
        throws(WireError)
    {
        let model = try SchemaModel.build(package: package, version: version, entries: entries, offsets: offsets)
        for (index, entry) in entries.enumerated() where entry.kind == .message {
            let computed = model.fingerprint(ofMessage: entry.name)
            guard computed == entry.fingerprint else {
                throw WireError(
                    .fingerprintMismatch, offset: offsets.fingerprints[index],
                    "message '\(entry.name)' comes with fingerprint \(entry.fingerprint.map(\.description) ?? "none") but its schema gives \(computed.map(\.description) ?? "none")"
                )
            }
        }
        guard model.fingerprint == fingerprint else {
            throw WireError(
                .fingerprintMismatch, offset: offsets.specFingerprint,
                "spec \(package) \(version) comes with fingerprint \(fingerprint) but its schema gives \(model.fingerprint)")
        }
        self.package = package
        self.version = version
        self.fingerprint = fingerprint
        self.entries = SchemaModel.entries(of: model, names: Set(model.declarations.map(\.name)))
        spec = model
    }

    /// The message entries, by ascending type id: name, type id and fingerprint.
    public var messages: [SchemaEntry] {
        entries.filter { $0.kind == .message }.sorted { $0.typeID < $1.typeID }
    }

    /// Equal when package, version, fingerprint and entries are (the model follows from them).
    public static func == (lhs: HelloSchema, rhs: HelloSchema) -> Bool {
        lhs.package == rhs.package && lhs.version == rhs.version && lhs.fingerprint == rhs.fingerprint
            && lhs.entries == rhs.entries
    }

    /// Hashes what `==` compares.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(package)
        hasher.combine(version)
        hasher.combine(fingerprint)
        hasher.combine(entries)
    }
}
