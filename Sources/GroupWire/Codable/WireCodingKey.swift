/// A coding key the Codable encoder and decoder make up themselves: unkeyed element indices,
/// `super`, and keys read back from the wire for ``WireDecoder``'s coding paths.
struct WireCodingKey: CodingKey {
    let stringValue: String
    let intValue: Int?

    init(stringValue: String) {
        self.stringValue = stringValue
        self.intValue = nil
    }

    init(intValue: Int) {
        self.stringValue = "Index \(intValue)"
        self.intValue = intValue
    }

    /// A numbered key whose own `CodingKey` type could not rebuild it: its number as text.
    init(number: Int) {
        self.stringValue = "\(number)"
        self.intValue = number
    }

    /// The key `superEncoder()` / `superDecoder()` use.
    static let superKey = WireCodingKey(stringValue: "super")
}

/// Renders coding paths the way error messages show them: `strokes[3].points[0].x`.
enum WireCodingPath {
    /// `path` as text, or `<root>` when it is empty.
    static func render(_ path: [any CodingKey]) -> String {
        if path.isEmpty { return "<root>" }
        var text = ""
        for key in path {
            if let index = key.intValue, key.stringValue == "Index \(index)" {
                text += "[\(index)]"
            } else {
                if !text.isEmpty { text += "." }
                text += key.stringValue
            }
        }
        return text
    }
}

/// A coding path component that costs no allocation: key bytes already in a buffer (the
/// encoder's output or the decoder's input), or an unkeyed index.
enum WirePathEntry {
    /// The value has no key of its own (the root, or a single-value wrapper).
    case none
    /// The key whose UTF-8 bytes sit at `offset..<offset + length`.
    case key(offset: Int, length: Int)
    /// A numbered key of the `CodingKey` type `type` (a metatype: no allocation).
    case number(Int, any CodingKey.Type)
    /// An unkeyed element index.
    case index(Int)

    /// The entry as a coding key, reading key bytes from `bytes`; nil for ``none``.
    func codingKey(in bytes: [UInt8]) -> (any CodingKey)? {
        switch self {
        case .none:
            return nil
        case .index(let index):
            return WireCodingKey(intValue: index)
        case .number(let number, let type):
            return type.init(intValue: number) ?? WireCodingKey(number: number)
        case .key(let offset, let length):
            let lower = min(max(offset, 0), bytes.count)
            let upper = min(max(offset + length, lower), bytes.count)
            return WireCodingKey(stringValue: String(decoding: bytes[lower..<upper], as: UTF8.self))
        }
    }
}

/// Whether a key is written by number or by name (Spec/FORMAT.md, "Keyed containers").
enum WireKeyForm {
    /// The number `key` is written and looked up under, or nil when it goes by its name.
    ///
    /// A key is numbered when its `intValue` is some `n >= 0`, unless its `stringValue` reads
    /// like an integer (starts with a digit, `+` or `-`) other than `n`'s own decimal text.
    /// That exception keeps keys whose text the number would lose by name: a `[String: V]`
    /// key `"042"` has `intValue` 42, but decoding rebuilds keys from numbers as `"42"`.
    /// Writer and reader apply the same rule to the same key, so they always agree on the
    /// form. Key types must map each number to one key (`Key(intValue: k.intValue!)` is
    /// `k`), as synthesised `Int`-backed `CodingKeys` and the standard library's dictionary
    /// keys do.
    ///
    /// (Not a `Key(intValue:)` round trip: its `Key?` costs a runtime metadata lookup per
    /// call in unspecialised code, about 600 instructions per key with the comparison,
    /// measured with callgrind; that made numbered keys slower than names.)
    @inline(__always)
    static func number<Key: CodingKey>(of key: Key) -> Int? {
        guard let number = key.intValue, number >= 0 else { return nil }
        let first = key.stringValue.utf8.first ?? 0
        if (first >= 0x30 && first <= 0x39) || first == 0x2B || first == 0x2D {
            return isDecimalText(key.stringValue, of: number) ? number : nil
        }
        return number
    }

    /// Whether `text` is exactly `number` in decimal. (Out of line: only numeral keys need it.)
    @inline(never)
    static func isDecimalText(_ text: String, of number: Int) -> Bool {
        text == String(number)
    }
}
