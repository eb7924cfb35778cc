import Foundation
import Testing

@testable import GroupWire

/// Collects the coding paths values see while they are encoded and decoded.
final class PathRecorder: @unchecked Sendable {
    private let lock = NSLock()
    private var recorded: [String] = []

    static let key = CodingUserInfoKey(rawValue: "paths")

    func record(_ path: [any CodingKey]) {
        lock.lock()
        recorded.append(path.map(\.stringValue).joined(separator: "/"))
        lock.unlock()
    }

    var paths: [String] {
        lock.lock()
        defer { lock.unlock() }
        return recorded
    }
}

/// A leaf that reports the coding path it is encoded and decoded at.
struct PathLeaf: Codable, Equatable {
    var value: Int

    init(_ value: Int) { self.value = value }

    func encode(to encoder: any Encoder) throws {
        PathRecorder.key.flatMap { encoder.userInfo[$0] as? PathRecorder }?.record(encoder.codingPath)
        var container = encoder.singleValueContainer()
        try container.encode(value)
    }

    init(from decoder: any Decoder) throws {
        PathRecorder.key.flatMap { decoder.userInfo[$0] as? PathRecorder }?.record(decoder.codingPath)
        value = try decoder.singleValueContainer().decode(Int.self)
    }
}

struct PathTree: Codable, Equatable {
    struct Inner: Codable, Equatable {
        var leaf: PathLeaf
        var list: [PathLeaf]
    }

    var root: PathLeaf
    var inner: Inner
    var byName: [String: PathLeaf]
    var optional: PathLeaf?
    var matrix: [[PathLeaf]]
}

@Suite struct WireCodableCodingPathTests {
    private let tree = PathTree(
        root: PathLeaf(1), inner: .init(leaf: PathLeaf(2), list: [PathLeaf(3), PathLeaf(4)]),
        byName: ["k": PathLeaf(5)], optional: PathLeaf(6), matrix: [[], [PathLeaf(7)]])

    @Test func encodersReportTheSameCodingPathsAsJSONEncoder() throws {
        let ours = PathRecorder(), json = PathRecorder()
        let key = try #require(PathRecorder.key)
        _ = try WireEncoder(userInfo: [key: ours]).encode(tree)
        let jsonEncoder = JSONEncoder()
        jsonEncoder.userInfo = [key: json]
        _ = try jsonEncoder.encode(tree)
        #expect(ours.paths.count == 7)
        #expect(ours.paths == json.paths)
        #expect(ours.paths.contains("inner/list/Index 1"))
        #expect(ours.paths.contains("matrix/Index 1/Index 0"))
    }

    @Test func decodersReportTheSameCodingPathsAsJSONDecoder() throws {
        let ours = PathRecorder(), json = PathRecorder()
        let key = try #require(PathRecorder.key)
        let back = try WireDecoder(userInfo: [key: ours]).decode(PathTree.self, from: try WireEncoder().encode(tree))
        let jsonDecoder = JSONDecoder()
        jsonDecoder.userInfo = [key: json]
        _ = try jsonDecoder.decode(PathTree.self, from: try JSONEncoder().encode(tree))
        #expect(back == tree)
        #expect(ours.paths.count == 7)
        #expect(ours.paths == json.paths)
    }

    @Test func errorsInsideEnumAssociatedValuesNameTheCaseAndLabel() throws {
        struct Holder: Codable { var shapes: [Shape] }
        // Encode a circle whose radius is a string instead of a Double.
        struct FakeCircle: Encodable {
            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: WireCodingKey.self)
                var circle = container.nestedContainer(keyedBy: WireCodingKey.self, forKey: WireCodingKey(stringValue: "circle"))
                try circle.encode(Point(x: 0, y: 0), forKey: WireCodingKey(stringValue: "center"))
                try circle.encode("wide", forKey: WireCodingKey(stringValue: "radius"))
            }
        }
        let bytes = try WireEncoder().encode(["shapes": [FakeCircle()]])
        let error = try #require(wireError { _ = try WireDecoder().decode(Holder.self, from: bytes) })
        #expect(error.kind == .typeMismatch)
        #expect(error.context.hasSuffix("(coding path: shapes[0].circle.radius)"))
    }
}
