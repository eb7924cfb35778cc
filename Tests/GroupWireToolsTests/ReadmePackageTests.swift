import Foundation
import GroupWireTestSupport
import Testing

/// The README's package, built and run as a user would: its Package.swift (the
/// `.package(url:from:)` line replaced by a path to this checkout) and every block of the
/// README and the DocC articles that is a file of it (`// Sources/…`), with the specs the
/// manifest names. Beside it, the article "GroupWire on Apple platforms": its app file,
/// GroupWire's GroupActivities adapter and stand-ins for Apple's GroupActivities and Combine
/// (Tests/AppleStandIns: Apple's public names and signatures), so an app that imports
/// both frameworks is compiled here. Then `Whiteboard` and the article's app run, and what
/// they print is checked against what the README says they print.
///
/// It builds in a fixed scratch folder under .build, so later runs are incremental.
@Suite(.heavy) struct ReadmePackageTests {
    static let work = RepositoryPaths.url(".build/readme-package")
    static var scratch: URL { work.appendingPathComponent("scratch") }

    /// The targets added for the article's app, after the README's manifest.
    static let appleTargets = """

        // Added by ReadmePackageTests: the article's app, against stand-ins for Apple's frameworks.
        package.targets += [
            .target(name: "Combine", path: "StandIns/Combine"),
            .target(name: "GroupActivities", dependencies: ["Combine"], path: "StandIns/GroupActivities"),
            .executableTarget(name: "CanvasApp", dependencies: [
                "GroupActivities", "Combine",
                .product(name: "GroupWire", package: "groupwire"),
                .product(name: "GroupWireSession", package: "groupwire"),
                .product(name: "GroupWireTesting", package: "groupwire"),
            ]),
        ]

        """

    /// What the article's app runs: its functions, for two participants over the hub.
    static let appleMain = """
        import GroupWireTesting

        let hub = InProcessHub()
        let anaEndpoint = try await hub.join(.numbered(1))
        let benEndpoint = try await hub.join(.numbered(2))
        async let ana = joinWithoutSharePlay(over: anaEndpoint, starting: true)
        async let ben = joinWithoutSharePlay(over: benEndpoint, starting: false)
        let sessions = try await [ana, ben]
        print("joined:", sessions.map { $0.activity.activityMetadata.title }, sessions.map { $0.id == sessions[0].id })
        try await drawWithSharePlay()
        print("SharePlay stand-in: no session offered")
        print("identifier:", DrawTogether.activityIdentifier)

        """

    @Test func theManifestIsCompleteAndNamesThePackageByURL() throws {
        let manifest = try #require(try DocumentSnippets.readmeManifest())
        #expect(manifest.contains("import PackageDescription"))
        #expect(manifest.contains(#".package(url: "https://github.com/groupwire/groupwire.git", from: ""#))
        #expect(manifest.contains(#".plugin(name: "GroupWireGeneratorPlugin", package: "groupwire")"#))
    }

    @Test(.timeLimit(.minutes(15)))
    func theReadmesPackageBuildsAndRunsAsTheReadmeSays() async throws {
        let package = try Self.writePackage()
        var environment = ProcessInfo.processInfo.environment
        environment["GROUPWIRE_WERROR"] = nil
        environment["GROUPWIRE_CAPTURE"] = nil
        let build = try await ChildProcess.run(
            URL(fileURLWithPath: "/usr/bin/env"),
            ["swift", "build", "--package-path", package.path, "--scratch-path", Self.scratch.path],
            directory: package, environment: environment, timeLimit: .seconds(840))
        #expect(!build.timedOut)
        try #require(build.status == 0, "\(build.outputText)\(build.errors)")

        let whiteboard = try await ChildProcess.run(
            Self.scratch.appendingPathComponent("debug/Whiteboard"), [],
            directory: package, environment: environment, timeLimit: .seconds(120))
        #expect(!whiteboard.timedOut)
        #expect(whiteboard.status == 0, "\(whiteboard.errors)")
        // The whiteboard's output is promised where its code is: GroupWireSession's article.
        let article = String(
            decoding: try RepositoryPaths.bytes("Sources/GroupWireSession/GroupWireSession.docc/DrawingTogether.md"),
            as: UTF8.self)
        let promised = try #require(
            article.components(separatedBy: "`swift run Whiteboard` prints:\n\n```\n").dropFirst().first?
                .components(separatedBy: "```").first)
        #expect(whiteboard.outputText == promised)

