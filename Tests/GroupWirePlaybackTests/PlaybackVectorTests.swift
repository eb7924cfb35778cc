import Foundation
import GroupWire
import GroupWireSession
import GroupWireTestSupport
import Testing

@testable import GroupWirePlayback

/// The vectors of Spec/vectors/playback, written by an independent implementation from
/// Spec/PLAYBACK.md and Spec/Playback.gwspec alone (generate_playback.py): message bytes,
/// the order of stamps, expected times, the checks on a timeline, and the clock estimate.
@Suite struct PlaybackVectorTests {
    static var vectors: [[String: Any]] {
        let folder = RepositoryPaths.url("Spec/vectors/playback")
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { $0.hasSuffix(".json") }
        return names.sorted().compactMap { name in
            (try? Data(contentsOf: folder.appendingPathComponent(name)))
                .flatMap { try? JSONSerialization.jsonObject(with: $0) as? [String: Any] }
        }
    }

    static func of(_ kind: String) -> [[String: Any]] { vectors.filter { $0["kind"] as? String == kind } }

    static let changes = ["none": 0, "play": 1, "pause": 2, "seek": 3, "rate": 4, "item": 5, "wait": 6, "resume": 7]

    static func number(_ value: Any?) -> Double {
        switch value {
        case let text as String: return ["nan": .nan, "inf": .infinity, "-inf": -.infinity][text] ?? .nan
        case let number as NSNumber: return number.doubleValue
        default: return .nan
        }
    }

    static func int64(_ value: Any?) -> Int64 { (value as? String).flatMap { Int64($0) } ?? 0 }
    static func uint64(_ value: Any?) -> UInt64 { (value as? String).flatMap { UInt64($0) } ?? 0 }
    static func uuid(_ value: Any?) -> UUID { (value as? String).flatMap(UUID.init(uuidString:)) ?? UUID(uuid: UUID.zero) }

    @Test func everyKindIsThere() {
        for kind in ["message", "timeline-order", "expected-time", "timeline-check", "clock-estimate"] {
            #expect(Self.of(kind).count >= 8, "\(kind)")
        }
    }

    /// Each message's fields encode to the vector's bytes, and the bytes decode to them.
    @Test func messagesEncodeAndDecodeByteForByte() throws {
        for vector in Self.of("message") {
            let name = vector["name"] as? String ?? "?"
            let fields = vector["fields"] as? [String: Any] ?? [:]
            let hex = try Hex.bytes(vector["hex"] as? String ?? "")
            let encoded: [UInt8]
            let decodes: Bool
            switch vector["type"] as? String {
            case "PlaybackTimelineMessage":
                let message = PlaybackTimelineMessage(
                    item: fields["item"] as? String, rate: Self.number(fields["rate"]),
                    mediaTime: Self.number(fields["mediaTime"]), groupTime: Self.int64(fields["groupTime"]),
                    clock: Self.uint64(fields["clock"]), author: Self.uuid(fields["author"]),
                    change: PlaybackChange(rawValue: UInt32(Self.changes[fields["change"] as? String ?? ""] ?? 99)))
                encoded = message.wirePayload()
                let decoded = try PlaybackTimelineMessage(wirePayload: hex)
                decodes =
                    decoded.wirePayload() == hex && decoded.item == message.item && decoded.clock == message.clock
                    && decoded.groupTime == message.groupTime && decoded.author == message.author
                    && decoded.change == message.change && decoded.rate.bitPattern == message.rate.bitPattern
                    && decoded.mediaTime.bitPattern == message.mediaTime.bitPattern
            case "PlaybackSuspensionMessage":
                let message = PlaybackSuspensionMessage(
                    reason: fields["reason"] as? String ?? "", active: fields["active"] as? Bool ?? false,
                    sequence: Self.uint64(fields["sequence"]))
                encoded = message.wirePayload()
                decodes = try PlaybackSuspensionMessage(wirePayload: hex) == message
            case "PlaybackClockRequest":
                let message = PlaybackClockRequest(
                    sequence: Self.uint64(fields["sequence"]), sentAt: Self.int64(fields["sentAt"]))
                encoded = message.wirePayload()
                decodes = try PlaybackClockRequest(wirePayload: hex) == message
            case "PlaybackClockReply":
                let message = PlaybackClockReply(
                    sequence: Self.uint64(fields["sequence"]), requestSentAt: Self.int64(fields["requestSentAt"]),
                    receivedAt: Self.int64(fields["receivedAt"]), sentAt: Self.int64(fields["sentAt"]))
                encoded = message.wirePayload()
                decodes = try PlaybackClockReply(wirePayload: hex) == message
            case "PlaybackStateRequest":
                encoded = PlaybackStateRequest().wirePayload()
                decodes = (try? PlaybackStateRequest(wirePayload: hex)) != nil
            default:
                Issue.record("\(name): unknown type")
                continue
            }
            #expect(encoded == hex, "\(name): \(Hex.string(encoded)) against \(vector["hex"] ?? "")")
            #expect(decodes, "\(name)")
            #expect(PlaybackInput.typeIDs.contains(UInt64(vector["typeID"] as? Int ?? 0)), "\(name)")
        }
    }

