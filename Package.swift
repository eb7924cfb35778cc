// swift-tools-version: 6.1
// GroupWire: a versioned binary wire protocol for group-session messengers.

import PackageDescription

let strictSwift: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
]

let package = Package(
    name: "GroupWire",
    platforms: [.macOS(.v13), .iOS(.v16)],
    products: [
        .library(name: "GroupWire", targets: ["GroupWire"]),
        .library(name: "GroupWireSpec", targets: ["GroupWireSpec"]),
        .executable(name: "groupwire", targets: ["groupwire"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    ],
    targets: [
        .target(name: "GroupWire", swiftSettings: strictSwift),
        .executableTarget(
            name: "groupwire",
            dependencies: [
                "GroupWire",
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
            name: "GroupWireTests",
            dependencies: ["GroupWire"],
            swiftSettings: strictSwift
        ),
    ]
)
