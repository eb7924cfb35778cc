// swift-tools-version: 6.2
// GroupWire benchmarks: their own package so swift-protobuf never enters the main graph.
// Run: cd Benchmarks && swift run -c release GeneratedCodeBenchmark [--rounds N] [--output FILE]
// Profile one case: valgrind --tool=callgrind .build/release/GeneratedCodeBenchmark --profile UpsertStroke/GroupWire/encode

import PackageDescription

let package = Package(
    name: "GroupWireBenchmarks",
    platforms: [.macOS(.v13)],
    dependencies: [
        // Named, because a path dependency is otherwise identified by its folder name.
        .package(name: "GroupWire", path: ".."),
        .package(url: "https://github.com/apple/swift-protobuf", from: "1.39.0"),
    ],
    targets: [
        // Counts malloc-family calls by interposing them (Linux/glibc), for allocations per op.
        .target(name: "CAllocationCounter"),
        // Generated GroupWire types vs swift-protobuf vs Foundation JSON on the same shapes.
        .executableTarget(
            name: "GeneratedCodeBenchmark",
            dependencies: [
                "CAllocationCounter",
                .product(name: "GroupWire", package: "GroupWire"),
                .product(name: "SwiftProtobuf", package: "swift-protobuf"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)],
            // Specs/ holds symlinks to Spec/Examples; the plugin generates their Swift types
            // at build time, so the benchmark always measures the current generator.
            plugins: [.plugin(name: "GroupWireGeneratorPlugin", package: "GroupWire")]
        ),
    ]
)
