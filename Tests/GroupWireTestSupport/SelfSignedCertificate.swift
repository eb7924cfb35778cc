import Foundation

/// A self-signed certificate for `localhost` and its private key (PEM), made with openssl in
/// a new folder (`make setup` installs openssl). Only the name: swift-nio-ssl also accepts a
/// certificate naming the IP address connected to, which would hide a wrong-name check.
package struct SelfSignedCertificate {
    /// The folder holding both files; ``remove()`` deletes it.
    package let folder: URL
    /// The certificate's PEM file.
    package var certificate: String { folder.appendingPathComponent("relay.pem").path }
    /// The private key's PEM file.
    package var key: String { folder.appendingPathComponent("relay.key").path }

    /// Makes the pair.
    package init() throws {
        folder = try RepositoryPaths.temporaryDirectory(prefix: "groupwire-tls")
        guard
            let openssl = ["/usr/bin/openssl", "/usr/local/bin/openssl", "/opt/homebrew/bin/openssl"]
                .first(where: { FileManager.default.isExecutableFile(atPath: $0) })
        else { throw ChildProcess.Failure(description: "openssl is needed (make setup installs it)") }
        let run = try ChildProcess.run(
            URL(fileURLWithPath: openssl),
            [
                "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "1",
                "-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost",
                "-keyout", folder.appendingPathComponent("relay.key").path, "-out",
                folder.appendingPathComponent("relay.pem").path,
            ], directory: folder, timeLimit: .seconds(60))
        guard run.status == 0 else { throw ChildProcess.Failure(description: "openssl failed: \(run.errors)") }
    }

    /// Deletes the folder.
    package func remove() {
        try? FileManager.default.removeItem(at: folder)
    }
}
