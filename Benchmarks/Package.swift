// swift-tools-version: 6.1
// GroupWire benchmarks: their own package, so benchmark-only dependencies never reach
// users of GroupWire. One executable per suite; run them all in release with `make bench`,
// or one with `swift run -c release NAME` from this folder (it keeps its own .build).

import PackageDescription

let package = Package(
    name: "GroupWireBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        // Named, because a path dependency is otherwise identified by its folder name.
        .package(name: "GroupWire", path: ".."),
    ],
    targets: [
        .executableTarget(
            name: "GroupWireBenchmarks",
            dependencies: [.product(name: "GroupWire", package: "GroupWire")],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .executableTarget(
            name: "FragmentationBenchmark",
            dependencies: [
                .product(name: "GroupWire", package: "GroupWire"),
                .product(name: "GroupWireSession", package: "GroupWire"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .executableTarget(
            name: "CompressionBenchmark",
            dependencies: [
                .product(name: "GroupWire", package: "GroupWire"),
                .product(name: "GroupWireCompression", package: "GroupWire"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
    ]
)
