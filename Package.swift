// swift-tools-version: 6.2
// GroupWire: a versioned binary wire protocol for group-session messengers.

import PackageDescription

/// Swift 6 language mode everywhere; CI (GROUPWIRE_WERROR=1) also treats warnings as errors
/// in this package's own targets, not in its dependencies.
let strictSwift: [SwiftSetting] =
    [.swiftLanguageMode(.v6)]
    + (Context.environment["GROUPWIRE_WERROR"] == nil ? [] : [.treatAllWarnings(as: .error)])

let package = Package(
    name: "GroupWire",
    platforms: [.macOS(.v13), .iOS(.v16)],
    products: [
        .library(name: "GroupWire", targets: ["GroupWire"]),
        .library(name: "GroupWireSpec", targets: ["GroupWireSpec"]),
        .library(name: "GroupWireDynamic", targets: ["GroupWireDynamic"]),
        .executable(name: "groupwire", targets: ["groupwire"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    ],
    targets: [
        .target(name: "CGroupWireCRC32C"),
        .target(name: "GroupWire", dependencies: ["CGroupWireCRC32C"], swiftSettings: strictSwift),
        .executableTarget(
            name: "groupwire",
            dependencies: [
                "GroupWire",
                "GroupWireSpec",
                "GroupWireDynamic",
                "GroupWireTools",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strictSwift
        ),
        // The spec language: lexer, parser, semantic model, fingerprints, compatibility.
        // Foundation only, so tools and plugins can use it without the wire core.
        .target(name: "GroupWireSpec", swiftSettings: strictSwift),
        .testTarget(
            name: "GroupWireSpecTests",
            dependencies: ["GroupWireSpec"],
            swiftSettings: strictSwift
        ),
        // Schema-driven JSON <-> payload codec for any spec type, without generated code.
        .target(name: "GroupWireDynamic", dependencies: ["GroupWire", "GroupWireSpec"], swiftSettings: strictSwift),
        .testTarget(
            name: "GroupWireDynamicTests",
            dependencies: ["GroupWireDynamic", "GroupWire", "GroupWireSpec"],
            swiftSettings: strictSwift
        ),
        // What the CLI commands do, as testable values (results with output, messages, status).
        .target(
            name: "GroupWireTools",
            dependencies: ["GroupWire", "GroupWireSpec", "GroupWireDynamic"],
            swiftSettings: strictSwift
        ),
        .testTarget(
            name: "GroupWireToolsTests",
            dependencies: ["GroupWireTools", "GroupWireDynamic", "GroupWireSpec"],
            swiftSettings: strictSwift
        ),
        .testTarget(
            name: "GroupWireTests",
            dependencies: ["GroupWire"],
            swiftSettings: strictSwift
        ),
    ]
)
