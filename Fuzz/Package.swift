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
        // The targets below call a check function of the main package's GroupWireFuzzChecks
        // product (Harnesses/), which the unit tests' corpus replay calls too, so both check
        // the same invariants.
        .executableTarget(
            name: "FuzzCompression",
            dependencies: [
                .product(name: "_GroupWireFuzzChecks", package: "GroupWire"),
                .product(name: "GroupWire", package: "GroupWire"),
                .product(name: "GroupWireCompression", package: "GroupWire"),
            ],
            swiftSettings: strictSwift
        ),
        .executableTarget(
            name: "FuzzReassembler",
            dependencies: [.product(name: "_GroupWireFuzzChecks", package: "GroupWire"), .product(name: "GroupWire", package: "GroupWire")],
            swiftSettings: strictSwift
        ),
        // The messenger's receiving path: frames from three peers through the decoder,
        // the reassembler, zstd decompression and the type registry.
        .executableTarget(
            name: "FuzzReceivePipeline",
            dependencies: [
                .product(name: "_GroupWireFuzzChecks", package: "GroupWire"),
                .product(name: "GroupWire", package: "GroupWire"),
                .product(name: "GroupWireSession", package: "GroupWire"),
                .product(name: "GroupWireCompression", package: "GroupWire"),
                .product(name: "GroupWireTesting", package: "GroupWire"),
            ],
            swiftSettings: strictSwift
        ),
        .executableTarget(
            name: "FuzzFrameFile",
            dependencies: [
                .product(name: "_GroupWireFuzzChecks", package: "GroupWire"),
                .product(name: "GroupWire", package: "GroupWire"),
                .product(name: "GroupWireSession", package: "GroupWire"),
            ],
            swiftSettings: strictSwift
        ),
        .executableTarget(
            name: "FuzzCaptureReader",
            dependencies: [.product(name: "_GroupWireFuzzChecks", package: "GroupWire")],
            swiftSettings: strictSwift
        ),
        .executableTarget(
            name: "FuzzValidate",
            dependencies: [.product(name: "_GroupWireFuzzChecks", package: "GroupWire")],
            swiftSettings: strictSwift
        ),
        .executableTarget(
            name: "FuzzSpecCompiler",
            dependencies: [.product(name: "_GroupWireFuzzChecks", package: "GroupWire"), .product(name: "GroupWireSpec", package: "GroupWire")],
            swiftSettings: strictSwift
        ),
        // The example types generated from Spec/Examples, as the goldens compiled into
        // GroupWireFuzzChecks: the build plugin's tool cannot be built with the fuzzer flags
        // (libFuzzer brings a `main`).
        .executableTarget(
            name: "FuzzGeneratedTypes",
            dependencies: [.product(name: "_GroupWireFuzzChecks", package: "GroupWire"), .product(name: "GroupWire", package: "GroupWire")],
            swiftSettings: strictSwift
        ),
        // Session control messages from arbitrary peers, through the decoder and one
        // participant's session engine.
        .executableTarget(
            name: "FuzzSessionControl",
            dependencies: [.product(name: "_GroupWireFuzzChecks", package: "GroupWire")],
            swiftSettings: strictSwift
        ),
        // Frames, acknowledgements and events from arbitrary peers through one
        // participant's delivery engine.
        .executableTarget(
            name: "FuzzDelivery",
            dependencies: [.product(name: "_GroupWireFuzzChecks", package: "GroupWire")],
            swiftSettings: strictSwift
        ),
        // A peer's hello body: capabilities and schema table, read back into the spec model.
        .executableTarget(
            name: "FuzzHello",
            dependencies: [.product(name: "_GroupWireFuzzChecks", package: "GroupWire")],
            swiftSettings: strictSwift
        ),
        // The relay protocol's messages (Spec/RELAY.md), and its access tokens.
        .executableTarget(
            name: "FuzzRelayMessage",
            dependencies: [.product(name: "_GroupWireFuzzChecks", package: "GroupWire")],
            swiftSettings: strictSwift
        ),
        .executableTarget(
            name: "FuzzAccessToken",
            dependencies: [.product(name: "_GroupWireFuzzChecks", package: "GroupWire")],
            swiftSettings: strictSwift
        ),
        // What a peer can make a playback coordinator read (Spec/PLAYBACK.md).
        .executableTarget(
            name: "FuzzPlayback",
            dependencies: [.product(name: "_GroupWireFuzzChecks", package: "GroupWire")],
            swiftSettings: strictSwift
        ),
        // What a NATS server sends, to the relay cluster's client (GroupWireNATSProtocol).
        .executableTarget(
            name: "FuzzNATSParser",
            dependencies: [.product(name: "_GroupWireFuzzChecks", package: "GroupWire")],
            swiftSettings: strictSwift
        ),
        // Two peers' hellos and the agreement each side computes, then one peer's engine.
        .executableTarget(
            name: "FuzzAgreement",
            dependencies: [.product(name: "_GroupWireFuzzChecks", package: "GroupWire")],
            swiftSettings: strictSwift
        ),
        .executableTarget(
            name: "FuzzDynamicCodec",
            dependencies: [
                .product(name: "_GroupWireFuzzChecks", package: "GroupWire"),
                .product(name: "GroupWire", package: "GroupWire"),
                .product(name: "GroupWireSpec", package: "GroupWire"),
            ],
            swiftSettings: strictSwift
        ),
    ]
)
