import CGroupWireCRC32C

/// CRC32C (Castagnoli), the checksum that protects every GroupWire frame.
///
/// Reflected polynomial 0x82F63B78, initial value and final XOR 0xFFFFFFFF. Check values:
/// `"123456789"` → `0xE3069283`, 32 zero bytes → `0x8A9136AA`. Uses the CPU's CRC32
/// instruction where available (SSE 4.2) and a slicing-by-8 table otherwise.
public enum CRC32C {
    /// The CRC32C of `bytes`.
    public static func checksum(_ bytes: [UInt8]) -> UInt32 {
        bytes.withUnsafeBytes { update(0, $0) }
    }

    /// The CRC32C of `range` of `bytes`.
    /// - Precondition: `range` lies inside `bytes` (callers check it first).
    public static func checksum(_ bytes: [UInt8], range: Range<Int>) -> UInt32 {
        bytes.withUnsafeBytes { raw in update(0, UnsafeRawBufferPointer(rebasing: raw[range])) }
    }

    /// Continues a checksum: `update(checksum(a), b) == checksum(a + b)`.
    public static func update(_ crc: UInt32, _ buffer: UnsafeRawBufferPointer) -> UInt32 {
        guard let base = buffer.baseAddress, !buffer.isEmpty else { return crc }
        return gw_crc32c_update(crc, base, buffer.count)
    }

    /// Whether the hardware instruction path is in use on this machine.
    public static var usesHardware: Bool { gw_crc32c_uses_hardware() != 0 }
}

extension CRC32C {
    /// The table-driven path alone, so tests can check it against the hardware path.
    package static func portableUpdate(_ crc: UInt32, _ buffer: UnsafeRawBufferPointer) -> UInt32 {
        guard let base = buffer.baseAddress, !buffer.isEmpty else { return crc }
        return gw_crc32c_update_portable(crc, base, buffer.count)
    }
}
