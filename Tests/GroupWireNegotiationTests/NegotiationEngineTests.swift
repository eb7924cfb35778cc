import GroupWire
import GroupWireNegotiation
import GroupWireSpec
import Testing

/// The per-peer state machine, step by step: hellos out, agreements in, retries, timeouts,
/// malformed hellos, capability changes.
@Suite struct NegotiationEngineTests {
    typealias Engine = NegotiationEngine<Int>

    static func hello(_ name: String, codecs: [HelloCodec] = [HelloCodec(codec: 1)]) throws -> Hello {
        Hello(codecs: codecs, schema: try HelloSchema(spec: try ExampleSpecs.spec(name)))
    }

    static let configuration = Engine.Configuration(retryInterval: .seconds(1), timeout: .seconds(10))

    @Test func aJoinSendsTheHelloAndThePeersHelloAgrees() throws {
        let mine = try Self.hello("DrawTogether")
        let theirs = try Self.hello("DrawTogether-v2")
        var engine = try Engine(hello: mine, configuration: Self.configuration)
        #expect(engine.joined(7, now: .zero) == [.sendHello(7)])
        #expect(engine.joined(7, now: .seconds(1)).isEmpty)
        #expect(engine.state(of: 7) == .helloSent)
        let agreement = Agreement(local: mine, remote: theirs)
        #expect(engine.received(hello: try theirs.payload(), from: 7, now: .milliseconds(20)) == [.agreed(7, agreement)])
        #expect(engine.state(of: 7) == .agreed(agreement))
        #expect(engine.helloBody == (try mine.payload()))
    }

    @Test func aHelloBeforeTheJoinIsAnsweredAndTheJoinAddsNothing() throws {
        let mine = try Self.hello("DrawTogether-v3")
        let theirs = try Self.hello("DrawTogether")
        var engine = try Engine(hello: mine, configuration: Self.configuration)
        let outputs = engine.received(hello: try theirs.payload(), from: 3, now: .zero)
        #expect(outputs == [.sendHello(3), .agreed(3, Agreement(local: mine, remote: theirs))])
        #expect(engine.joined(3, now: .milliseconds(1)).isEmpty)
    }

    @Test func theSameHelloAgainIsARetryAnsweredAtMostOncePerInterval() throws {
        let mine = try Self.hello("DrawTogether")
        let body = try Self.hello("DrawTogether-v2").payload()
        var engine = try Engine(hello: mine, configuration: Self.configuration)
        _ = engine.joined(1, now: .zero)
        #expect(engine.received(hello: body, from: 1, now: .milliseconds(10)).count == 1)
        // Within the interval of the last hello sent: no answer (the two repeats of a
        // crossing pair would otherwise answer each other forever).
        #expect(engine.received(hello: body, from: 1, now: .milliseconds(500)).isEmpty)
        #expect(engine.received(hello: body, from: 1, now: .milliseconds(1_200)) == [.sendHello(1)])
        #expect(engine.received(hello: body, from: 1, now: .milliseconds(1_300)).isEmpty)
    }

    @Test func withoutAnAnswerTheHelloIsResentDoublingThenThePeerTimesOut() throws {
        var engine = try Engine(hello: try Self.hello("DrawTogether"), configuration: Self.configuration)
        _ = engine.joined(5, now: .zero)
        var resent: [Int] = []
        for millisecond in stride(from: 250, through: 12_000, by: 250) {
            let outputs = engine.tick(now: .milliseconds(millisecond))
            if outputs == [.sendHello(5)] { resent.append(millisecond) }
            if case .incompatible(5, let failure)? = outputs.first {
                #expect(millisecond == 10_000)
                #expect(failure == NegotiationFailure(.noHello, "no hello within 10.0 seconds"))
            }
        }
        // 1 s after the join, then 2 s after that, then 4 s: 1, 3, 7 s.
        #expect(resent == [1_000, 3_000, 7_000])
        guard case .incompatible? = engine.state(of: 5) else {
            Issue.record("the peer should have timed out")
            return
        }
        // A late hello still brings the peer in.
        let outputs = engine.received(hello: try Self.hello("DrawTogether").payload(), from: 5, now: .seconds(12))
        #expect(outputs.count == 1 && engine.state(of: 5).map { if case .agreed = $0 { true } else { false } } == true)
    }

    @Test func aMalformedHelloIsATypedFailureAndTheStateSaysWhy() throws {
        var engine = try Engine(hello: try Self.hello("DrawTogether"), configuration: Self.configuration)
        _ = engine.joined(2, now: .zero)
        let outputs = engine.received(hello: [0x08, 0x02, 0x10, 0x01], from: 2, now: .zero)
        let expected = NegotiationFailure(
            .invalidHello, "invalidVersionRange at offset 2: envelope versions 2...1 are upside down")
        #expect(outputs == [.incompatible(2, expected)])
        #expect(engine.state(of: 2) == .incompatible(expected))
        // The same malformed hello again: nothing new to say.
        #expect(engine.received(hello: [0x08, 0x02, 0x10, 0x01], from: 2, now: .seconds(1)).isEmpty)
        let oversized = [UInt8](repeating: 0, count: 61_441)
        guard case .incompatible(2, let failure)? = engine.received(hello: oversized, from: 2, now: .seconds(2)).first else {
            Issue.record("an oversized hello should be reported")
            return
        }
        #expect(failure.kind == .invalidHello && failure.reason.hasPrefix("limitExceeded at offset 0"))
    }

    @Test func aPeerCannotPushThisOneOutsideItsVersionRange() throws {
        var engine = try Engine(hello: Hello(envelopeVersions: 1...1), configuration: Self.configuration)
        _ = engine.joined(4, now: .zero)
        let outputs = engine.received(hello: try Hello(envelopeVersions: 2...9).payload(), from: 4, now: .zero)
        #expect(
            outputs == [
                .incompatible(4, NegotiationFailure(.noCommonVersion, "envelope versions 1 here and 2-9 there do not overlap"))
            ])
    }

    @Test func anUpdateSendsTheNewHelloToEveryPeerAndDecidesAgain() throws {
        let noZstd = try Self.hello("DrawTogether", codecs: [])
        var engine = try Engine(hello: noZstd, configuration: Self.configuration)
        let theirs = try Self.hello("DrawTogether-v2")
        _ = engine.joined(1, now: .zero)
        _ = engine.joined(2, now: .zero)
        _ = engine.received(hello: try theirs.payload(), from: 1, now: .zero)
        #expect(engine.state(of: 1).flatMap { if case .agreed(let a) = $0 { a.sending.codec } else { nil } } == nil)
        let withZstd = try Self.hello("DrawTogether")
        let outputs = try engine.update(hello: withZstd, now: .seconds(1))
        #expect(outputs == [.sendHello(1), .agreed(1, Agreement(local: withZstd, remote: theirs)), .sendHello(2)])
        #expect(Agreement(local: withZstd, remote: theirs).sending.codec == 1)
        #expect(engine.state(of: 2) == .helloSent)
        engine.left(1)
        #expect(engine.state(of: 1) == nil)
        #expect(engine.knownPeers == [2])
    }

    @Test func aHelloTooLargeForOneFrameCannotStartAnEngine() throws {
        #expect(throws: WireError.self) {
            _ = try Engine(hello: try Self.hello("DrawTogether"), configuration: .init(limits: HelloLimits(maxHelloSize: 100)))
        }
    }
}
