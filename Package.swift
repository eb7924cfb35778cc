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
        .library(name: "GroupWireCapture", targets: ["GroupWireCapture"]),
        .executable(name: "groupwire", targets: ["groupwire"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    ],
    targets: [
        .target(name: "CGroupWireCRC32C"),
        .target(name: "GroupWire", dependencies: ["CGroupWireCRC32C"], swiftSettings: strictSwift),
        .target(name: "GroupWireCapture", dependencies: ["GroupWire"], swiftSettings: strictSwift),
        .executableTarget(
            name: "groupwire",
            dependencies: [
                "GroupWire",
                "GroupWireCapture",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strictSwift
        ),
        .testTarget(
            name: "GroupWireTests",
            dependencies: ["GroupWire"],
            swiftSettings: strictSwift
        ),
        .testTarget(
            name: "GroupWireCaptureTests",
            dependencies: ["GroupWireCapture", "GroupWire"],
            swiftSettings: strictSwift
        ),
    ]
)
