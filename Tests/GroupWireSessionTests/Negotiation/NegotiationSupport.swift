import Foundation
import GroupWire
import GroupWireCompression
import GroupWireNegotiation
import GroupWireSpec
import GroupWireTestSupport
import GroupWireTesting
import Synchronization
import Testing

@testable import GroupWireSession

/// The specs the negotiation tests announce: the three DrawTogether versions of
/// Spec/Examples, and Tests/Specs/Negotiation/DrawTogether-breaking.gwspec (UpsertStroke's
/// colour became a string; a message of its own).
enum NegotiationSpecs {
    static func file(_ relative: String) throws -> HelloSchema {
        let spec = try SpecCompiler().compile(entry: RepositoryPaths.path(relative), loader: FileSpecLoader()).checkedSpec()
        return try HelloSchema(spec: spec)
    }

    static func v1() throws -> HelloSchema { try file("Spec/Examples/DrawTogether.gwspec") }
    static func v2() throws -> HelloSchema { try file("Spec/Examples/Versions/DrawTogether-v2.gwspec") }
    static func v3() throws -> HelloSchema { try file("Spec/Examples/Versions/DrawTogether-v3.gwspec") }
    static func broken() throws -> HelloSchema { try file("Tests/Specs/Negotiation/DrawTogether-breaking.gwspec") }
}

/// Participants with messengers that negotiate, over one seeded fault-injecting hub, each
/// behind a delivery layer; time is the hub's virtual clock.
struct NegotiatingParty {
    let hub: InProcessHub
    var ids: [ParticipantID] = []
    var messengers: [Messenger] = []
    var coordinators: [SharedSessionCoordinator] = []
    var inboxes: [SessionInbox] = []

    init(plan: FaultPlan) {
        hub = InProcessHub(plan: plan, clock: VirtualClock())
    }

    /// Connects participant number `ids.count + 1` announcing `schema`, with zstd unless `zstd` is false.
    @discardableResult
    mutating func add(
        schema: HelloSchema?, zstd: Bool = true, policy: NegotiationSettings.UnreadableRecipients = .skip,
        beforeAgreement: NegotiationSettings.BeforeAgreement = .hold(messages: 256, bytes: 1 << 20),
        engine: NegotiationEngine<ParticipantID>.Configuration = .init()
    ) async throws -> Messenger {
        let id = ParticipantID.numbered(UInt64(ids.count + 1))
        let endpoint = try await hub.join(id)
        let transport = DeliveryTransport(over: endpoint, configuration: .simulated(seed: UInt64(ids.count + 1)))
        let settings = NegotiationSettings(
            schema: schema, unreadableRecipients: policy, beforeAgreement: beforeAgreement,
            engine: engine)
        let messenger = Messenger(
            transport: transport,
            configuration: MessengerConfiguration(
                codec: zstd ? try PayloadCompressor() : nil, negotiation: settings))
        let sessionIDs = SessionIDs(participant: ids.count + 1)
        let coordinator = SharedSessionCoordinator(messenger: messenger, sessionIDs: { sessionIDs.take() })
        ids.append(id)
        messengers.append(messenger)
        coordinators.append(coordinator)
        inboxes.append(SessionInbox(coordinator.sessions(for: DrawActivity.self)))
        return messenger
    }

    /// Advances virtual time in 5 ms steps, each time waiting for the messengers' tasks to
    /// catch up (``InProcessHub/step(by:patience:)``), until `condition` holds (bounded:
    /// 10 minutes of simulated time).
    func settle(_ what: String = #function, line: Int = #line, until condition: () -> Bool) async throws {
        let start = hub.elapsed
        try await hub.settle()
        while !condition() {
            guard hub.elapsed - start < .seconds(600) else {
                Issue.record("the party did not settle within 10 minutes of simulated time (\(what), line \(line))")
                throw PartyError(description: "not settled: \(what)")
            }
            try await hub.step(by: .milliseconds(5))
        }
    }

    /// Whether `a` has agreed with `b`.
    func agreed(_ a: Int, _ b: Int) -> Bool {
        if case .agreed? = messengers[a].negotiationState(of: ids[b]) { return true }
        return false
    }

    /// Whether every participant's negotiation with every other has ended (agreed or incompatible).
    var allDecided: Bool {
        messengers.indices.allSatisfy { a in
            messengers.indices.allSatisfy { b in
                guard a != b else { return true }
                switch messengers[a].negotiationState(of: ids[b]) {
                case .agreed?, .incompatible?: return true
                default: return false
                }
            }
        }
    }

    /// The agreement `a` holds with `b`.
    func agreement(_ a: Int, _ b: Int) -> Agreement? {
        if case .agreed(let agreement)? = messengers[a].negotiationState(of: ids[b]) { return agreement }
        return nil
    }
}
