// swift-tools-version: 6.1
// GroupWire benchmarks: a tiny harness plus one file per suite. Run with
// `swift run -c release` from this folder (it keeps its own .build).

import PackageDescription

let package = Package(
    name: "GroupWireBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        // Named, so the product reference works whatever the checkout folder is called.
        .package(name: "GroupWire", path: ".."),
    ],
    targets: [
        .executableTarget(
            name: "GroupWireBenchmarks",
            dependencies: [.product(name: "GroupWire", package: "GroupWire")],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
    ]
)
