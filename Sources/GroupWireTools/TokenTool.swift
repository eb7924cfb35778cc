import Foundation
import GroupWire
import GroupWireRelay

/// `groupwire token --room R --identity I`: a relay access token (Spec/RELAY.md, "Tokens")
/// signed with the relay's secret, for tests, demos and scripts.
package struct TokenTool: Sendable {
    /// The environment variable that holds the secret when no option gives it.
    package static let secretVariable = "GROUPWIRE_RELAY_SECRET"

    /// The room.
    package var room: String
    /// The participant's identity.
    package var identity: String
    /// Seconds of validity from `now`.
    package var validFor: Int64
    /// The secret's text, if given on the command line.
    package var secret: String?
    /// A file holding the secret (its bytes, a final newline dropped).
    package var secretFile: String?
    /// The environment (for the secret variable).
    package var environment: [String: String]
    /// The time, in seconds since 1970.
    package var now: Int64

    /// Creates the tool.
    package init(
        room: String, identity: String, validFor: Int64 = 3_600, secret: String? = nil, secretFile: String? = nil,
        environment: [String: String] = ProcessInfo.processInfo.environment, now: Int64 = Int64(Date().timeIntervalSince1970)
    ) {
        self.room = room
        self.identity = identity
        self.validFor = validFor
        self.secret = secret
        self.secretFile = secretFile
        self.environment = environment
        self.now = now
    }

    /// Signs the token.
    /// - Returns: the token and a newline; status 2 without a secret, for claims out of range,
    ///   or a secret file that cannot be read.
    package func run() -> ToolResult {
        do throws(ToolFailure) {
            let key = try secretBytes()
            guard validFor > 0 else { throw ToolFailure("--valid-for must be at least 1 second, not \(validFor)") }
            let claims = AccessToken(
                room: room, identity: identity, expiresAt: now.addingReportingOverflow(validFor).partialValue,
                issuedAt: now)
            do throws(WireError) {
                return ToolResult(output: Array((try claims.signed(secret: key) + "\n").utf8))
            } catch {
                throw ToolFailure(error.context)
            }
        } catch {
            return error.result
        }
    }

    func secretBytes() throws(ToolFailure) -> [UInt8] {
        if secret != nil, secretFile != nil {
            throw ToolFailure("give the secret with --secret or --secret-file, not both")
        }
        if let secretFile {
            guard let data = FileManager.default.contents(atPath: secretFile), data.count <= 4_096 else {
                throw ToolFailure("\(secretFile): cannot read the secret file (or it is larger than 4 KiB)")
            }
            var bytes = [UInt8](data)
            if bytes.last == 0x0A { bytes.removeLast() }
            guard !bytes.isEmpty else { throw ToolFailure("\(secretFile): the secret file is empty") }
            return bytes
        }
        if let text = secret ?? environment[Self.secretVariable], !text.isEmpty { return Array(text.utf8) }
        throw ToolFailure("no secret: give --secret, --secret-file, or set \(Self.secretVariable)")
    }
}
