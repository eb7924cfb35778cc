import Foundation
import GroupWireRelay
import GroupWireSession
import GroupWireTestSupport
import Synchronization
import Testing

@testable import GroupWireNetwork

/// The relay over TLS with a self-signed certificate made at test time (openssl, which
/// `make setup` installs): TLS clients that trust it talk, a plain client on the TLS port
/// and clients that cannot verify the certificate are refused, bad files are named.
@Suite(.heavy) struct RelayTLSTests {
    /// How long a connection may take before the test gives up: an outer bound, as every
    /// wait's (the default 10 s was crossed once with the machine far busier than two
    /// cores; refusals arrive at once, as their reasons show).
    static let outerBound: Duration = .seconds(120)

    static func tlsRelay(_ certificate: SelfSignedCertificate) -> RelayServer {
        RelayServer(
            configuration: RelayServerConfiguration(
                secret: RelayServerTests.secret,
                tls: RelayServerTLS(certificateChainFile: certificate.certificate, privateKeyFile: certificate.key)),
            logger: RelayServerTests.quiet)
    }

    @Test func clientsThatTrustTheCertificateTalkAndOthersAreRefused() async throws {
        let certificate = try SelfSignedCertificate()
        defer { certificate.remove() }
        let relay = Self.tlsRelay(certificate)
        try await RelayServerTests.serving(relay) { port in
            let trusting = RelayClientTLS(trustRootsFile: certificate.certificate, serverName: "localhost")
            let ada = try await RelayTransport.connect(
                host: "127.0.0.1", port: port, token: try RelayServerTests.token("ada"), tls: trusting,
                timeout: Self.outerBound)
            let bo = try await RelayTransport.connect(
                host: "127.0.0.1", port: port, token: try RelayServerTests.token("bo"), tls: trusting,
                timeout: Self.outerBound)
            let boEvents = RelayServerTests.Events(bo)
            // Large enough for several TLS records.
            let frame = (0..<50_000).map { UInt8(truncatingIfNeeded: $0 * 7) }
            try await ada.send(frame, to: .all)
            try await ada.send([1, 2, 3], to: .only([bo.localParticipant]))
            try await eventually("bo to get ada's frames over TLS") { boEvents.messages.count == 2 }
            #expect(boEvents.messages.map(\.bytes) == [frame, [1, 2, 3]])
            #expect(boEvents.messages.allSatisfy { $0.source == ada.localParticipant })

            // A plain WebSocket client on the TLS port gets no room.
            let plainToken = try RelayServerTests.token("plain")
            do throws(RelayConnectError) {
                _ = try await RelayTransport.connect(
                    host: "127.0.0.1", port: port, token: plainToken, timeout: Self.outerBound)
                Issue.record("a plain connection to the TLS port was let in")
            } catch {
                #expect(error.status == nil, "\(error)")
            }
            // Verification: the system's roots do not know a self-signed certificate; the
            // right root with the wrong name does not pass either.
            for (name, settings) in [
                ("system roots", RelayClientTLS(serverName: "localhost")),
                ("wrong name", RelayClientTLS(trustRootsFile: certificate.certificate, serverName: "relay.example")),
            ] {
                let token = try RelayServerTests.token("doubter")
                do throws(RelayConnectError) {
                    _ = try await RelayTransport.connect(
                        host: "127.0.0.1", port: port, token: token, tls: settings, timeout: Self.outerBound)
                    Issue.record("\(name): connected to a relay whose certificate it cannot verify")
                } catch {
                    #expect(error.status == nil && error.reason.contains("handshake"), "\(name): \(error)")
                }
            }
            // The room went on: only ada and bo are in it.
            #expect(relay.census == ["canvas-7": 2])
            try await ada.send([9], to: .all)
            try await eventually("bo to get ada's next frame") { boEvents.messages.count == 3 }
            await ada.close()
            await bo.close()
        }
    }

    @Test func unusableFilesAreNamedWhenTheRelayStartsOrTheClientConnects() async throws {
        let certificate = try SelfSignedCertificate()
        defer { certificate.remove() }
        let missing = certificate.folder.appendingPathComponent("missing.pem").path
        for (tls, named) in [
            (RelayServerTLS(certificateChainFile: missing, privateKeyFile: certificate.key), missing),
            (
                RelayServerTLS(certificateChainFile: certificate.certificate, privateKeyFile: certificate.certificate),
                certificate.certificate
            ),
        ] {
            let relay = RelayServer(
                configuration: RelayServerConfiguration(secret: RelayServerTests.secret, tls: tls), logger: RelayServerTests.quiet
            )
            do {
                _ = try await relay.start(host: "127.0.0.1", port: 0)
                await relay.shutdown()
                Issue.record("the relay started with \(tls)")
            } catch let error as RelayTLSError {
                #expect(error.description.hasPrefix(named), "\(error)")
            }
        }
        do throws(RelayConnectError) {
            _ = try await RelayTransport.connect(
                host: "127.0.0.1", port: 1, token: "t", tls: RelayClientTLS(trustRootsFile: certificate.key))
            Issue.record("a key file was taken as trust roots")
        } catch {
            #expect(error.reason.hasPrefix("TLS: \(certificate.key)"), "\(error)")
        }
    }
}
