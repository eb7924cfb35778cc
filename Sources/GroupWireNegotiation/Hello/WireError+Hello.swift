import GroupWire

extension WireError.Kind {
    /// A hello's lowest envelope version is above its highest.
    public static let invalidVersionRange = WireError.Kind(name: "invalidVersionRange")
    /// A hello's schema table declares one type name twice.
    public static let duplicateTypeName = WireError.Kind(name: "duplicateTypeName")
    /// A hello lists one codec twice, or one dictionary id of a codec twice.
    public static let duplicateCodec = WireError.Kind(name: "duplicateCodec")
    /// A fingerprint in a hello differs from the one its schema table gives.
    public static let fingerprintMismatch = WireError.Kind(name: "fingerprintMismatch")
    /// A hello's schema table is not a valid spec (a name that is not an identifier, a map
    /// key type not allowed, an enum without case 0, ...): the rules of Spec/LANGUAGE.md.
    public static let invalidSchema = WireError.Kind(name: "invalidSchema")
}