        let app = try await ChildProcess.run(
            Self.scratch.appendingPathComponent("debug/CanvasApp"), [],
            directory: package, environment: environment, timeLimit: .seconds(120))
        #expect(!app.timedOut)
        #expect(app.status == 0, "\(app.errors)")
        #expect(
            app.outputText == """
                joined: ["Draw together", "Draw together"] [true, true]
                SharePlay stand-in: no session offered
                identifier: com.example.draw-together

                """)
    }

    /// Writes the package under .build/readme-package/Canvas, fresh but for the scratch folder.
    static func writePackage() throws -> URL {
        let manifest = try #require(try DocumentSnippets.readmeManifest())
        let package = work.appendingPathComponent("Canvas")
        try? FileManager.default.removeItem(at: package)
        try FileManager.default.createDirectory(at: package, withIntermediateDirectories: true)
        // The package identity is the last path component: a link named `groupwire` to the checkout.
        let link = work.appendingPathComponent("groupwire")
        try? FileManager.default.removeItem(at: link)
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: RepositoryPaths.root)
        let url = #"url: "https://github.com/groupwire/groupwire.git", from: "0.1.0""#
        #expect(manifest.contains(url))
        try write(
            manifest.replacingOccurrences(of: url, with: "path: \"\(link.path)\"") + appleTargets,
            to: package.appendingPathComponent("Package.swift"))
        var files: [String: String] = [:]
        for document in DocumentSnippets.documents {
            for snippet in try DocumentSnippets.snippets(in: document) {
                guard let path = snippet.packageFile else { continue }
                #expect(files[path] == nil, "\(snippet.place): a second \(path)")
                files[path] = snippet.code
            }
        }
        #expect(files.keys.contains("Sources/Whiteboard/main.swift"))
        #expect(files.keys.contains("Sources/CanvasApp/DrawTogether.swift"))
        for (path, code) in files {
            try write(code, to: package.appendingPathComponent(path))
        }
        for spec in ["DrawTogether.gwspec", "Common.gwspec"] {
            try FileManager.default.copyItem(
                at: RepositoryPaths.url("Spec/Examples/\(spec)"),
                to: package.appendingPathComponent("Sources/Canvas/\(spec)"))
        }
        for module in ["Combine", "GroupActivities"] {
            try FileManager.default.createDirectory(
                at: package.appendingPathComponent("StandIns"), withIntermediateDirectories: true)
            try FileManager.default.copyItem(
                at: RepositoryPaths.url("Tests/AppleStandIns/\(module)"),
                to: package.appendingPathComponent("StandIns/\(module)"))
        }
        // GroupWire's adapter, compiled in the app against the stand-ins as it is compiled on
        // Apple's platforms (in GroupWireSession it is left out on Linux, so that the stand-ins
        // in the build's module folder never reach the package's own build).
        let adapter = String(
            decoding: try RepositoryPaths.bytes("Sources/GroupWireSession/Platform/GroupActivitiesMessenger.swift"), as: UTF8.self
        )
        let condition = "#if canImport(GroupActivities) && !os(Linux)\n"
        #expect(adapter.hasPrefix(condition))
        try write(
            "import GroupWireSession\n#if canImport(GroupActivities)\n" + adapter.dropFirst(condition.count),
            to: package.appendingPathComponent("Sources/CanvasApp/GroupActivitiesMessenger.swift"))
        try write(appleMain, to: package.appendingPathComponent("Sources/CanvasApp/main.swift"))
        return package
    }

    private static func write(_ text: String, to url: URL) throws {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }
}
