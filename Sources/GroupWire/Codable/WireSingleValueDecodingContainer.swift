#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The single-value container ``WireDecoder`` hands out, bound to one value.
///
/// Kept to three words so that `any SingleValueDecodingContainer` stores it inline instead of
/// allocating a box (raw-value enums, Optionals and wrappers all go through here).
struct WireSingleValueDecodingContainer: SingleValueDecodingContainer {
    let core: WireDecoderCore
    /// Where the value's data starts (its length prefix, for `len`).
    private let at: Int
    /// The wire type (bits 0-7), the depth (bits 8-31) and the path depth (bits 32-63).
    private let packed: UInt64

    init(core: WireDecoderCore, value: WireValue, pathDepth: Int, depth: Int) {
        self.core = core
        at = value.at
        packed =
            UInt64(value.type)
            | UInt64(min(max(depth, 0), 0xFF_FFFF)) << 8
            | UInt64(min(max(pathDepth, 0), Int(UInt32.max))) << 32
    }

    /// How many values enclose this value.
    private var depth: Int { Int((packed >> 8) & 0xFF_FFFF) }
    /// This container's path is `core.path.prefix(pathDepth)`.
    private var pathDepth: Int { Int(packed >> 32) }
    private var type: UInt8 { UInt8(truncatingIfNeeded: packed) }

    /// The value, its extent read again (it was checked when it was first read).
    private var value: WireValue {
        var reader = core.input
        reader.cursor = at
        return (try? WireValue.read(type: type, typeOffset: at, from: &reader)) ?? .null(at: at)
    }

    var codingPath: [any CodingKey] { core.codingPath(pathDepth: pathDepth, prefix: 0) }

    @inline(__always) private func scalar<S: WireScalar>(_ type: S.Type) throws -> S {
        try core.scalar(S.self, value, pathDepth: pathDepth, prefix: 0, entry: .none)
    }

    func decodeNil() -> Bool { type == CodableWireType.null }
    func decode(_ type: Bool.Type) throws -> Bool { try scalar(type) }
    func decode(_ type: String.Type) throws -> String {
        // UUID's own Decodable reads a String here; a UUID written in its compact form
        // (fixed128) gives its text back, as JSON would (forwarding wrappers rely on it).
        if self.type == CodableWireType.fixed128 {
            let uuid = try core.decodeFoundation(UUID.self, value, pathDepth: pathDepth, prefix: 0, entry: .none)
            return uuid.uuidString
        }
        return try scalar(type)
    }
    func decode(_ type: Double.Type) throws -> Double { try scalar(type) }
    func decode(_ type: Float.Type) throws -> Float { try scalar(type) }
    func decode(_ type: Int.Type) throws -> Int { try scalar(type) }
    func decode(_ type: Int8.Type) throws -> Int8 { try scalar(type) }
    func decode(_ type: Int16.Type) throws -> Int16 { try scalar(type) }
    func decode(_ type: Int32.Type) throws -> Int32 { try scalar(type) }
    func decode(_ type: Int64.Type) throws -> Int64 { try scalar(type) }
    func decode(_ type: UInt.Type) throws -> UInt { try scalar(type) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try scalar(type) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try scalar(type) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try scalar(type) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try scalar(type) }

    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    func decode(_ type: Int128.Type) throws -> Int128 { try scalar(type) }

    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    func decode(_ type: UInt128.Type) throws -> UInt128 { try scalar(type) }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        // A wrapped value (Optional, RawRepresentable, a custom wrapper) reads the same bytes,
        // one level deeper, so wrappers cannot recurse without bound.
        try core.decodeValue(T.self, value, parentDepth: depth, pathDepth: pathDepth, prefix: 0, entry: .none)
    }
}
