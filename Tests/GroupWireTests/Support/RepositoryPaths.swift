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

/// A small deterministic generator (SplitMix64) so randomized tests replay exactly.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
