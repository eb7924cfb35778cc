/// How the generator writes Swift.
public struct GeneratorOptions: Sendable, Hashable {
    /// The access level of generated declarations.
    public var accessLevel: AccessLevel
    /// Which spec files of the set get a Swift file.
    public var files: FileSelection
    /// The tool name written into the DO NOT EDIT stamp.
    public var toolName: String
    /// Whether structs and messages also get a decoder that reports each field to a
    /// `WireDecodingObserver` as it reads it (`init(decodingWire:observer:)`), for checks
    /// the spec language cannot state. Off by default: the plain decoder is unchanged either way.
    public var observedDecoding: Bool

    /// Creates options.
    /// - Parameters:
    ///   - accessLevel: the access level of generated declarations (public by default).
    ///   - files: which spec files get a Swift file (all by default).
    ///   - toolName: the tool named in the stamp.
    ///   - observedDecoding: whether structs and messages also get an observed decoder.
    public init(
        accessLevel: AccessLevel = .public, files: FileSelection = .all, toolName: String = "groupwire-generate",
        observedDecoding: Bool = false
    ) {
        self.accessLevel = accessLevel
        self.files = files
        self.toolName = toolName
        self.observedDecoding = observedDecoding
    }

    /// The access level of generated declarations: `public`, `package` or `internal`.
    public struct AccessLevel: Sendable, Hashable, CustomStringConvertible {
        /// The keyword.
        public let keyword: String

        private init(keyword: String) {
            self.keyword = keyword
        }

        /// `public`: for a library that exports the types.
        public static let `public` = AccessLevel(keyword: "public")
        /// `package`: visible to the package's other modules.
        public static let `package` = AccessLevel(keyword: "package")
        /// `internal`: visible to the module only (no modifier is written).
        public static let `internal` = AccessLevel(keyword: "internal")

        /// Every access level.
        public static let all: [AccessLevel] = [.public, .package, .internal]

        /// Parses `public`, `package` or `internal`.
        public init?(_ keyword: String) {
            guard let level = Self.all.first(where: { $0.keyword == keyword }) else { return nil }
            self = level
        }

        /// The modifier with a trailing space, empty for internal.
        var modifier: String { self == .internal ? "" : keyword + " " }

        /// The keyword.
        public var description: String { keyword }
    }

    /// Which spec files of a set get a Swift file.
    public struct FileSelection: Sendable, Hashable {
        let entryOnly: Bool

        /// Every file of the set: the entry and the files it imports.
        public static let all = FileSelection(entryOnly: false)
        /// The entry file only (imports are generated from their own entry, e.g. by the plugin).
        public static let entryOnly = FileSelection(entryOnly: true)
    }
}
