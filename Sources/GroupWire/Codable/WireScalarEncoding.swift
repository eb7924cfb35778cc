/// The primitive `encode` calls the single-value and unkeyed encoding containers both
/// answer, each handing its value to the container's ``encodeScalar(_:)``, which writes
/// the wire type and the value as that container places them. Int128 and UInt128 stay in
/// each container: the standard library's defaults for them would make these ambiguous.
protocol WireScalarEncoding {
    /// Writes one primitive value with its wire type.
    mutating func encodeScalar<S: WireScalar>(_ value: S) throws
}

extension WireScalarEncoding {
    mutating func encode(_ value: Bool) throws { try encodeScalar(value) }
    mutating func encode(_ value: String) throws { try encodeScalar(value) }
    mutating func encode(_ value: Double) throws { try encodeScalar(value) }
    mutating func encode(_ value: Float) throws { try encodeScalar(value) }
    mutating func encode(_ value: Int) throws { try encodeScalar(value) }
    mutating func encode(_ value: Int8) throws { try encodeScalar(value) }
    mutating func encode(_ value: Int16) throws { try encodeScalar(value) }
    mutating func encode(_ value: Int32) throws { try encodeScalar(value) }
    mutating func encode(_ value: Int64) throws { try encodeScalar(value) }
    mutating func encode(_ value: UInt) throws { try encodeScalar(value) }
    mutating func encode(_ value: UInt8) throws { try encodeScalar(value) }
    mutating func encode(_ value: UInt16) throws { try encodeScalar(value) }
    mutating func encode(_ value: UInt32) throws { try encodeScalar(value) }
    mutating func encode(_ value: UInt64) throws { try encodeScalar(value) }
}
