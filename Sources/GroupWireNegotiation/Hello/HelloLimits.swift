/// The bounds a hello decoder enforces on what a peer sends (Spec/FORMAT.md, "The hello").
///
/// The body size bounds everything else; the counts and lengths bound the work one hello
/// can cost (checking a schema table walks every type and member). Each is checked before
/// anything is allocated for the value it bounds, and exceeding one is a
/// `WireError.Kind.limitExceeded` at the offending value.
public struct HelloLimits: Sendable, Hashable {
    /// Largest hello body, in bytes. Default 61,440 (60 KiB): the hello then fits one frame
    /// of the default `maxFrameSize` (65,536) with every header a control frame can carry.
    public var maxHelloSize: Int
    /// Most declarations in the schema table. Default 1,024.
    public var maxTypes: Int
    /// Most fields or cases in one declaration. Default 1,024.
    public var maxMembers: Int
    /// Most reserved ranges plus reserved names in one declaration. Default 256.
    public var maxReserved: Int
    /// Longest name (type, field, case, reserved or package name), in UTF-8 bytes. Default 255.
    public var maxNameLength: Int
    /// Longest string default, in UTF-8 bytes. Default 4,096.
    public var maxStringLength: Int
    /// Most codecs. Default 8.
    public var maxCodecs: Int
    /// Most dictionaries of one codec. Default 64.
    public var maxDictionaries: Int
    /// Most codes in one type expression (`[K:V]` is three). Default 8.
    public var maxTypeCodes: Int

    /// Creates limits; every argument defaults to the documented default.
    public init(
        maxHelloSize: Int = 61_440, maxTypes: Int = 1_024, maxMembers: Int = 1_024, maxReserved: Int = 256,
        maxNameLength: Int = 255, maxStringLength: Int = 4_096, maxCodecs: Int = 8, maxDictionaries: Int = 64,
        maxTypeCodes: Int = 8
    ) {
        self.maxHelloSize = maxHelloSize
        self.maxTypes = maxTypes
        self.maxMembers = maxMembers
        self.maxReserved = maxReserved
        self.maxNameLength = maxNameLength
        self.maxStringLength = maxStringLength
        self.maxCodecs = maxCodecs
        self.maxDictionaries = maxDictionaries
        self.maxTypeCodes = maxTypeCodes
    }

    /// The documented defaults.
    public static let `default` = HelloLimits()
}
