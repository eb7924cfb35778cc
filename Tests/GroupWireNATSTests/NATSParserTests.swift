import GroupWireNATSProtocol
import Testing

/// What a NATS server sends, read by ``NATSParser``: each operation with its values and
/// the bytes it took, the same whether the stream arrives whole or a byte at a time, and
/// each way a server can break the protocol as an error of its kind at its offset.
@Suite struct NATSParserTests {
    /// Reads `text` whole.
    static func read(_ text: String, limits: NATSLimits = .default) throws(NATSProtocolError) -> [(NATSServerOperation, String)] {
        var parser = NATSParser(limits: limits)
        let bytes = Array(text.utf8)
        let (operations, consumed, error) = parser.operations(in: bytes)
        if let error { throw error }
        #expect(consumed == bytes.count)
        return operations.map { ($0.0, String(decoding: $0.payload, as: UTF8.self)) }
    }

    /// The error reading `text` raises.
    static func failure(_ text: String, limits: NATSLimits = .default) -> NATSProtocolError? {
        var parser = NATSParser(limits: limits)
        return parser.operations(in: Array(text.utf8)).error
    }

    @Test func infoReadsTheFieldsTheClientUsesAndNothingElse() throws {
        let text =
            #"INFO {"server_id":"NB2","server_name":"n1","version":"2.9.10","proto":1,"headers":true,"max_payload":1048576,"#
            + #""connect_urls":["127.0.0.1:4222","127.0.0.1:4223"],"client_id":7,"ldm":true,"go":"go1.19","nonce":"x"}"# + "\r\n"
        let operations = try Self.read(text)
        #expect(operations.count == 1)
        guard case .info(let info) = operations[0].0 else {
            Issue.record("not INFO: \(operations[0].0)")
            return
        }
        #expect(
            info
                == NATSServerInfo(
                    serverID: "NB2", serverName: "n1", version: "2.9.10", proto: 1, headers: true, maxPayload: 1_048_576,
                    connectURLs: ["127.0.0.1:4222", "127.0.0.1:4223"], lameDuckMode: true, clientID: 7))
    }

    @Test func messagesCarryTheirSubjectSubscriptionReplyAndPayload() throws {
        let operations = try Self.read("MSG rooms.kitchen 12 _INBOX.a 5\r\nhello\r\nmsg a 1 0\r\n\r\nMSG\tb\t3\t2\r\nok\r\n")
        #expect(operations.count == 3)
        #expect(
            operations[0].0
                == .message(NATSMessageHead(subject: "rooms.kitchen", subscription: 12, replyTo: "_INBOX.a", payloadLength: 5)))
        #expect(operations[0].1 == "hello")
        #expect(operations[1].0 == .message(NATSMessageHead(subject: "a", subscription: 1, payloadLength: 0)))
        #expect(operations[1].1 == "")
        #expect(operations[2].0 == .message(NATSMessageHead(subject: "b", subscription: 3, payloadLength: 2)))
        #expect(operations[2].1 == "ok")
    }

    @Test func headedMessagesCarryTheirFieldsAndStatusApartFromThePayload() throws {
        let block = "NATS/1.0 503 No Responders\r\nRoom:  kitchen \r\nRoom: hall\r\n\r\n"
        let text = "HMSG rooms.kitchen 2 \(block.utf8.count) \(block.utf8.count + 7)\r\n\(block)payload\r\n"
        let operations = try Self.read(text)
        let headers = NATSHeaders(
            [NATSHeaders.Field("Room", "kitchen"), NATSHeaders.Field("Room", "hall")], status: 503,
            statusDescription: "No Responders")
        #expect(
            operations[0].0
                == .message(NATSMessageHead(subject: "rooms.kitchen", subscription: 2, headers: headers, payloadLength: 7)))
        #expect(operations[0].1 == "payload")
        #expect(headers["Room"] == "kitchen")
    }

    @Test func controlOperationsAndErrorsReadWithoutCaseOrQuotes() throws {
        let operations = try Self.read("PING\r\npong\r\n+ok\r\n-ERR 'Authorization Violation'\r\n-err Unquoted text \r\n")
        #expect(operations.map(\.0) == [.ping, .pong, .ok, .error("Authorization Violation"), .error("Unquoted text")])
    }

    @Test func aStreamReadAByteAtATimeGivesTheSameOperationsAtTheSameOffsets() throws {
        let block = "NATS/1.0\r\nA: b\r\n\r\n"
        let text =
            #"INFO {"server_id":"a"}"#
            + "\r\nPING\r\nMSG s 1 r 3\r\nabc\r\nHMSG s 2 \(block.utf8.count) \(block.utf8.count + 1)\r\n"
            + block + "z\r\n-ERR 'x'\r\n"
        let whole = try Self.read(text)
        var parser = NATSParser()
        var held: [UInt8] = []
        var found: [(NATSServerOperation, String)] = []
        for byte in text.utf8 {
            held.append(byte)
            let (operations, consumed, error) = parser.operations(in: held)
            #expect(error == nil)
            found += operations.map { ($0.0, String(decoding: $0.payload, as: UTF8.self)) }
            held.removeFirst(consumed)
        }
        #expect(held.isEmpty && parser.offset == text.utf8.count)
        #expect(found.map(\.0) == whole.map(\.0) && found.map(\.1) == whole.map(\.1))
        #expect(whole.count == 5)
    }

    /// What was read before a broken line is kept (a fuzzer's find: it was dropped).
    @Test func theOperationsBeforeAnErrorAreKept() {
        var parser = NATSParser()
        let (operations, consumed, error) = parser.operations(in: Array("-ERR 'Stale'\r\nPING\r\nx\ro\n".utf8))
        #expect(operations.map(\.0) == [.error("Stale"), .ping] && consumed == 20)
        #expect(error?.kind == .unknownOperation && error?.offset == 20)
    }

    @Test func anUnfinishedOperationWaitsForMoreBytes() throws {
        var parser = NATSParser()
        #expect(parser.operations(in: Array("MSG a 1 5\r\nhel".utf8)).consumed == 0)
        #expect(parser.operations(in: Array("PI".utf8)).consumed == 0)
        #expect(parser.operations(in: Array("MSG a 1 5\r\nhello".utf8)).consumed == 0)
        #expect(parser.offset == 0)
    }

    /// Each way a server breaks the protocol: the kind, and the offset in the stream
    /// (after what was read before it).
    @Test(arguments: [
        ("PING\r\nHELLO\r\n", "unknownOperation", 6),
        ("MSGX a 1 1\r\n", "unknownOperation", 0),
        ("\u{1}", "unknownOperation", 0),
        ("PING\n", "malformedArguments", 4),
        ("PING now\r\n", "malformedArguments", 0),
        ("MSG a 1\r\n", "malformedArguments", 0),
        ("MSG a 1 2 3 4\r\n", "malformedArguments", 0),
        ("PONG\r\nMSG a x1 1\r\nx\r\n", "malformedArguments", 12),
        ("MSG a 1 -1\r\n", "malformedArguments", 8),
        ("MSG a 1 99999\r\n", "payloadTooLarge", 8),
        ("MSG a 1 99999999999999999999999\r\n", "payloadTooLarge", 8),
        ("HMSG a 1 20 10\r\n", "payloadTooLarge", 9),
        ("MSG a 1 2\r\nabcd\r\n", "missingTerminator", 13),
        ("HMSG a 1 8 8\r\nA: b\r\n\r\n\r\n", "invalidHeaders", 14),
        ("HMSG a 1 16 16\r\nNATS/1.0\r\nAb\r\n\r\n\r\n", "invalidHeaders", 26),
        ("HMSG a 1 15 15\r\nNATS/1.0 5x\r\n\r\n\r\n", "invalidHeaders", 16),
        ("HMSG a 1 14 14\r\nNATS/1.0\r\n\r\nxy\r\n", "invalidHeaders", 28),
        ("INFO {server_id}\r\n", "invalidInfo", 6),
        (#"INFO {"max_payload":1}"# + "\r\n", "invalidInfo", 5),
        (#"INFO {"server_id":"a","max_payload":"big"}"# + "\r\n", "invalidInfo", 5),
        (#"INFO {"server_id":"a","max_payload":0}"# + "\r\n", "invalidInfo", 5),
        ("INFO\r\n", "invalidInfo", 0),
    ])
    func aBrokenStreamIsAnErrorOfItsKindAtItsOffset(text: String, kind: String, offset: Int) {
        let error = Self.failure(text, limits: NATSLimits(maxPayload: 1_000))
        #expect(error?.kind.name == kind && error?.offset == offset, "\(String(describing: error))")
    }

    @Test func aLineOverItsLimitIsRefusedBeforeItEnds() {
        let limits = NATSLimits(maxControlLine: 32, maxInfoLine: 64)
        #expect(Self.failure("MSG " + String(repeating: "a", count: 40), limits: limits)?.kind == .lineTooLong)
        // INFO has a limit of its own, larger; under it, the line just waits for its end.
        #expect(Self.failure("INFO {\"server_id\":\"" + String(repeating: "a", count: 40), limits: limits) == nil)
        #expect(Self.failure("INFO {\"server_id\":\"" + String(repeating: "a", count: 60), limits: limits)?.kind == .lineTooLong)
    }

    @Test func moreHeaderFieldsThanTheLimitAreRefused() {
        let block = "NATS/1.0\r\n" + String(repeating: "A: b\r\n", count: 3) + "\r\n"
        let text = "HMSG a 1 \(block.utf8.count) \(block.utf8.count)\r\n\(block)\r\n"
        #expect(Self.failure(text, limits: NATSLimits(maxHeaderFields: 3)) == nil)
        #expect(Self.failure(text, limits: NATSLimits(maxHeaderFields: 2))?.kind == .payloadTooLarge)
    }

    /// What a test server sends reads back as what it meant.
    @Test func serverOperationsEncodeToBytesThatReadBackAsThemselves() throws {
        let headers = NATSHeaders([NATSHeaders.Field("A", "b c")], status: 408, statusDescription: "Request Timeout")
        let cases: [(NATSServerOperation, String)] = [
            (.info(NATSServerInfo(serverID: "x", connectURLs: ["h:1"], clientID: 3)), ""),
            (.message(NATSMessageHead(subject: "a.b", subscription: 9, replyTo: "r", payloadLength: 3)), "xyz"),
            (.message(NATSMessageHead(subject: "a", subscription: 1, headers: headers, payloadLength: 2)), "hi"),
            (.ping, ""), (.pong, ""), (.ok, ""), (.error("Stale Connection"), ""),
        ]
        for (operation, payload) in cases {
            let bytes = try operation.encoded(payload: Array(payload.utf8))
            let read = try Self.read(String(decoding: bytes, as: UTF8.self))
            #expect(read.count == 1 && read[0].0 == operation && read[0].1 == payload, "\(operation)")
        }
        #expect(try NATSServerOperation.ping.encoded() == Array("PING\r\n".utf8))
        #expect(
            try NATSServerOperation.message(NATSMessageHead(subject: "a", subscription: 1, payloadLength: 2)).encoded(
                payload: Array("hi".utf8)) == Array("MSG a 1 2\r\nhi\r\n".utf8))
    }
}
