/// "Did you mean" suggestions by edit distance.
enum Suggest {
    /// The candidate closest to `word` within a small edit distance, if any (ties: alphabetical).
    static func closest(to word: String, in candidates: some Sequence<String>) -> String? {
        let source = Array(word.lowercased().unicodeScalars)
        guard source.count <= 64 else { return nil }
        let limit = max(1, source.count / 3)
        var best: (distance: Int, name: String)?
        for candidate in candidates.sorted() where candidate != word {
            let target = Array(candidate.lowercased().unicodeScalars)
            guard target.count <= 64, abs(target.count - source.count) <= limit else { continue }
            let distance = editDistance(source, target)
            if distance <= limit, best.map({ distance < $0.distance }) ?? true {
                best = (distance, candidate)
            }
        }
        return best?.name
    }

    private static func editDistance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
        var previous = Array(0...b.count)
        for (i, x) in a.enumerated() {
            var row = [i + 1] + Array(repeating: 0, count: b.count)
            for (j, y) in b.enumerated() {
                row[j + 1] = Swift.min(previous[j + 1] + 1, row[j] + 1, previous[j] + (x == y ? 0 : 1))
            }
            previous = row
        }
        return previous[b.count]
    }
}
