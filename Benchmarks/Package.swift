// swift-tools-version: 6.2
// GroupWire benchmarks: their own package, so benchmark-only dependencies (swift-protobuf)
// never reach users of GroupWire. One executable per suite; run them all in release with
// `make bench`, or one with `swift run -c release NAME` from this folder (own .build).
// Profile one case of GeneratedCodeBenchmark:
//   valgrind --tool=callgrind .build/release/GeneratedCodeBenchmark --profile UpsertStroke/GroupWire/encode

import PackageDescription

let package = Package(
    name: "GroupWireBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        // Named, because a path dependency is otherwise identified by its folder name.
        .package(name: "GroupWire", path: ".."),
        .package(url: "https://github.com/apple/swift-protobuf", from: "1.39.0"),
    ],
    targets: [
        .executableTarget(
            name: "GroupWireBenchmarks",
            dependencies: [
                .product(name: "GroupWire", package: "GroupWire"),
                .product(name: "GroupWireTesting", package: "GroupWire"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .executableTarget(
            name: "FragmentationBenchmark",
            dependencies: [
                .product(name: "GroupWire", package: "GroupWire"),
                .product(name: "GroupWireSession", package: "GroupWire"),
                .product(name: "GroupWireTesting", package: "GroupWire"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .executableTarget(
            name: "CompressionBenchmark",
            dependencies: [
                .product(name: "GroupWire", package: "GroupWire"),
                .product(name: "GroupWireCompression", package: "GroupWire"),
                .product(name: "GroupWireTesting", package: "GroupWire"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // Counts malloc-family calls by interposing them (Linux/glibc), for allocations per op.
        .target(name: "CAllocationCounter"),
        // Generated GroupWire types vs swift-protobuf vs Foundation JSON on the same shapes.
        .executableTarget(
            name: "GeneratedCodeBenchmark",
            dependencies: [
                "CAllocationCounter",
                .product(name: "GroupWire", package: "GroupWire"),
                .product(name: "GroupWireSession", package: "GroupWire"),
                .product(name: "GroupWireNegotiation", package: "GroupWire"),
                .product(name: "GroupWireSpec", package: "GroupWire"),
                .product(name: "GroupWireTesting", package: "GroupWire"),
                .product(name: "SwiftProtobuf", package: "swift-protobuf"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)],
            // Specs/ holds symlinks to Spec/Examples; the plugin generates their Swift types
            // at build time, so the benchmark always measures the current generator.
            plugins: [.plugin(name: "GroupWireGeneratorPlugin", package: "GroupWire")]
        ),
    ]
)
