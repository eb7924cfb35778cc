import CZstd
import GroupWire

/// Checks the `size_t` results of libzstd calls: the one place that turns a zstd error
/// code into a `WireError`.
enum ZstdResult {
    /// Whether `code` is a zstd error code.
    static func isError(_ code: Int) -> Bool {
        ZSTD_isError(code) != 0
    }

    /// The libzstd error name for `code` ("Data corruption detected", ...).
    static func name(_ code: Int) -> String {
        String(cString: ZSTD_getErrorName(code))
    }

    /// The zstd error enum for `code`.
    static func errorCode(_ code: Int) -> ZSTD_ErrorCode {
        ZSTD_getErrorCode(code)
    }

    /// Returns `code` when it is a success value; throws `kind` naming `call` otherwise.
    @discardableResult
    static func check(_ code: Int, _ kind: WireError.Kind, _ call: @autoclosure () -> String) throws(WireError) -> Int {
        if isError(code) {
            throw WireError(kind, "\(call()) failed: \(name(code))")
        }
        return code
    }
}

/// Constants of the zstd format (RFC 8878) that the header does not export as values
/// Swift can import.
enum ZstdFormat {
    /// The zstd frame magic number, 0xFD2FB528, as its four little-endian bytes.
    static let frameMagic: [UInt8] = [0x28, 0xB5, 0x2F, 0xFD]
    /// The zstd dictionary magic number, 0xEC30A437, as its four little-endian bytes.
    static let dictionaryMagic: [UInt8] = [0x37, 0xA4, 0x30, 0xEC]
    /// Smallest window log a zstd frame may use (`ZSTD_WINDOWLOG_ABSOLUTEMIN`).
    static let windowLogAbsoluteMin = 10

    /// Whether `bytes` starts with a skippable-frame magic (0x184D2A50...0x184D2A5F LE).
    static func startsWithSkippableMagic(_ bytes: [UInt8]) -> Bool {
        bytes.count >= 4 && bytes[0] & 0xF0 == 0x50 && bytes[1] == 0x2A && bytes[2] == 0x4D
            && bytes[3] == 0x18
    }
}