    @Test func stampsOrderAsTheVectorsSay() {
        for vector in Self.of("timeline-order") {
            func stamp(_ key: String) -> PlaybackTimeline.Stamp {
                let value = vector[key] as? [String: Any] ?? [:]
                return .init(clock: Self.uint64(value["clock"]), author: ParticipantID(uuid: Self.uuid(value["author"])))
            }
            let (a, b) = (stamp("a"), stamp("b"))
            let greater = a > b ? "a" : b > a ? "b" : "equal"
            #expect(greater == vector["greater"] as? String, "\(vector["name"] ?? "")")
        }
    }

    @Test func expectedTimesAreTheVectors() {
        for vector in Self.of("expected-time") {
            let value = vector["timeline"] as? [String: Any] ?? [:]
            let timeline = PlaybackTimeline(
                item: nil, rate: Self.number(value["rate"]), mediaTime: Self.number(value["mediaTime"]),
                groupTime: .nanoseconds(Self.int64(value["groupTime"])),
                stamp: .init(clock: 1, author: .numbered(1)), change: .play)
            let expected = Self.number(vector["expected"])
            #expect(
                abs(timeline.expectedTime(at: .nanoseconds(Self.int64(vector["g"]))) - expected) <= 1e-9,
                "\(vector["name"] ?? "")")
        }
    }

    /// A timeline-check vector, read with JSONDecoder: its numbers must come back exactly
    /// (the edges are one binary64 step past a limit).
    struct CheckVector: Decodable {
        struct Number: Decodable {
            let value: Double
            init(from decoder: any Decoder) throws {
                let container = try decoder.singleValueContainer()
                if let text = try? container.decode(String.self) {
                    value = ["nan": .nan, "inf": .infinity, "-inf": -.infinity][text] ?? .nan
                } else {
                    value = try container.decode(Double.self)
                }
            }
        }
        struct Item: Decodable { let itemBytes: Int }
        struct Timeline: Decodable {
            let author: UUID?
            let change: UInt32?
            let clock: String?
            let groupTime: String?
            let item: Item?
            let mediaTime: Number
            let rate: Number
        }
        let name: String
        let kind: String
        let accepted: Bool?
        let timeline: Timeline?
    }

    @Test func timelinesAreCheckedAsTheVectorsSay() throws {
        let folder = RepositoryPaths.url("Spec/vectors/playback")
        var count = 0
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() where name.hasSuffix(".json") {
            let vector = try JSONDecoder().decode(CheckVector.self, from: Data(contentsOf: folder.appendingPathComponent(name)))
            guard vector.kind == "timeline-check", let value = vector.timeline else { continue }
            count += 1
            let message = PlaybackTimelineMessage(
                item: value.item.map { String(repeating: "a", count: $0.itemBytes) }, rate: value.rate.value,
                mediaTime: value.mediaTime.value, groupTime: value.groupTime.flatMap { Int64($0) } ?? 0,
                clock: value.clock.flatMap { UInt64($0) } ?? 0, author: value.author ?? UUID(),
                change: PlaybackChange(rawValue: value.change ?? 99))
            #expect((PlaybackTimeline(message) != nil) == vector.accepted, "\(vector.name)")
        }
        #expect(count >= 12)
    }

    @Test func theClockEstimateIsTheVectors() {
        for vector in Self.of("clock-estimate") {
            let name = vector["name"] as? String ?? "?"
            var estimate = GroupClockEstimate()
            var rejected: [Int] = []
            for (index, exchange) in (vector["exchanges"] as? [[String: Any]] ?? []).enumerated() {
                let time = { (key: String) in Duration.nanoseconds(Self.int64(exchange[key])) }
                if !estimate.add(t1: time("t1"), t2: time("t2"), t3: time("t3"), t4: time("t4")) { rejected.append(index) }
            }
            #expect(rejected == (vector["rejected"] as? [Int] ?? []), "\(name)")
            #expect(abs(estimate.drift - Self.number(vector["drift"])) <= 1e-12, "\(name): drift \(estimate.drift)")
            #expect(
                abs(estimate.uncertainty.seconds - Self.number(vector["uncertainty"])) <= 1e-9, "\(name): \(estimate.uncertainty)"
            )
            for point in vector["offsetAt"] as? [[String: Any]] ?? [] {
                let local = Duration.nanoseconds(Self.int64(point["local"]))
                let offset = estimate.offset(atLocal: local).seconds
                #expect(abs(offset - Self.number(point["offset"])) <= 1e-9, "\(name): offset \(offset) at \(local)")
            }
        }
    }
}

extension UUID {
    fileprivate static let zero: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
}
