import GroupWire
import GroupWireSpec

/// The lookups the dynamic codec needs, built once from a checked `SpecSet`:
/// fields by number and by name, enum and union cases both ways, and every field's type
/// resolved to what the decoder reads there.
final class DynamicSchema: Sendable {
    /// A field of a message or struct.
    struct Field: Sendable {
        let number: UInt32
        let name: String
        let type: TypeRef
        let isOptional: Bool
        let defaultValue: DefaultValue?
        /// `type` as the decoder reads it.
        let shape: Shape
    }

    /// What one value position holds, resolved once from its `TypeRef`. Trivial to copy
    /// (no string, no box): the decoder switches on one for every value it reads.
    enum Slot: Sendable, Equatable {
        case scalar(ScalarType)
        case declared(Reference)
        /// A name the spec does not declare (only in a set built by hand, unchecked): its
        /// index in ``undeclaredNames``.
        case undeclared(Int)
        /// A collection directly inside a collection, which specs do not allow.
        case collection
    }

    /// A field's type as the decoder reads it.
    enum Shape: Sendable, Equatable {
        case single(Slot)
        /// The elements, and their wire type when they can be packed (numbers, Bool, enums).
        case array(Slot, packed: WireType?)
        /// The key (nil when it is not a scalar, which specs do not allow) and the value.
        case map(key: ScalarType?, value: Slot)
    }

    // Declarations are classes: the decoder reaches one for every nested value it reads,
    // and a reference is one retain where a struct of arrays and dictionaries is several.

    /// A message or struct: fields in ascending number order (the order they are written).
    final class Container: Sendable {
        let name: String
        let fields: [Field]
        let indexByName: [String: Int]
        let indexByNumber: [UInt32: Int]
        /// `Container.field` for each field, made once: errors name the field.
        let labels: [String]
        /// Each field's ``Field/shape``, apart: the decoder reads one for every value, and
        /// taking it from ``fields`` copied (and retained) the whole field.
        let shapes: [Shape]
        /// ``indexByNumber`` as an array for field numbers below 64 (-1 for none): most
        /// fields are numbered low, and the decoder looks up every key it reads.
        private let indexBySmallNumber: [Int]

