import GroupWire
import GroupWireSpec

/// The lookups the dynamic codec needs, built once from a checked `SpecSet`:
/// fields by number and by name, enum and union cases both ways.
struct DynamicSchema: Sendable {
    /// A field of a message or struct.
    struct Field: Sendable {
        let number: UInt32
        let name: String
        let type: TypeRef
        let isOptional: Bool
        let defaultValue: DefaultValue?
    }

    // Declarations are classes: the decoder looks one up for every nested value it reads,
    // and a reference is one retain where a struct of arrays and dictionaries is several.

    /// A message or struct: fields in ascending number order (the order they are written).
    final class Container: Sendable {
        let name: String
        let fields: [Field]
        let indexByName: [String: Int]
        let indexByNumber: [UInt32: Int]
        /// `Container.field` for each field, made once: errors name the field.
        let labels: [String]
        /// For each array field whose elements can be packed (numbers, Bool, enums), the
        /// elements' wire type; nil for other fields.
        let packedWireTypes: [WireType?]
        /// ``indexByNumber`` as an array for field numbers below 64 (-1 for none): most
        /// fields are numbered low, and the decoder looks up every key it reads.
        private let indexBySmallNumber: [Int]

        init(name: String, fields: [Field], isEnum: (String) -> Bool) {
            self.name = name
            self.fields = fields
            indexByName = DynamicSchema.firstIndex(fields.map(\.name))
            indexByNumber = DynamicSchema.firstIndex(fields.map(\.number))
            var small = [Int](repeating: -1, count: 64)
            for (number, index) in indexByNumber where number < 64 {
                small[Int(number)] = index
            }
            indexBySmallNumber = small
            labels = fields.map { "\(name).\($0.name)" }
            packedWireTypes = fields.map { field in
                guard case .array(let element) = field.type else { return nil }
                switch element {
                case .scalar(let scalar): return scalar.isPackable ? ScalarMapping.wireType(scalar) : nil
                case .named(let name): return isEnum(name) ? .varint : nil
                case .array, .map: return nil
                }
            }
        }

        /// The index in ``fields`` of the field numbered `number`, or nil.
        func index(ofNumber number: UInt32) -> Int? {
            guard number < 64 else { return indexByNumber[number] }
            let index = indexBySmallNumber[Int(number)]
            return index < 0 ? nil : index
        }
    }

    /// An open enum.
    final class Enum: Sendable {
        let name: String
        let numberByName: [String: UInt32]
        let nameByNumber: [UInt32: String]

        init(name: String, numberByName: [String: UInt32], nameByNumber: [UInt32: String]) {
            self.name = name
            self.numberByName = numberByName
            self.nameByNumber = nameByNumber
        }
    }

    /// A union case.
    struct UnionCase: Sendable {
        let number: UInt32
        let name: String
        let payload: TypeRef?
    }

    /// A closed union: cases in ascending number order; the first is the default.
    final class Union: Sendable {
        let name: String
        let cases: [UnionCase]
        let indexByName: [String: Int]
        let indexByNumber: [UInt32: Int]

        init(name: String, cases: [UnionCase]) {
            self.name = name
            self.cases = cases
            indexByName = DynamicSchema.firstIndex(cases.map(\.name))
            indexByNumber = DynamicSchema.firstIndex(cases.map(\.number))
        }
    }

    /// A named type, as ``declaration(_:)`` finds it.
    enum Declaration: Sendable {
        case container(Container)
        case `enum`(Enum)
        case union(Union)
    }

    /// Where a declaration is kept: its index in ``containers``, ``enums`` or ``unions``.
    ///
    /// Declarations are kept as plain references in arrays rather than as `Declaration`
    /// values: Swift stores an enum's case in the spare bits of its payload's reference,
    /// which LeakSanitizer cannot follow, so a codec kept in a global (as fuzz harnesses
    /// keep theirs) would be reported as leaked at exit.
    enum Reference: Sendable, Hashable {
        case container(Int)
        case enumeration(Int)
        case union(Int)
    }

    /// Every declaration of the set by name.
    let references: [String: Reference]
    let containers: [Container]
    let enums: [Enum]
    let unions: [Union]
    /// Message names by type id.
    let messageNames: [UInt64: String]

    /// The declaration called `name`, or nil.
    func declaration(_ name: String) -> Declaration? {
        switch references[name] {
        case .container(let index)?: .container(containers[index])
        case .enumeration(let index)?: .enum(enums[index])
        case .union(let index)?: .union(unions[index])
        case nil: nil
        }
    }

    init(_ spec: SpecSet) {
        var declarations: [String: Reference] = [:]
        var containers: [Container] = []
        var enums: [Enum] = []
        var unions: [Union] = []
        var messageNames: [UInt64: String] = [:]
        // The first declaration of a name is the one used, as below.
        var seen: Set<String> = []
        var enumNames: Set<String> = []
        for declaration in spec.declarations where seen.insert(declaration.name).inserted {
            if case .enum = declaration { enumNames.insert(declaration.name) }
        }
        for declaration in spec.declarations where declarations[declaration.name] == nil {
            switch declaration {
            case .message(let decl):
                declarations[decl.name] = .container(containers.count)
                containers.append(DynamicSchema.container(decl.name, decl.fields, enums: enumNames))
                if messageNames[decl.typeID] == nil { messageNames[decl.typeID] = decl.name }
            case .struct(let decl):
                declarations[decl.name] = .container(containers.count)
                containers.append(DynamicSchema.container(decl.name, decl.fields, enums: enumNames))
            case .enum(let decl):
                var byName: [String: UInt32] = [:]
                var byNumber: [UInt32: String] = [:]
                for item in decl.casesByNumber {
                    // A checked spec keeps enum numbers within 0...UInt32.max; others are left out.
                    guard let number = UInt32(exactly: item.number) else { continue }
                    if byName[item.name] == nil { byName[item.name] = number }
                    if byNumber[number] == nil { byNumber[number] = item.name }
                }
                declarations[decl.name] = .enumeration(enums.count)
                enums.append(Enum(name: decl.name, numberByName: byName, nameByNumber: byNumber))
            case .union(let decl):
                let cases = decl.casesByNumber.compactMap { item -> UnionCase? in
                    guard let number = UInt32(exactly: item.number), number >= 1, number <= FieldKey.maxNumber else { return nil }
                    return UnionCase(number: number, name: item.name, payload: item.payload)
                }
                declarations[decl.name] = .union(unions.count)
                unions.append(Union(name: decl.name, cases: cases))
            }
        }
        references = declarations
        self.containers = containers
        self.enums = enums
        self.unions = unions
        self.messageNames = messageNames
    }

    private static func container(_ name: String, _ declared: [FieldDecl], enums: Set<String>) -> Container {
        let fields = declared.sorted { $0.number < $1.number }.compactMap { field -> Field? in
            // A checked spec keeps field numbers within 1...2^29-1; others are left out.
            guard let number = UInt32(exactly: field.number), number >= 1, number <= FieldKey.maxNumber else { return nil }
            return Field(number: number, name: field.name, type: field.type, isOptional: field.isOptional,
                         defaultValue: field.defaultValue)
        }
        return Container(name: name, fields: fields, isEnum: enums.contains)
    }

    fileprivate static func firstIndex<Key: Hashable>(_ keys: [Key]) -> [Key: Int] {
        var index: [Key: Int] = [:]
        for (position, key) in keys.enumerated() where index[key] == nil {
            index[key] = position
        }
        return index
    }
}

