/// The package's one hexadecimal: digits read and written for frames, dumps, JSON escapes,
/// spec fingerprints and diagnostics. It lives in the lowest module, which every other one
/// (the spec compiler and generator too, which have no wire core) can use.
package enum Hex {
    /// The value of a hex digit (`0`-`9`, `a`-`f`, `A`-`F`), else nil.
    package static func value(of byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// Whether `byte` is a hex digit.
    package static func isDigit(_ byte: UInt8) -> Bool {
        value(of: byte) != nil
    }

    /// Two digits per byte (lowercase unless `uppercase`), `separator` between bytes.
    package static func string(_ bytes: some Sequence<UInt8>, uppercase: Bool = false, separator: String = "") -> String {
        let digits = Array((uppercase ? "0123456789ABCDEF" : "0123456789abcdef").utf8)
        let between = Array(separator.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.underestimatedCount * (2 + between.count))
        for byte in bytes {
            if !out.isEmpty { out += between }
            // safe because: byte >> 4 and byte & 0xF are both below 16 = digits.count.
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// `value` in hex, padded with zeros to at least `width` digits.
    package static func digits(_ value: some UnsignedInteger, width: Int = 1, uppercase: Bool = false) -> String {
        let text = String(value, radix: 16, uppercase: uppercase)
        return String(repeating: "0", count: max(0, width - text.count)) + text
    }

    /// `0x` and `value` in uppercase hex, padded to `width` digits: `0x0A`, `0x0000ABCD`.
    package static func literal(_ value: some UnsignedInteger, width: Int) -> String {
        "0x" + digits(value, width: width, uppercase: true)
    }
}
