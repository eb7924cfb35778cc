import ArgumentParser
import GroupWireTools

/// `groupwire token --room R --identity I`.
struct TokenCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "token",
        abstract: "Print a relay access token (JWT, HS256) for a room and an identity.",
        discussion: """
            The token names the room, the participant's identity (sub) and an expiry, and is \
            signed with the secret the relay was started with (Spec/RELAY.md, "Tokens"). The \
            secret comes from --secret, --secret-file, or the \(TokenTool.secretVariable) \
            environment variable, which keeps it out of the process list. Exit 0 with the token \
            on standard output, 2 without a secret or for claims out of range (1 to 128 bytes).
            """
    )

    @Option(help: "The room the token admits to.")
    var room: String

    @Option(help: "The participant's identity (the token's sub); one identity has one place in a room.")
    var identity: String

    @Option(help: "Seconds until the token expires.")
    var validFor: Int64 = 3_600

    @Option(help: "The shared secret, as text.")
    var secret: String?

    @Option(help: "A file holding the shared secret (a final newline is dropped).")
    var secretFile: String?

    func run() throws {
        try StandardStreams.finish(
            TokenTool(room: room, identity: identity, validFor: validFor, secret: secret, secretFile: secretFile).run())
    }
}
