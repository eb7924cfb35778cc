// swift-tools-version: 6.2
// GroupWire: a versioned binary wire protocol for group-session messengers.

import PackageDescription

/// Swift 6 language mode everywhere; CI (GROUPWIRE_WERROR=1) also treats warnings as errors
/// in this package's own targets, not in its dependencies.
let strictSwift: [SwiftSetting] =
    [.swiftLanguageMode(.v6)]
    + (Context.environment["GROUPWIRE_WERROR"] == nil ? [] : [.treatAllWarnings(as: .error)])

// The fuzz build (Fuzz/run.sh sets GROUPWIRE_FUZZ=1): see the end of this file.
let fuzzBuild = Context.environment["GROUPWIRE_FUZZ"] != nil

let package = Package(
    name: "GroupWire",
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .visionOS(.v2)],
    // Six products, each a job an app picks (the modules inside them are listed in the
    // README), and one underscored product for our own fuzz package.
    products: [
        // Frames, messages, the Codable wire coder, generated code's support; the package's JSON.
        .library(name: "GroupWire", targets: ["GroupWire", "GroupWireJSON"]),
        // zstd compression of payloads, dictionaries (needs libzstd).
        .library(name: "GroupWireCompression", targets: ["GroupWireCompression"]),
        // Messenger, transports, delivery, sessions, negotiation, playback; capturing a
        // messenger's traffic (frame files, pcapng, CapturingTransport). No zstd.
        .library(
            name: "GroupWireSession", targets: ["GroupWireSession", "GroupWireNegotiation", "GroupWirePlayback", "GroupWireCapture"]),
        // The relay server and its client transport (SwiftNIO, swift-nio-ssl), its messages and
        // tokens; the NATS client its cluster talks through.
        .library(name: "GroupWireNetwork", targets: ["GroupWireNetwork", "GroupWireRelay", "GroupWireNATS", "GroupWireNATSProtocol"]),
        // Specs: the compiler, the code generator, the codec by spec, inspection and validation of captures.
        .library(name: "GroupWireSpec", targets: ["GroupWireSpec", "GroupWireCodegen", "GroupWireDynamic", "GroupWireInspection"]),
        // For apps' tests: the in-process hub with faults, the virtual clock.
        .library(name: "GroupWireTesting", targets: ["GroupWireTesting"]),
        // The fuzz targets' checks, for the Fuzz package (which can only depend on products)
        // and the corpus replay tests; not API for apps.
        .library(name: "_GroupWireFuzzChecks", targets: ["GroupWireFuzzChecks"]),
        .executable(name: "groupwire", targets: ["groupwire"]),
        .executable(name: "groupwire-generate", targets: ["groupwire-generate"]),
        .plugin(name: "GroupWireGeneratorPlugin", targets: ["GroupWireGeneratorPlugin"]),
        .plugin(name: "GenerateGroupWireCode", targets: ["GenerateGroupWireCode"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
    ],
    targets: [
        .target(name: "CGroupWireCRC32C"),
        // The package's one JSON value, writer and parser. No dependencies.
        .target(name: "GroupWireJSON", swiftSettings: strictSwift),
        .testTarget(name: "GroupWireJSONTests", dependencies: ["GroupWireJSON"], swiftSettings: strictSwift),
        .target(name: "GroupWire", dependencies: ["CGroupWireCRC32C", "GroupWireJSON"], swiftSettings: strictSwift),
        // Frame files and pcapng captures: reading, writing, the capture hook's writer. No
        // zstd, so an app without libzstd can capture its traffic.
        .target(name: "GroupWireCapture", dependencies: ["GroupWire", "GroupWireSession"], swiftSettings: strictSwift),
        // What the inspect and validate commands do with captured frames: decompression,
        // payloads decoded by spec, the checks of `groupwire validate`.
        .target(
            name: "GroupWireInspection",
            dependencies: [
                "GroupWire", "GroupWireCapture", "GroupWireCompression", "GroupWireJSON", "GroupWireSpec",
                "GroupWireDynamic", "GroupWireNegotiation", "GroupWireSession",
            ],
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
                "GroupWireInspection",
                "GroupWireCompression",
                "GroupWireSpec",
                "GroupWireDynamic",
                "GroupWireTools",
                "GroupWireToolsCore",
                "GroupWireNATS",
                "GroupWireCodegen",
                "GroupWireNetwork",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSwift
        ),
        // The spec language: lexer, parser, semantic model, fingerprints, compatibility.
        // Foundation and GroupWireJSON only, so tools and plugins can use it without the wire core.
        .target(name: "GroupWireSpec", dependencies: ["GroupWireJSON"], swiftSettings: strictSwift),
        .testTarget(
            name: "GroupWireSpecTests",
            dependencies: ["GroupWireFuzzChecks", "GroupWireSpec", "GroupWireTestSupport", "GroupWireTesting"],
            swiftSettings: strictSwift
        ),
        // Schema-driven JSON <-> payload codec for any spec type, without generated code.
        .target(name: "GroupWireDynamic", dependencies: ["GroupWire", "GroupWireSpec", "GroupWireJSON"], swiftSettings: strictSwift),
        .testTarget(
            name: "GroupWireDynamicTests",
            dependencies: ["GroupWireFuzzChecks", 
                "GroupWireDynamic", "GroupWire", "GroupWireSpec", "DrawTogetherV1Golden", "WatchTogetherGolden", "KitchenSinkGolden",
                "EdgeCasesGolden", "GroupWireTestSupport", "GroupWireTesting",
            ],
            swiftSettings: strictSwift
        ),
        // What the CLI commands do, as testable values (results with output, messages, status).
        .target(
            name: "GroupWireTools",
            dependencies: [
                "GroupWire", "GroupWireSpec", "GroupWireDynamic", "GroupWireCodegen", "GroupWireCompression",
                "GroupWireCapture", "GroupWireInspection", "GroupWireExamples", "GroupWireExamplesV3", "GroupWireToolsCore", "GroupWireSession", "GroupWireTesting",
                "GroupWireNegotiation", "GroupWireRelay", "GroupWireNetwork", .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: strictSwift
        ),
        // What every test target shares: repository paths, the built products, hex, the
        // Spec/vectors loader, a bounded child-process runner. Foundation only; not a product.
        .target(name: "GroupWireTestSupport", path: "Tests/GroupWireTestSupport", swiftSettings: strictSwift),
        .testTarget(
            name: "GroupWireToolsTests",
            // groupwire: so `swift test` alone builds the binary the end-to-end tests run.
            dependencies: [
                "GroupWireTools", "GroupWireDynamic", "GroupWireSpec", "GroupWire", "GroupWireCompression",
                "GroupWireCapture", "GroupWireInspection", "GroupWireExamples", "GroupWireTestSupport", "groupwire", "groupwire-generate", "GroupWireRelay", "GroupWireNetwork", "GroupWireSession", "GroupWireNegotiation", "GroupWireJSON",
            ],
            swiftSettings: strictSwift
        ),
        // Spec model in, Swift files in memory out (issue 3). Pure: no file system.
        .target(name: "GroupWireCodegen", dependencies: ["GroupWireSpec"], swiftSettings: strictSwift),
        // What the generate command and the plugins' tool share: results, spec loading, the
        // generate command line. No wire core and no zstd, so the plugins build quickly.
        .target(
            name: "GroupWireToolsCore",
            dependencies: [
                "GroupWireSpec", "GroupWireCodegen", .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strictSwift
        ),
        // The generator's command line, run by the build and command plugins: `groupwire generate`.
        .executableTarget(
            name: "groupwire-generate",
            dependencies: ["GroupWireToolsCore"],
            swiftSettings: strictSwift
        ),
        // Generates Swift from a target's .gwspec files at build time.
        .plugin(
            name: "GroupWireGeneratorPlugin",
            capability: .buildTool(),
            dependencies: ["groupwire-generate"]
        ),
        // `swift package generate-groupwire-code`: writes generated Swift into the package.
        .plugin(
            name: "GenerateGroupWireCode",
            capability: .command(
                intent: .custom(verb: "generate-groupwire-code", description: "Generate Swift from the .gwspec files of targets"),
                permissions: [.writeToPackageDirectory(reason: "writes the generated Swift next to the specs")]
            ),
            dependencies: ["groupwire-generate"]
        ),
        // The example specs (symlinks to Spec/Examples), compiled by the build plugin.
        // SwiftPM drops a target without Swift sources, hence one small hand-written file.
        .target(
            name: "GroupWireExamples",
            dependencies: ["GroupWire"],
            swiftSettings: strictSwift,
            plugins: ["GroupWireGeneratorPlugin"]
        ),
        // DrawTogether version 3 (a symlink to Spec/Examples/Versions), for the demo's
        // participants on a newer app version than GroupWireExamples' version 1.
        .target(
            name: "GroupWireExamplesV3",
            dependencies: ["GroupWire"],
            swiftSettings: strictSwift,
            plugins: ["GroupWireGeneratorPlugin"]
        ),
        .testTarget(
            name: "GroupWireExamplesTests",
            dependencies: ["GroupWireFuzzChecks", "GroupWireExamples", "GroupWire"],
            swiftSettings: strictSwift
        ),
        .testTarget(
            name: "GroupWireCodegenTests",
            dependencies: ["GroupWireCodegen", "GroupWireSpec", "GroupWireTestSupport"],
            swiftSettings: strictSwift
        ),
        // Golden generated Swift for the example specs (Spec/Examples/Generated, written by
        // `make regenerate`), compiled here and exercised by GroupWireGoldenTests. One target
        // per spec version: v1/v2/v3 of DrawTogether share type names.
        .target(name: "DrawTogetherV1Golden", dependencies: ["GroupWire"], path: "Spec/Examples/Generated/DrawTogetherV1", swiftSettings: strictSwift),
        .target(name: "DrawTogetherV2Golden", dependencies: ["GroupWire"], path: "Spec/Examples/Generated/DrawTogetherV2", swiftSettings: strictSwift),
        .target(name: "DrawTogetherV3Golden", dependencies: ["GroupWire"], path: "Spec/Examples/Generated/DrawTogetherV3", swiftSettings: strictSwift),
        .target(name: "WatchTogetherGolden", dependencies: ["GroupWire"], path: "Spec/Examples/Generated/WatchTogether", swiftSettings: strictSwift),
        // Every shape the generator handles (Tests/Specs/KitchenSink.gwspec), deprecated
        // enum and union cases included: generated code names them only through a mirror
        // (DeprecatedCaseMirror), so this target builds under warnings-as-errors too.
        .target(name: "KitchenSinkGolden", dependencies: ["GroupWire"], path: "Tests/GoldenGenerated/KitchenSink", swiftSettings: strictSwift),
        // The spec of the payload vectors (Spec/vectors/payloads/EdgeCases.gwspec), so the
        // vectors' error kinds and offsets are checked against generated code too.
        .target(name: "EdgeCasesGolden", dependencies: ["GroupWire"], path: "Tests/GoldenGenerated/EdgeCases", swiftSettings: strictSwift),
        // The check behind each harness-based fuzz target (Fuzz/Harnesses), shared by the
        // Fuzz package's targets and the unit tests that replay the corpus.
        .target(
            name: "GroupWireFuzzChecks",
            dependencies: [
                "GroupWire", "GroupWireCompression", "GroupWireJSON", "GroupWireSession", "GroupWireTesting", "GroupWireDynamic",
                "GroupWireSpec", "GroupWireCapture", "GroupWireInspection", "GroupWireNegotiation", "GroupWireRelay",
                "GroupWireNATSProtocol", "GroupWirePlayback",
            ]
                // The example types: generated by the build plugin, except in the fuzz build,
                // which cannot run it (see the end of this file) and compiles the committed
                // generator output instead (the golden test keeps the two identical).
                + (fuzzBuild ? ["DrawTogetherV1Golden", "WatchTogetherGolden"] : ["GroupWireExamples"]),
            path: "Fuzz/Harnesses",
            swiftSettings: strictSwift + (fuzzBuild ? [.define("GROUPWIRE_FUZZ_BUILD")] : [])
        ),
        .testTarget(
            name: "GroupWireGoldenTests",
            dependencies: [
                "GroupWire", "DrawTogetherV1Golden", "DrawTogetherV2Golden", "DrawTogetherV3Golden", "WatchTogetherGolden", "KitchenSinkGolden",
                "GroupWireTestSupport",
            ],
            swiftSettings: strictSwift
        ),
        .testTarget(
            name: "GroupWireCompressionTests",
            dependencies: ["GroupWireFuzzChecks", "GroupWireCompression", "GroupWire", "GroupWireTestSupport", "GroupWireTesting"],
            swiftSettings: strictSwift
        ),
        .testTarget(
            name: "GroupWireTests",
            dependencies: ["GroupWireFuzzChecks", "GroupWire", "GroupWireJSON", "GroupWireTestSupport", "GroupWireTesting"],
            swiftSettings: strictSwift
        ),
        .testTarget(
            name: "GroupWireCaptureTests",
            dependencies: ["GroupWireFuzzChecks", "GroupWireCapture", "GroupWireInspection", "GroupWireCompression", "GroupWire", "GroupWireTestSupport"],
            swiftSettings: strictSwift
        ),
        // The messenger pipeline, the transport protocol, the delivery layer, and negotiation
        // run per peer. No libzstd, so an iOS target gets it all; compression plugs in
        // through `PayloadCodec`.
        .target(
            name: "GroupWireSession",
            dependencies: [
                "GroupWire", "GroupWireNegotiation", .product(name: "DequeModule", package: "swift-collections"),
            ],
            swiftSettings: strictSwift),
        // Negotiation between peers, without I/O: the hello (capabilities and schema table,
        // control id 16), the agreement two hellos make, and the per-peer state machine. It
        // reads a peer's schema table with the spec model (GroupWireSpec, pure Swift), so a
        // messenger that negotiates decides compatibility with no lookup outside the session.
        .target(name: "GroupWireNegotiation", dependencies: ["GroupWire", "GroupWireSpec"], swiftSettings: strictSwift),
        .testTarget(
            name: "GroupWireNegotiationTests",
            dependencies: [
                "GroupWireNegotiation", "GroupWire", "GroupWireSpec", "GroupWireCompression", "GroupWireFuzzChecks",
                "GroupWireTestSupport",
            ],
            swiftSettings: strictSwift
        ),
        // The relay protocol without NIO (Spec/RELAY.md): the messages a client and the
        // relay exchange over WebSocket, their bounded parser, and HS256 access tokens, so
        // the fuzz targets for them build quickly under sanitizers.
        .target(name: "GroupWireRelay", dependencies: ["GroupWire", "GroupWireJSON"], swiftSettings: strictSwift),
        // Sessions over a real network, on SwiftNIO (NIOWebSocket): the relay server and the
        // client transport.
        .target(
            name: "GroupWireNetwork",
            dependencies: [
                "GroupWire", "GroupWireRelay", "GroupWireSession", "GroupWireCapture", "GroupWireNATS", "GroupWireNATSProtocol",
                .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"), .product(name: "NIOWebSocket", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"), .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ],
            swiftSettings: strictSwift
        ),
        .testTarget(
            name: "GroupWireNetworkTests",
            dependencies: [
                "GroupWireNetwork", "GroupWireRelay", "GroupWireSession", "GroupWire", "GroupWireTestSupport", "GroupWireTesting",
                "GroupWireNegotiation", "GroupWireSpec", "GroupWireCompression", "DrawTogetherV1Golden", "DrawTogetherV3Golden",
                .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"), .product(name: "NIOWebSocket", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"), .product(name: "InMemoryLogging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: strictSwift
        ),
        // NATS's client protocol without NIO: the bounded parser of what a server sends, the
        // commands a client sends, subjects and headers (fuzzed, like GroupWireRelay).
        .target(name: "GroupWireNATSProtocol", dependencies: ["GroupWireJSON"], swiftSettings: strictSwift),
        // A NATS client on SwiftNIO: a server list with reconnect and resubscribe, batched
        // writes bounded in bytes, subscriptions served on the event loop.
        .target(
            name: "GroupWireNATS",
            dependencies: [
                "GroupWireNATSProtocol", "GroupWireSession",
                .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSwift
        ),
        .testTarget(
            name: "GroupWireNATSTests",
            dependencies: [
                "GroupWireNATS", "GroupWireNATSProtocol", "GroupWireSession", "GroupWireTesting", "GroupWireTestSupport",
                "GroupWireFuzzChecks", .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            swiftSettings: strictSwift
        ),
        .testTarget(
            name: "GroupWireRelayTests",
            dependencies: ["GroupWireRelay", "GroupWire", "GroupWireJSON", "GroupWireFuzzChecks", "GroupWireTestSupport"],
            swiftSettings: strictSwift
        ),
        // For users' tests: the in-process hub with seeded fault injection, the virtual
        // clock, and the package's one seeded random generator.
        .target(name: "GroupWireTesting", dependencies: ["GroupWireSession", "GroupWire", "GroupWirePlayback"], swiftSettings: strictSwift),
        // Coordinated playback (Spec/PLAYBACK.md): a group timeline, a shared clock and
        // suspensions over a session's messenger; its messages from Spec/Playback.gwspec.
        .target(name: "GroupWirePlayback", dependencies: ["GroupWire", "GroupWireSession"], swiftSettings: strictSwift),
        .testTarget(
            name: "GroupWirePlaybackTests",
            dependencies: [
                "GroupWirePlayback", "GroupWireSession", "GroupWireTesting", "GroupWire", "GroupWireTestSupport", "GroupWireFuzzChecks",
            ],
            swiftSettings: strictSwift
        ),
        .testTarget(
            name: "GroupWireSessionTests",
            dependencies: [
                "GroupWireFuzzChecks", "GroupWireSession", "GroupWireTesting", "GroupWire", "GroupWireCompression", "GroupWireExamples",
                "GroupWireTestSupport", "GroupWireNegotiation", "GroupWireSpec", "DrawTogetherV1Golden", "DrawTogetherV2Golden",
                "DrawTogetherV3Golden",
            ],
            swiftSettings: strictSwift
        ),
    ]
)

// `make docs` (GROUPWIRE_DOCS=1) adds the DocC plugin; other builds, and packages that
// depend on this one, never resolve or build it.
if Context.environment["GROUPWIRE_DOCS"] != nil {
    package.dependencies.append(.package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"))
}

// The fuzz build (Fuzz/run.sh sets GROUPWIRE_FUZZ=1) builds every tool with libFuzzer's
// flags, and libFuzzer brings its own `main`: the generator plugin's tool cannot link
// there, and SwiftPM, which prepares every build-tool plugin of the graph first, has
// crashed on that failed link. So that build applies no plugin, and the fuzz checks
// compile the committed generator output of the examples (Spec/Examples/Generated, kept
// identical to the plugin's by the golden test) instead of the plugin's.
if fuzzBuild {
    for target in package.targets { target.plugins = nil }
}