        init(name: String, fields: [Field]) {
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
            shapes = fields.map(\.shape)
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
        /// `payload` as the decoder reads it.
        let slot: Slot?
        /// `Union.case`, made once: errors name the case.
        let label: String
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
    /// The names fields refer to that the set does not declare (``Slot/undeclared(_:)``).
    let undeclaredNames: [String]
    /// Message names by type id.
    let messageNames: [UInt64: String]
    /// Each message's place in ``containers``, by type id.
    let messageContainers: [UInt64: Int]
    /// ``messageContainers`` as an array for type ids below 64 (-1 for none): most type ids
    /// are small, and a validator looks one up for every message it reads.
    private let smallMessageContainers: [Int]
    /// Whether validation may skim each container (``skimSteps``): its fields are all
    /// numbered 1...15 and each is a single scalar, enum or skimmable container, or an
    /// array of skimmable containers (no other array, no map or union), so that every key
    /// of a value it accepts is one byte.
    let isSkimmable: [Bool]
    /// For skimmable containers, 128 steps from `index * 128`, by one-byte key: what the
    /// value that key introduces must be (``SkimStep``); `.refuse` for every other key
    /// (an unknown field, a wrong wire type) and for every key of the other containers.
    /// Plain values in one array: read per value, nothing to retain.
    let skimSteps: [SkimStep]

    /// The declaration called `name`, or nil.
    func declaration(_ name: String) -> Declaration? {
        switch references[name] {
        case .container(let index)?: .container(containers[index])
        case .enumeration(let index)?: .enum(enums[index])
        case .union(let index)?: .union(unions[index])
        case nil: nil
        }
    }

    /// The index in ``containers`` of the message with type id `typeID`, or nil.
    func messageContainer(typeID: UInt64) -> Int? {
        guard typeID < 64 else { return messageContainers[typeID] }
        let index = smallMessageContainers[Int(typeID)]
        return index < 0 ? nil : index
    }

    /// The index in ``containers`` of the message or struct called `name`, or nil.
    func containerIndex(_ name: String) -> Int? {
        if case .container(let index)? = references[name] { return index }
        return nil
    }

    /// The name of the declaration `reference` refers to.
    func name(of reference: Reference) -> String {
        switch reference {
        case .container(let index): containers[index].name
        case .enumeration(let index): enums[index].name
        case .union(let index): unions[index].name
        }
    }

    init(_ spec: SpecSet) {
        // First every name's place (the first declaration of a name is the one used), so
        // that fields can be resolved to declarations made after them.
        var references: [String: Reference] = [:]
        var counts = (containers: 0, enums: 0, unions: 0)
        for declaration in spec.declarations where references[declaration.name] == nil {
            switch declaration {
            case .message, .struct:
                references[declaration.name] = .container(counts.containers)
                counts.containers += 1
            case .enum:
                references[declaration.name] = .enumeration(counts.enums)
                counts.enums += 1
            case .union:
                references[declaration.name] = .union(counts.unions)
                counts.unions += 1
            }
        }
        var resolver = Resolver(references: references)
        var containers: [Container] = []
        var enums: [Enum] = []
        var unions: [Union] = []
        var messageNames: [UInt64: String] = [:]
        var messageContainers: [UInt64: Int] = [:]
        var made: Set<String> = []
        for declaration in spec.declarations where made.insert(declaration.name).inserted {
            switch declaration {
            case .message(let decl):
                containers.append(resolver.container(decl.name, decl.fields))
                if messageNames[decl.typeID] == nil {
                    messageNames[decl.typeID] = decl.name
                    messageContainers[decl.typeID] = containers.count - 1
                }
            case .struct(let decl):
                containers.append(resolver.container(decl.name, decl.fields))
            case .enum(let decl):
                var byName: [String: UInt32] = [:]
                var byNumber: [UInt32: String] = [:]
                for item in decl.casesByNumber {
                    // A checked spec keeps enum numbers within 0...UInt32.max; others are left out.
                    guard let number = UInt32(exactly: item.number) else { continue }
                    if byName[item.name] == nil { byName[item.name] = number }
                    if byNumber[number] == nil { byNumber[number] = item.name }
                }
                enums.append(Enum(name: decl.name, numberByName: byName, nameByNumber: byNumber))
            case .union(let decl):
                let cases = decl.casesByNumber.compactMap { item -> UnionCase? in
                    guard let number = UInt32(exactly: item.number), number >= 1, number <= FieldKey.maxNumber else { return nil }
                    return UnionCase(
                        number: number, name: item.name, payload: item.payload,
                        slot: item.payload.map { resolver.slot($0) }, label: "\(decl.name).\(item.name)")
                }
                unions.append(Union(name: decl.name, cases: cases))
            }
        }
        self.references = references
        self.containers = containers
        self.enums = enums
        self.unions = unions
        undeclaredNames = resolver.undeclaredNames
        self.messageNames = messageNames
        self.messageContainers = messageContainers
        var small = [Int](repeating: -1, count: 64)
        for (typeID, index) in messageContainers where typeID < 64 {
            small[Int(typeID)] = index
        }
        smallMessageContainers = small
        (isSkimmable, skimSteps) = Self.skimTables(containers)
    }

    /// What ``DynamicDecoder``'s skim accepts for the value one one-byte key introduces:
    /// the value in its minimal encoding, every limit checked; anything else (a string
    /// that is not ASCII, a value that does not fit its type, a limit passed) sends the
    /// value back to the general walk, which reports what is wrong.
    struct SkimStep: Sendable {
        enum Kind: UInt8, Sendable {
            /// Not accepted here.
            case refuse
            /// `argument` bytes (Float64, Timestamp, Fixed64: 8; Float32, Fixed32: 4).
            case fixed
            /// A varint of at most `argument` (Bool: 1; Int8 zigzagged and UInt8: 255;
            /// Int16, UInt16: 65,535; Int32, UInt32 and enums: 2^32 - 1; 64 bits: any).
            case varint
            /// A UUID: the length byte 16, then 16 bytes.
            case uuid
            /// A string of ASCII bytes within maxStringLength, one decoded value.
            case string
            /// Bytes within maxBytesLength, one decoded value.
            case bytes
            /// A value of the skimmable container numbered `argument`, within
            /// maxMessageSize: one decoded value and one nesting level.
            case nested
            /// An element of an array of the skimmable container numbered `argument`: a
            /// ``nested`` value that also counts against maxCollectionCount.
            case element
            /// A ``nested`` value of a container whose fields are all ``fixed`` (a point of
            /// two Float64s): its fields are skimmed in a loop of their own, no call deeper.
            case fixedNested
            /// An ``element`` of such a container.
            case fixedElement
        }

        let kind: Kind
        let argument: UInt64

        static let refuse = SkimStep(kind: .refuse, argument: 0)
    }

    /// ``isSkimmable`` and ``skimSteps`` for `containers`.
    private static func skimTables(_ containers: [Container]) -> ([Bool], [SkimStep]) {
        // A container is skimmable when its own fields allow it and every container it
        // nests is skimmable: start from the fields, then drop those nesting a dropped one
        // until nothing changes (a container nesting itself stays; depth bounds the skim).
        var skimmable = containers.map { container in
            container.fields.allSatisfy { field in
                guard field.number <= 15 else { return false }
                switch field.shape {
                case .single(.scalar), .single(.declared(.enumeration)), .single(.declared(.container)): return true
                case .array(.declared(.container), _): return true
                case .single, .array, .map: return false
                }
            }
        }
        var changed = true
        while changed {
            changed = false
            for (index, container) in containers.enumerated() where skimmable[index] {
                let nestsRefused = container.fields.contains { field in
                    switch field.shape {
                    case .single(.declared(.container(let nested))), .array(.declared(.container(let nested)), _):
                        return !skimmable[nested]
                    default: return false
                    }
                }
                if nestsRefused {
                    skimmable[index] = false
                    changed = true
                }
            }
        }
        let allFixed = containers.map { container in
            container.fields.allSatisfy { field in
                switch field.shape {
                case .single(.scalar(.float64)), .single(.scalar(.timestamp)), .single(.scalar(.fixed64)),
                    .single(.scalar(.float32)), .single(.scalar(.fixed32)):
                    field.number <= 15
                default: false
                }
            }
        }
        var steps = [SkimStep](repeating: .refuse, count: containers.count * 128)
        for (index, container) in containers.enumerated() where skimmable[index] {
            for (fieldIndex, field) in container.fields.enumerated() {
                // Only the field a key's number reads (the first of that number, in a set built
                // by hand without the checks) gives its key a step: another field of the
                // number, of another wire type, is a mismatch the general walk reports.
                guard container.index(ofNumber: field.number) == fieldIndex else { continue }
                let step: SkimStep
                let wireType: WireType
                switch field.shape {
                case .single(.scalar(let scalar)):
                    wireType = ScalarMapping.wireType(scalar)
                    switch scalar {
                    case .float64, .timestamp, .fixed64: step = SkimStep(kind: .fixed, argument: 8)
                    case .float32, .fixed32: step = SkimStep(kind: .fixed, argument: 4)
                    case .bool: step = SkimStep(kind: .varint, argument: 1)
                    // Zigzag maps each signed range onto the unsigned one of its width.
                    case .int8, .uint8: step = SkimStep(kind: .varint, argument: UInt64(UInt8.max))
                    case .int16, .uint16: step = SkimStep(kind: .varint, argument: UInt64(UInt16.max))
                    case .int32, .uint32: step = SkimStep(kind: .varint, argument: UInt64(UInt32.max))
                    case .int64, .uint64: step = SkimStep(kind: .varint, argument: UInt64.max)
                    case .uuid: step = SkimStep(kind: .uuid, argument: 0)
                    case .string: step = SkimStep(kind: .string, argument: 0)
                    case .bytes: step = SkimStep(kind: .bytes, argument: 0)
                    }
                case .single(.declared(.enumeration)):
                    wireType = .varint
                    step = SkimStep(kind: .varint, argument: UInt64(UInt32.max))
                case .single(.declared(.container(let nested))):
                    wireType = .lengthDelimited
                    step = SkimStep(kind: allFixed[nested] ? .fixedNested : .nested, argument: UInt64(nested))
                case .array(.declared(.container(let nested)), _):
                    wireType = .lengthDelimited
                    step = SkimStep(kind: allFixed[nested] ? .fixedElement : .element, argument: UInt64(nested))
                case .single, .array, .map:
                    continue  // not in a skimmable container
                }
                steps[index * 128 + Int(field.number) << 3 | Int(wireType.rawValue)] = step
            }
        }
        return (skimmable, steps)
    }

    /// Resolves types to slots and shapes, collecting the names the set does not declare.
    private struct Resolver {
        let references: [String: Reference]
        var undeclaredNames: [String] = []

        mutating func slot(_ type: TypeRef) -> Slot {
            switch type {
            case .scalar(let scalar): return .scalar(scalar)
            case .named(let name):
                if let reference = references[name] { return .declared(reference) }
                undeclaredNames.append(name)
                return .undeclared(undeclaredNames.count - 1)
            case .array, .map: return .collection
            }
        }

        mutating func shape(_ type: TypeRef) -> Shape {
            switch type {
            case .array(let element):
                let packed: WireType? =
                    switch element {
                    case .scalar(let scalar): scalar.isPackable ? ScalarMapping.wireType(scalar) : nil
                    case .named(let name): if case .enumeration? = references[name] { .varint } else { nil }
                    case .array, .map: nil
                    }
                return .array(slot(element), packed: packed)
            case .map(let key, let value):
                let keyScalar: ScalarType? = if case .scalar(let scalar) = key { scalar } else { nil }
                return .map(key: keyScalar, value: slot(value))
            case .scalar, .named:
                return .single(slot(type))
            }
        }

        mutating func container(_ name: String, _ declared: [FieldDecl]) -> Container {
            let fields = declared.sorted { $0.number < $1.number }.compactMap { field -> Field? in
                // A checked spec keeps field numbers within 1...2^29-1; others are left out.
                guard let number = UInt32(exactly: field.number), number >= 1, number <= FieldKey.maxNumber else { return nil }
                return Field(
                    number: number, name: field.name, type: field.type, isOptional: field.isOptional,
                    defaultValue: field.defaultValue, shape: shape(field.type))
            }
            return Container(name: name, fields: fields)
        }
    }

    fileprivate static func firstIndex<Key: Hashable>(_ keys: [Key]) -> [Key: Int] {
        var index: [Key: Int] = [:]
        for (position, key) in keys.enumerated() where index[key] == nil {
            index[key] = position
        }
        return index
    }
}
