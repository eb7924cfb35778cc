import Foundation
import Testing

@testable import GroupWire

@Suite struct WireCodableEvolutionTests {
    struct ProfileV1: Codable, Equatable {
        var id: Int
        var name: String
    }

    struct ProfileV2: Codable, Equatable {
        var id: Int
        var name: String
        var nickname: String?
        var tags: [String]?
        var avatar: Point?
    }

    struct ProfileV3: Codable, Equatable {
        var id: Int
        var name: String
        var level: Int
    }

    struct Wrapper: Codable {
        var owner: ProfileV3
    }

    @Test func unknownKeysOfEveryWireTypeAreIgnored() throws {
        let newer = ProfileV2(id: 7, name: "Ann", nickname: "a", tags: ["x", "y"], avatar: Point(x: 1, y: 2))
        let bytes = try WireEncoder().encode(newer)
        #expect(try WireDecoder().decode(ProfileV1.self, from: bytes) == ProfileV1(id: 7, name: "Ann"))
    }

    @Test func missingOptionalKeysDecodeAsNil() throws {
        let bytes = try WireEncoder().encode(ProfileV1(id: 1, name: "Bo"))
        let upgraded = try WireDecoder().decode(ProfileV2.self, from: bytes)
        #expect(upgraded == ProfileV2(id: 1, name: "Bo", nickname: nil, tags: nil, avatar: nil))
    }

    @Test func fieldsReadInAnotherOrderThanWrittenAreStillFound() throws {
        struct Reversed: Decodable, Equatable {
            var id: Int
            var name: String
            enum CodingKeys: String, CodingKey { case id, name }
            init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: CodingKeys.self)
                name = try container.decode(String.self, forKey: .name)
                id = try container.decode(Int.self, forKey: .id)
            }
        }
        let bytes = try WireEncoder().encode(ProfileV1(id: 3, name: "Cy"))
        let back = try WireDecoder().decode(Reversed.self, from: bytes)
        #expect(back.id == 3 && back.name == "Cy")
    }

    @Test func aMissingRequiredKeyIsAMissingFieldErrorNamingTheKeyAndPath() throws {
        let bytes = try WireEncoder().encode(["owner": ProfileV1(id: 1, name: "Di")])
        let error = try #require(wireError { _ = try WireDecoder().decode(Wrapper.self, from: bytes) })
        #expect(error.kind == .missingField)
        #expect(error.context.contains("\"level\""))
        #expect(error.context.contains("coding path: owner"))
        #expect(error.offset != nil)
    }

    @Test func aFieldWidenedFromFloatToDoubleStillDecodes() throws {
        struct Narrow: Codable { var value: Float }
        struct Wide: Codable { var value: Double }
        let bytes = try WireEncoder().encode(Narrow(value: 1.25))
        #expect(try WireDecoder().decode(Wide.self, from: bytes).value == 1.25)
    }

    @Test func aFieldWidenedToALargerIntegerStillDecodes() throws {
        struct Small: Codable { var value: Int8 }
        struct Large: Codable { var value: Int64 }
        struct Huge: Codable { var value: Int128 }
        let bytes = try WireEncoder().encode(Small(value: -100))
        #expect(try WireDecoder().decode(Large.self, from: bytes).value == -100)
        #expect(try WireDecoder().decode(Huge.self, from: bytes).value == -100)
    }
}
