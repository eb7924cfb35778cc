import Foundation
import GroupWire
import Testing

/// The canonical order of map keys (Spec/FORMAT.md, "Canonical writing"): String keys by
/// their UTF-8 bytes, whatever the strings' storage.
struct WireMapKeyTests {
    /// The in-place comparison agrees with the UTF-8 bytes' order for small (inline) and
    /// large strings, bridged-like non-contiguous ones, prefixes and bytes above 0x7F (where
    /// a signed comparison would put "é" before "z").
    @Test func stringKeysCompareByTheirUTF8Bytes() {
        let alphabet: [String] = ["", "a", "b", "z", "é", "日", "😀", "aa", "ab", "a\u{0}", "Z", "\u{7F}", "\u{80}"]
        var strings = alphabet
        var state: UInt64 = 9
        for _ in 0..<300 {
            var text = ""
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            for step in 0..<Int(state >> 59) {
                text += alphabet[Int((state >> UInt64(step * 3 % 56)) % UInt64(alphabet.count))]
            }
            strings.append(text)
        }
        // A long shared prefix: past the 15 bytes a small string holds inline.
        strings += ["a-long-shared-prefix-0", "a-long-shared-prefix-1", "a-long-shared-prefix-", "a-long-shared-prefix-é"]
        // Not native: a Substring-built and a Character-built string take other paths.
        strings += [String("xxa-long-shared-prefix-2".dropFirst(2)), String(Array("é-zz").reversed())]
        var disagreements: [String] = []
        for left in strings {
            for right in strings {
                let expected = Array(left.utf8).lexicographicallyPrecedes(Array(right.utf8))
                if String.wireOrder(left, right) != expected {
                    disagreements.append("\(left.debugDescription) < \(right.debugDescription)")
                }
            }
        }
        #expect(disagreements.isEmpty, "\(disagreements.prefix(5))")
        #expect(String.wireOrder("é", "z") == false && String.wireOrder("z", "é") == true)
        #expect(String.wireOrder("ab", "abc") && !String.wireOrder("abc", "ab") && !String.wireOrder("ab", "ab"))
    }

    /// Every map size through the stack sort (up to 16 entries) and past it visits each entry
    /// once, in the order of a full sort by `wireOrder`, for String, integer and UUID keys.
    @Test func sortedWalkVisitsEachEntryOnceInCanonicalOrder() {
        var state: UInt64 = 41
        func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state >> 17
        }
        func walk<Key: _WireMapKey, Value>(_ map: [Key: Value]) -> [Key] {
            var keys: [Key] = []
            map.forEachWireSorted { key, _ in keys.append(key) }
            return keys
        }
        for size in 0...40 {
            var strings: [String: Int] = [:]
            var integers: [Int32: String] = [:]
            var uuids: [UUID: Bool] = [:]
            while strings.count < size { strings[String(next() % 5_000, radix: 36) + (next() % 3 == 0 ? "é" : "")] = size }
            while integers.count < size { integers[Int32(truncatingIfNeeded: next())] = "" }
            while uuids.count < size {
                let (high, low) = (next() &* 0x9E37, next())
                uuids[withUnsafeBytes(of: (high, low)) { UUID(uuid: $0.load(as: uuid_t.self)) }] = true
            }
            #expect(walk(strings) == strings.keys.sorted { String.wireOrder($0, $1) }, "String keys, \(size) entries")
            #expect(walk(integers) == integers.keys.sorted(), "Int32 keys, \(size) entries")
            #expect(walk(uuids) == uuids.keys.sorted { UUID.wireOrder($0, $1) }, "UUID keys, \(size) entries")
        }
        var values: [(String, Int)] = []
        ["b": 2, "a": 1, "c": 3].forEachWireSorted { values.append(($0, $1)) }
        #expect(values.map(\.0) == ["a", "b", "c"] && values.map(\.1) == [1, 2, 3])
    }
}
