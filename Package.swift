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
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .visionOS(.v2)],
    products: [
        .library(name: "GroupWire", targets: ["GroupWire"]),
        .library(name: "GroupWireCapture", targets: ["GroupWireCapture"]),
        .library(name: "GroupWireCompression", targets: ["GroupWireCompression"]),
        .library(name: "GroupWireSession", targets: ["GroupWireSession"]),
        .library(name: "GroupWireSpec", targets: ["GroupWireSpec"]),
        .executable(name: "groupwire", targets: ["groupwire"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    ],
    targets: [
        .target(name: "CGroupWireCRC32C"),
        .target(name: "GroupWire", dependencies: ["CGroupWireCRC32C"], swiftSettings: strictSwift),
        .target(
            name: "GroupWireCapture",
            dependencies: ["GroupWire", "GroupWireCompression"],
            swiftSettings: strictSwift
        ),
        .systemLibrary(name: "CZstd", pkgConfig: "libzstd", providers: [.apt(["libzstd-dev"])]),
        .target(
            name: "GroupWireCompression",
            dependencies: ["GroupWire", "CZstd"],
            swiftSettings: strictSwift
        ),
        .executableTarget(
            name: "groupwire",
            dependencies: [
                "GroupWire",
                "GroupWireCapture",
                "GroupWireCompression",
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
        .testTarget(
            name: "GroupWireCompressionTests",
            dependencies: ["GroupWireCompression", "GroupWire"],
            swiftSettings: strictSwift
        ),
        .testTarget(
            name: "GroupWireTests",
            dependencies: ["GroupWire"],
            swiftSettings: strictSwift
        ),
        .testTarget(
            name: "GroupWireCaptureTests",
            dependencies: ["GroupWireCapture", "GroupWireCompression", "GroupWire"],
            swiftSettings: strictSwift
        ),
        .target(name: "GroupWireSession", dependencies: ["GroupWire"], swiftSettings: strictSwift),
        .testTarget(
            name: "GroupWireSessionTests",
            dependencies: ["GroupWireSession", "GroupWire"],
            swiftSettings: strictSwift
        ),
    ]
)
