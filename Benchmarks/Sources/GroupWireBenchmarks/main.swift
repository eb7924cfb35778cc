import Foundation

// GroupWire benchmarks. Usage:
//   swift run -c release GroupWireBenchmarks [--rounds N] [--suite NAME]
//   swift run -c release GroupWireBenchmarks --profile upsert|playback|canvas[-int] [ITERATIONS] [wire|json|plist]

let suites: [any BenchmarkSuite.Type] = [CodableSuite.self, NestedContainersSuite.self]

var rounds = 31
var selected: String?
var arguments = CommandLine.arguments.dropFirst().makeIterator()
while let argument = arguments.next() {
    switch argument {
    case "--rounds":
        rounds = arguments.next().flatMap { Int($0) }.map { max(1, $0) } ?? rounds
    case "--suite":
        selected = arguments.next()
    case "--profile":
        // Runs only the wire codec on one shape in a loop, for perf/callgrind.
        let shape = arguments.next() ?? "upsert"
        let iterations = arguments.next().flatMap { Int($0) } ?? 100_000
        let codec = arguments.next() ?? "wire"
        do {
            print("checksum", try CodableSuite.profile(shape: shape, iterations: iterations, codec: codec))
            exit(0)
        } catch {
            print("error: \(error)")
            exit(1)
        }
    default:
        print("usage: GroupWireBenchmarks [--rounds N] [--suite \(suites.map { $0.name }.joined(separator: "|"))]")
        exit(2)
    }
}

#if DEBUG
    print("warning: debug build; run `swift run -c release` for meaningful numbers\n")
#endif
print("GroupWire benchmarks: \(rounds) interleaved rounds per operation, median thread CPU time per operation, \(Date())\n")

var harness = Harness(rounds: rounds)
do {
    for suite in suites where selected == nil || selected == suite.name {
        try suite.run(harness: &harness)
    }
} catch {
    print("error: benchmark failed: \(error)")
    exit(1)
}
print("(checksum \(harness.sink))")
