/// A compiled spec: the entry file, every file it imports (transitively), and lookups over
/// all their declarations. This is the model generators and the compatibility checker walk.
///
/// Type names are unique across a set, so ``TypeRef/named(_:)`` resolves with
/// ``declaration(named:)``. A set built from a spec with errors is best-effort: lookups
/// may fail and defaults may be missing; use ``SpecCompilation/checkedSpec()`` to get a
/// set only when there are no errors.
public struct SpecSet: Sendable, Hashable {
    /// Every file, entry first, then imports in the order they were first reached.
    public let files: [SpecFile]
    private let declarationIndex: [String: TypeDecl]
    private let fileIndex: [String: Int]
    /// All messages of all files, sorted by type id (then name, for invalid sets with duplicates).
    public let messages: [MessageDecl]

    /// Creates a set over parsed (and checked) files. The first declaration of a name wins.
    public init(files: [SpecFile]) {
        self.files = files
        var declarations: [String: TypeDecl] = [:]
        var fileOfDeclaration: [String: Int] = [:]
        for (index, file) in files.enumerated() {
            for declaration in file.declarations where declarations[declaration.name] == nil {
                declarations[declaration.name] = declaration
                fileOfDeclaration[declaration.name] = index
            }
        }
        self.declarationIndex = declarations
        self.fileIndex = fileOfDeclaration
        self.messages = files.flatMap(\.declarations)
            .compactMap { if case .message(let decl) = $0 { decl } else { nil } }
            .sorted { ($0.typeID, $0.name) < ($1.typeID, $1.name) }
    }

    /// The entry file (the one compiled; `files[0]`), or `nil` for an empty set.
    public var entry: SpecFile? { files.first }

    /// The entry file's package line.
    public var package: PackageDecl? { entry?.package }

    /// The declaration called `name`, from any file of the set.
    public func declaration(named name: String) -> TypeDecl? { declarationIndex[name] }

    /// The file that declares `name`.
    public func file(declaring name: String) -> SpecFile? {
        guard let index = fileIndex[name], index < files.count else { return nil }
        return files[index]
    }

    /// All declarations of all files, in file order then source order.
    public var declarations: [TypeDecl] { files.flatMap(\.declarations) }

    /// The message with `typeID`, if any.
    public func message(typeID: UInt64) -> MessageDecl? { messages.first { $0.typeID == typeID } }

    /// The wire type a field or case of type `type` is written with, or `nil` when it
    /// names an unknown type. Arrays of packable scalars and enums are LEN (packed);
    /// other arrays repeat their element's wire type; maps are LEN entries.
    public func wireType(of type: TypeRef) -> FieldWireType? {
        switch type {
        case .scalar(let scalar): scalar.wireType
        case .named(let name): declaration(named: name)?.wireType
        case .array(let element): isPacked(element) ? .len : wireType(of: element)
        case .map: .len
        }
    }

    /// Whether an array of `element` is written packed: numbers, Bool and enums are;
    /// String, Bytes, UUID, structs, messages and unions are not.
    public func isPacked(_ element: TypeRef) -> Bool {
        switch element {
        case .scalar(let scalar): scalar.isPackable
        case .named(let name): declaration(named: name)?.wireType == .varint
        case .array, .map: false
        }
    }

    /// The names of every declaration `name` refers to, directly or through other
    /// declarations, `name` included, sorted by name. Unknown names are left out.
    public func closure(of name: String) -> [String] {
        var seen: Set<String> = []
        var stack = [name]
        while let next = stack.popLast() {
            guard !seen.contains(next), let declaration = declaration(named: next) else { continue }
            seen.insert(next)
            stack.append(contentsOf: SpecSet.referencedNames(of: declaration))
        }
        return seen.sorted()
    }

    /// The names a declaration's fields or union cases mention, in source order.
    public static func referencedNames(of declaration: TypeDecl) -> [String] {
        switch declaration {
        case .message(let decl): decl.fields.flatMap(\.type.referencedNames)
        case .struct(let decl): decl.fields.flatMap(\.type.referencedNames)
        case .enum: []
        case .union(let decl): decl.cases.flatMap { $0.payload?.referencedNames ?? [] }
        }
    }
}
