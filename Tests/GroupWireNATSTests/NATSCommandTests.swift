import GroupWireJSON
import GroupWireNATSProtocol
import Testing

/// What a client sends, byte for byte, and the subjects, queues and headers the protocol
/// cannot carry refused before a byte is written.
@Suite struct NATSCommandTests {
    static func text(_ command: NATSCommand) throws -> String {
        String(decoding: try command.encoded(), as: UTF8.self)
    }

    @Test func commandsAreTheirDocumentedLines() throws {
        #expect(
            try Self.text(.publish(subject: "rooms.a", replyTo: nil, headers: nil, payload: Array("hi".utf8)))
                == "PUB rooms.a 2\r\nhi\r\n")
        #expect(
            try Self.text(.publish(subject: "a", replyTo: "_INBOX.1", headers: nil, payload: [])) == "PUB a _INBOX.1 0\r\n\r\n")
        let headers = NATSHeaders([NATSHeaders.Field("Source", "n1"), NATSHeaders.Field("Source", "n2")])
        #expect(
            try Self.text(.publish(subject: "a", replyTo: nil, headers: headers, payload: Array("x".utf8)))
                == "HPUB a 36 37\r\nNATS/1.0\r\nSource: n1\r\nSource: n2\r\n\r\nx\r\n")
        #expect(try Self.text(.subscribe(subject: "rooms.*.>", queue: nil, subscription: 4)) == "SUB rooms.*.> 4\r\n")
        #expect(try Self.text(.subscribe(subject: "a", queue: "workers", subscription: 5)) == "SUB a workers 5\r\n")
        #expect(try Self.text(.unsubscribe(subscription: 5, after: nil)) == "UNSUB 5\r\n")
        #expect(try Self.text(.unsubscribe(subscription: 5, after: 3)) == "UNSUB 5 3\r\n")
        #expect(try Self.text(.ping) == "PING\r\n" && Self.text(.pong) == "PONG\r\n")
    }

    @Test func connectSaysWhoTheClientIsAndAsksForInfoUpdates() throws {
        let text = try Self.text(.connect(NATSConnectOptions(name: "relay-a", echo: false, user: "u", password: "p")))
        #expect(text.hasPrefix("CONNECT ") && text.hasSuffix("\r\n"))
        let json = try JSONParser().parse(String(text.dropFirst(8).dropLast()))
        #expect(json["name"] == .string("relay-a") && json["echo"] == .bool(false) && json["protocol"] == .int(1))
        #expect(json["headers"] == .bool(true) && json["verbose"] == .bool(false) && json["user"] == .string("u"))
        #expect(json["pass"] == .string("p") && json["auth_token"] == nil)
    }

    @Test(arguments: [
        ("", false), ("a b", false), ("a\tb", false), ("a\r\nPUB x", false), ("a..b", false), (".a", false), ("a.", false),
        ("a.*", false), ("a.>", false), ("a.>.b", true), ("a\u{7F}", false),
    ])
    func subjectsTheProtocolCannotCarryAreRefused(subject: String, wildcards: Bool) {
        #expect(throws: NATSProtocolError.self) { try NATSSubject.check(subject, wildcards: wildcards) }
        #expect(throws: NATSProtocolError.self) {
            try NATSCommand.publish(subject: subject, replyTo: nil, headers: nil, payload: []).encoded()
        }
    }

    @Test func wildcardsAreForSubscriptionsAndGreaterThanOnlyLast() throws {
        try NATSSubject.check("rooms.*", wildcards: true)
        try NATSSubject.check("rooms.>", wildcards: true)
        try NATSSubject.check("a*b.c>", wildcards: false)
        let error = #expect(throws: NATSProtocolError.self) { try NATSSubject.check("rooms.*", wildcards: false) }
        #expect(error?.kind == .invalidArgument && error?.offset == nil)
        #expect(throws: NATSProtocolError.self) { try NATSSubject.checkQueue("two words") }
    }

    @Test func headersThatWouldBreakTheBlockAreRefused() {
        for headers in [
            NATSHeaders([NATSHeaders.Field("A:B", "c")]), NATSHeaders([NATSHeaders.Field("", "c")]),
            NATSHeaders([NATSHeaders.Field("A B", "c")]), NATSHeaders([NATSHeaders.Field("A", "c\r\nB: d")]),
            NATSHeaders(status: 42),
        ] {
            let error = #expect(throws: NATSProtocolError.self) { try headers.encoded() }
            #expect(error?.kind == .invalidArgument)
        }
    }
}
