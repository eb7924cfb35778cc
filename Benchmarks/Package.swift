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
        // The WebSocket stacks the relay was chosen among (WebSocketStackBenchmark only).
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket", from: "2.8.1"),
        .package(url: "https://github.com/hummingbird-project/swift-websocket", from: "1.6.2"),
    ],
    targets: [
        .executableTarget(
            name: "RelayBenchmark",
            dependencies: [
                .product(name: "GroupWireNetwork", package: "GroupWire"),
                .product(name: "GroupWireSession", package: "GroupWire"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .executableTarget(
            name: "WebSocketStackBenchmark",
            dependencies: [
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "WSClient", package: "swift-websocket"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
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
        // Coordinated playback: accuracy under jitter, messages a minute, the clock estimate's cost.
        .executableTarget(
            name: "PlaybackBenchmark",
            dependencies: [
                .product(name: "GroupWireSession", package: "GroupWire"),
                .product(name: "GroupWireTesting", package: "GroupWire"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // groupwire validate's throughput and memory beside tshark with the generated dissector.
        .executableTarget(
            name: "ValidateBenchmark",
            dependencies: [
                .product(name: "GroupWire", package: "GroupWire"),
                .product(name: "GroupWireSpec", package: "GroupWire"),
                .product(name: "GroupWireCompression", package: "GroupWire"),
                .product(name: "GroupWireSession", package: "GroupWire"),
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
