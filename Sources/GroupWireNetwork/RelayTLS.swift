import NIOSSL

/// The relay's TLS (swift-nio-ssl), from PEM files: its certificate chain and private key
/// (`groupwire relay --tls-certificate FILE --tls-key FILE`). Clients then connect with
/// ``RelayClientTLS`` (`wss://`); a plain connection to the TLS port fails its handshake.
public struct RelayServerTLS: Sendable {
    /// The PEM file with the relay's certificate, then any intermediates.
    public var certificateChainFile: String
    /// The PEM file with the certificate's private key.
    public var privateKeyFile: String

    /// Names the two files; they are read when the relay starts.
    public init(certificateChainFile: String, privateKeyFile: String) {
        self.certificateChainFile = certificateChainFile
        self.privateKeyFile = privateKeyFile
    }

    /// The server context, or an error naming the file that could not be used.
    func context() throws(RelayTLSError) -> NIOSSLContext {
        let chain: [NIOSSLCertificate]
        do {
            chain = try NIOSSLCertificate.fromPEMFile(certificateChainFile)
        } catch {
            throw RelayTLSError("\(certificateChainFile): not a readable PEM certificate chain (\(error))")
        }
        guard !chain.isEmpty else { throw RelayTLSError("\(certificateChainFile): no certificate in it") }
        let key: NIOSSLPrivateKey
        do {
            key = try NIOSSLPrivateKey(file: privateKeyFile, format: .pem)
        } catch {
            throw RelayTLSError("\(privateKeyFile): not a readable PEM private key (\(error))")
        }
        let configuration = TLSConfiguration.makeServerConfiguration(
            certificateChain: chain.map { .certificate($0) }, privateKey: .privateKey(key))
        do {
            return try NIOSSLContext(configuration: configuration)
        } catch {
            throw RelayTLSError("\(certificateChainFile) and \(privateKeyFile) do not make a TLS context (\(error))")
        }
    }
}

/// How a ``RelayTransport`` checks the relay's certificate.
public struct RelayClientTLS: Sendable {
    /// A PEM file of the certificates to trust instead of the system's (a private CA, or
    /// a self-signed relay certificate); nil trusts the system's roots.
    public var trustRootsFile: String?
    /// The name the certificate must carry, and the one sent as SNI; nil uses the host
    /// connected to (which, as an IP address, is checked but not sent).
    public var serverName: String?

    /// Trusts `trustRootsFile` (nil: the system's roots) and checks the certificate against
    /// `serverName` (nil: the host).
    public init(trustRootsFile: String? = nil, serverName: String? = nil) {
        self.trustRootsFile = trustRootsFile
        self.serverName = serverName
    }

    /// The client context, or an error naming the file that could not be used.
    func context() throws(RelayTLSError) -> NIOSSLContext {
        var configuration = TLSConfiguration.makeClientConfiguration()
        if let trustRootsFile {
            do {
                let roots = try NIOSSLCertificate.fromPEMFile(trustRootsFile)
                guard !roots.isEmpty else { throw RelayTLSError("\(trustRootsFile): no certificate in it") }
                configuration.trustRoots = .certificates(roots)
            } catch let error as RelayTLSError {
                throw error
            } catch {
                throw RelayTLSError("\(trustRootsFile): not a readable PEM certificate file (\(error))")
            }
        }
        do {
            return try NIOSSLContext(configuration: configuration)
        } catch {
            throw RelayTLSError("no TLS context (\(error))")
        }
    }

    /// The name to send as SNI: never an IP address.
    static func sniName(_ name: String) -> String? {
        let isAddress = name.contains(":") || name.split(separator: ".").allSatisfy { !$0.isEmpty && $0.allSatisfy(\.isNumber) }
        return isAddress ? nil : name
    }
}

/// A TLS setting that cannot be used: which file, and why.
public struct RelayTLSError: Error, Sendable, CustomStringConvertible {
    /// What is wrong, naming the file.
    public var description: String

    /// Wraps `description`.
    public init(_ description: String) {
        self.description = description
    }
}
