// swift-tools-version: 6.1
// GroupWire benchmarks: their own package, so benchmark-only dependencies never reach
// users of GroupWire. Run in release: `make bench`, or
// `swift run -c release FragmentationBenchmark` / `swift run -c release CompressionBenchmark`.

import PackageDescription

let package = Package(
    name: "GroupWireBenchmarks",
    platforms: [.macOS(.v13)],
    dependencies: [
        // Named, because a path dependency is otherwise identified by its folder name.
        .package(name: "GroupWire", path: ".."),
    ],
    targets: [
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
