#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A value the Codable containers write and read directly (Bool, String, the integers,
/// Float, Double), so each container method is one generic call specialised per type
/// instead of boxed in an existential.
protocol WireScalar {
    /// The wire type this value is written with.
    var wireType: UInt8 { get }
    /// Appends the value's data (not its wire type).
    func write(to writer: inout ByteWriter)
    /// Reads a value of this type from `value`'s data.
    /// - Throws: ``WireError`` `typeMismatch`, `invalidValue`, `invalidUTF8`, `limitExceeded`.
    static func read(_ value: WireValue, from input: ByteReader, limits: Limits) throws(WireError) -> Self
}

extension WireScalar {
    /// The error for a value written with a wire type this type cannot be read from.
    static func mismatch(_ value: WireValue) -> WireError {
        WireError(
            .typeMismatch, offset: value.at,
            "expected \(Self.self), found wire type \(CodableWireType.name(value.type))")
    }
}

/// The fixed-width integers up to 64 bits: a varint, zigzag-mapped when signed. The branch
/// on `isSigned` folds away in each specialisation.
protocol WireIntegerScalar: WireScalar, FixedWidthInteger {}

extension WireIntegerScalar {
    @inline(__always) var wireType: UInt8 { CodableWireType.varint }

    @inline(__always) func write(to writer: inout ByteWriter) {
        if Self.isSigned {
            writer.writeSVarint(Int64(truncatingIfNeeded: self))
        } else {
            writer.writeUVarint(UInt64(truncatingIfNeeded: self))
        }
    }

    static func read(_ value: WireValue, from input: ByteReader, limits: Limits) throws(WireError) -> Self {
        guard value.type == CodableWireType.varint else { throw mismatch(value) }
        var reader = input
        reader.cursor = value.start
        if isSigned {
            let raw = try reader.readSVarint()
            guard let result = Self(exactly: raw) else { throw outOfRange(raw, value) }
            return result
        }
        let raw = try reader.readUVarint()
        guard let result = Self(exactly: raw) else { throw outOfRange(raw, value) }
        return result
    }

    private static func outOfRange(_ raw: some BinaryInteger, _ value: WireValue) -> WireError {
        WireError(.invalidValue, offset: value.at, "\(raw) does not fit \(Self.self)")
    }
}

extension Int: WireIntegerScalar {}
extension Int8: WireIntegerScalar {}
extension Int16: WireIntegerScalar {}
extension Int32: WireIntegerScalar {}
extension Int64: WireIntegerScalar {}
extension UInt: WireIntegerScalar {}
extension UInt8: WireIntegerScalar {}
extension UInt16: WireIntegerScalar {}
extension UInt32: WireIntegerScalar {}
extension UInt64: WireIntegerScalar {}

/// The 128-bit integers: a varint while the value fits the 64-bit `Narrow` type, else
/// fixed128 (16 bytes, little-endian, two's complement for the signed one).
protocol WireWideScalar: WireScalar, FixedWidthInteger {
    associatedtype Narrow: FixedWidthInteger
    static func writeNarrow(_ value: Narrow, to writer: inout ByteWriter)
    static func readNarrow(_ reader: inout ByteReader) throws(WireError) -> Narrow
}

extension WireWideScalar {
    var wireType: UInt8 { Narrow(exactly: self) == nil ? CodableWireType.fixed128 : CodableWireType.varint }

    func write(to writer: inout ByteWriter) {
        if let narrow = Narrow(exactly: self) {
            Self.writeNarrow(narrow, to: &writer)
        } else {
            writer.writeFixed64LE(UInt64(truncatingIfNeeded: self))
            writer.writeFixed64LE(UInt64(truncatingIfNeeded: self >> 64))
        }
    }

    static func read(_ value: WireValue, from input: ByteReader, limits: Limits) throws(WireError) -> Self {
        var reader = input
        reader.cursor = value.start
        switch value.type {
        case CodableWireType.varint:
            return Self(try readNarrow(&reader))
        case CodableWireType.fixed128:
            let low = try reader.readFixed64LE()
            let high = try reader.readFixed64LE()
            // Shifts on FixedWidthInteger discard the bits shifted out, so this rebuilds the
            // two's complement pattern for Int128 as well.
            return Self(truncatingIfNeeded: high) << 64 | Self(truncatingIfNeeded: low)
        default:
            throw mismatch(value)
        }
    }
}

@available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
extension Int128: WireWideScalar {
    static func writeNarrow(_ value: Int64, to writer: inout ByteWriter) { writer.writeSVarint(value) }
    static func readNarrow(_ reader: inout ByteReader) throws(WireError) -> Int64 { try reader.readSVarint() }
}

