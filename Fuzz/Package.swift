// swift-tools-version: 6.1
// libFuzzer targets for GroupWire's decoders: one small executable per decoder surface,
// each checking an invariant (what decodes re-encodes to the same bytes and value).
// Build and run with ./run.sh (or `make fuzz`); see README.md.

import PackageDescription

let strictSwift: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
]

let package = Package(
    name: "GroupWireFuzz",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "GroupWire", path: ".."),
    ],
    targets: [
        .executableTarget(
            name: "FuzzFrameDecoder",
            dependencies: [.product(name: "GroupWire", package: "GroupWire")],
            swiftSettings: strictSwift
        ),
        .executableTarget(
            name: "FuzzPayloadDump",
            dependencies: [.product(name: "GroupWire", package: "GroupWire")],
            swiftSettings: strictSwift
        ),
        // Needs WireEncoder/WireDecoder (Sources/GroupWire/Codable); kept in its own
        // target so the others build without it.
        .executableTarget(
            name: "FuzzWireDecoder",
            dependencies: [.product(name: "GroupWire", package: "GroupWire")],
            swiftSettings: strictSwift
        ),
    ]
)
