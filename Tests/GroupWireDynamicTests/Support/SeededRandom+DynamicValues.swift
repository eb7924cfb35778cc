import GroupWireTesting

/// Random values for the dynamic codec's property tests, from the package's one seeded generator.
extension SeededRandom {
    /// A Float64 drawn from interesting values and ordinary ones.
    mutating func double() -> Double {
        switch Int.random(in: 0..<10, using: &self) {
        case 0: return 0
        case 1: return -0.0
        case 2:
            return [
                Double.infinity, -Double.infinity, Double.nan, Double.leastNonzeroMagnitude,
                Double.greatestFiniteMagnitude, 0.1, 1e-7, -1e21,
            ][Int.random(in: 0..<8, using: &self)]
        case 3: return Double(Int.random(in: -1000...1000, using: &self))
        default: return Double.random(in: -5000...5000, using: &self)
        }
    }

    /// A string mixing ASCII, escapes, control characters and non-BMP characters.
    mutating func string(maxLength: Int = 12) -> String {
        let pieces = ["a", "Z", "0", " ", "\"", "\\", "/", "\n", "\t", "\u{1}", "é", "日本", "😀", "\u{7F}", "\u{2028}"]
        let count = Int.random(in: 0...maxLength, using: &self)
        return (0..<count).map { _ in pieces[Int.random(in: 0..<pieces.count, using: &self)] }.joined()
    }

    /// Sixteen random bytes, or all zeros (the default) now and then.
    mutating func uuidBytes() -> (
        UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
        UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8
    ) {
        if chance(0.1) { return (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0) }
        var bytes = [UInt8](repeating: 0, count: 16)
        for index in 0..<16 { bytes[index] = UInt8.random(in: 0...255, using: &self) }
        return (
            bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
            bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
        )
    }
}
