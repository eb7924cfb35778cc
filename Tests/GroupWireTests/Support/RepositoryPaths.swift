import Foundation

/// Bytes from a hex string; nil when it is not hex.
func bytes(hex: String) -> [UInt8]? {
    var result: [UInt8] = []
    result.reserveCapacity(hex.utf8.count / 2)
    var high: UInt8?
    for scalar in hex.utf8 {
        let nibble: UInt8
        switch scalar {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): nibble = scalar - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): nibble = scalar - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): nibble = scalar - UInt8(ascii: "A") + 10
        default: return nil
        }
        if let h = high {
            result.append(h << 4 | nibble)
            high = nil
        } else {
            high = nibble
        }
    }
    return high == nil ? result : nil
}