@available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
extension UInt128: WireWideScalar {
    static func writeNarrow(_ value: UInt64, to writer: inout ByteWriter) { writer.writeUVarint(value) }
    static func readNarrow(_ reader: inout ByteReader) throws(WireError) -> UInt64 { try reader.readUVarint() }
}

extension Bool: WireScalar {
    @inline(__always) var wireType: UInt8 { CodableWireType.varint }

    @inline(__always) func write(to writer: inout ByteWriter) {
        writer.write(self ? 1 : 0)
    }

    static func read(_ value: WireValue, from input: ByteReader, limits: Limits) throws(WireError) -> Bool {
        guard value.type == CodableWireType.varint else { throw mismatch(value) }
        var reader = input
        reader.cursor = value.start
        switch try reader.readUVarint() {
        case 0: return false
        case 1: return true
        case let other: throw WireError(.invalidValue, offset: value.at, "\(other) is not a Bool (0 or 1)")
        }
    }
}

extension Double: WireScalar {
    /// The value as a Float when converting back gives the same bit pattern (exact values
    /// such as 12.5, 1, -0.0, the infinities, Float-range subnormals, NaNs whose payload
    /// survives), else nil. Such values are written as fixed32: half the bytes, no loss.
    @inline(__always) var exactFloat: Float? {
        let narrow = Float(self)
        return Double(narrow).bitPattern == bitPattern ? narrow : nil
    }

    @inline(__always) var wireType: UInt8 {
        exactFloat == nil ? CodableWireType.fixed64 : CodableWireType.fixed32
    }

    @inline(__always) func write(to writer: inout ByteWriter) {
        if let narrow = exactFloat {
            writer.writeFixed32LE(narrow.bitPattern)
        } else {
            writer.writeFixed64LE(bitPattern)
        }
    }

    /// Reads fixed64, or widens a fixed32 (exact): narrowed Doubles, and fields that grew
    /// from Float to Double.
    static func read(_ value: WireValue, from input: ByteReader, limits: Limits) throws(WireError) -> Double {
        var reader = input
        reader.cursor = value.start
        switch value.type {
        case CodableWireType.fixed64: return Double(bitPattern: try reader.readFixed64LE())
        case CodableWireType.fixed32: return Double(Float(bitPattern: try reader.readFixed32LE()))
        default: throw mismatch(value)
        }
    }
}

extension Float: WireScalar {
    @inline(__always) var wireType: UInt8 { CodableWireType.fixed32 }

    @inline(__always) func write(to writer: inout ByteWriter) {
        writer.writeFixed32LE(bitPattern)
    }

    static func read(_ value: WireValue, from input: ByteReader, limits: Limits) throws(WireError) -> Float {
        guard value.type == CodableWireType.fixed32 else { throw mismatch(value) }
        var reader = input
        reader.cursor = value.start
        return Float(bitPattern: try reader.readFixed32LE())
    }
}

extension String: WireScalar {
    @inline(__always) var wireType: UInt8 { CodableWireType.len }

    func write(to writer: inout ByteWriter) {
        writer.writeLengthPrefixed(self)
    }

    static func read(_ value: WireValue, from input: ByteReader, limits: Limits) throws(WireError) -> String {
        guard value.type == CodableWireType.len else { throw mismatch(value) }
        let count = value.end - value.start
        guard count <= limits.maxStringLength else {
            throw WireError(
                .limitExceeded, offset: value.at,
                "string of \(count) bytes is over maxStringLength \(limits.maxStringLength)")
        }
        return try input.bytes.withUnsafeWireBytes { raw throws(WireError) in
            // safe because: the value's extent was checked against its container, so
            // start..<end lies inside the input.
            guard value.start >= 0, value.end <= raw.count, value.start <= value.end else {
                throw WireError(.truncated, offset: value.at, "string runs past the end of the input")
            }
            let utf8 = UnsafeBufferPointer(rebasing: raw.bindMemory(to: UInt8.self)[value.start..<value.end])
            // ASCII (most keys and identifiers) needs no validation beyond the high bit;
            // String(validating:) is several times slower for short strings.
            var highBits: UInt8 = 0
            for byte in utf8 {
                highBits |= byte
            }
            if highBits < 0x80 {
                return String(decoding: utf8, as: UTF8.self)
            }
            guard let text = String(validating: utf8, as: UTF8.self) else {
                throw WireError(.invalidUTF8, offset: value.start, "string of \(count) bytes is not valid UTF-8")
            }
            return text
        }
    }
}
