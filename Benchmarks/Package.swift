// swift-tools-version: 6.2
// GroupWire benchmarks: their own package so benchmark-only code and dependencies never
// reach users of GroupWire. Run with `make bench` (release mode).

import PackageDescription

let package = Package(
    name: "GroupWireBenchmarks",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(name: "GroupWire", path: ".."),
    ],
    targets: [
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
