import Foundation
import GroupWire

/// Parses spaced or unspaced hex (`"0a 10 6f1c"`) into bytes; test data only.
func hex(_ text: String) -> [UInt8] {
    let digits = text.filter { !$0.isWhitespace }
    var bytes: [UInt8] = []
    var index = digits.startIndex
    while index < digits.endIndex {
        let next = digits.index(index, offsetBy: 2)
        bytes.append(UInt8(digits[index..<next], radix: 16) ?? 0xFF)
        index = next
    }
    return bytes
}

/// Lowercase hex of `bytes`, for readable failure messages.
func hexString(_ bytes: [UInt8]) -> String {
    bytes.map { String(format: "%02x", $0) }.joined()
}

/// The UUID of the FORMAT.md payload example.
let exampleID = UUID(uuidString: "6F1C2A9E-4B7D-4E0F-8A3B-5C6D7E8F9A0B")!
/// A second UUID for maps and references.
let otherID = UUID(uuidString: "00000000-0000-0000-0000-0000000000AB")!
