// Shared by the FuzzDynamicCodec target (Fuzz/Sources/FuzzDynamicCodec, where a violation
// traps) and its corpus replay test (Tests/GroupWireDynamicTests/Fuzz, where it is an
// expectation): both depend on the GroupWireFuzzChecks product, so they run the same checks.
import Foundation
import GroupWire
import GroupWireDynamic
import GroupWireJSON
import GroupWireSpec

/// Dynamic codecs for the WatchTogether example spec (Spec/Examples, found from this
/// file's path), for Tests/Specs/KitchenSink.gwspec (every scalar, collection and union
/// shape) and for the DrawTogether example spec (arrays of structs of structs, which
/// validation skims), each dropping and keeping unknown fields.
let dynamicFuzzCodecs: [DynamicCodec] = {
    let examples = fuzzRepositoryFile("Spec/Examples")
    guard let entry = try? String(contentsOf: examples.appendingPathComponent("WatchTogether.gwspec"), encoding: .utf8),
        let common = try? String(contentsOf: examples.appendingPathComponent("Common.gwspec"), encoding: .utf8),
        let spec = try? SpecCompiler().compile(source: entry, path: "WatchTogether.gwspec", otherFiles: ["Common.gwspec": common])
            .checkedSpec()
    else {
        preconditionFailure("cannot compile \(examples.path)/WatchTogether.gwspec")
    }
    let kitchenPath = fuzzRepositoryFile("Tests/Specs/KitchenSink.gwspec")
    guard let kitchenSource = try? String(contentsOf: kitchenPath, encoding: .utf8),
        let kitchen = try? SpecCompiler().compile(source: kitchenSource, path: "KitchenSink.gwspec").checkedSpec()
    else {
        preconditionFailure("cannot compile \(kitchenPath.path)")
    }
    guard let drawSource = try? String(contentsOf: examples.appendingPathComponent("DrawTogether.gwspec"), encoding: .utf8),
        let draw = try? SpecCompiler().compile(source: drawSource, path: "DrawTogether.gwspec").checkedSpec()
    else {
        preconditionFailure("cannot compile \(examples.path)/DrawTogether.gwspec")
    }
    let keeping = DynamicCodec.Options(keepsUnknownFields: true)
    return [
        DynamicCodec(spec: spec), DynamicCodec(spec: spec, options: keeping), DynamicCodec(spec: kitchen),
        DynamicCodec(spec: kitchen, options: keeping), DynamicCodec(spec: draw), DynamicCodec(spec: draw, options: keeping),
    ]
}()

/// Decodes a fuzz input as a PlaybackState, a KitchenSink Awkward or a DrawTogether
/// CanvasSnapshot with the dynamic codec and returns every invariant it breaks (empty: none).
///
/// Input: `selector u8, payload`; selector bit 0 keeps unknown fields, bit 1 writes
/// pretty-printed JSON, bit 2 reads KitchenSink's `Awkward` instead of PlaybackState, bit 3
/// (taking precedence) DrawTogether's `CanvasSnapshot`. Invariants: decoding never traps; `validate` accepts what decoding reads and fails
/// as decoding fails (kind and offset); `writeJSON` writes exactly the text of the decoded JSON, or fails with the decoder's error kind and offset having
/// written nothing; JSON that decodes encodes again, and that payload decodes to the same
/// JSON.
public func dynamicCodecFuzzViolations(_ input: [UInt8]) -> [String] {
    guard let selector = input.first else { return [] }
    let spec = selector & 8 != 0 ? 2 : selector & 4 != 0 ? 1 : 0
    let codec = dynamicFuzzCodecs[Int(selector & 1) + 2 * spec]
    let type = ["PlaybackState", "Awkward", "CanvasSnapshot"][spec]
    let payload = Array(input.dropFirst())
    let writer = JSONWriter(prettyPrinted: selector & 2 != 0)
    var written: [UInt8] = []
    let writing = Result { () throws(WireError) in try codec.writeJSON(payload, as: type, writer: writer) { written += $0 } }
    // What groupwire validate runs (its skim, then the general walk without values).
    let validating = Result { () throws(WireError) in try codec.validate(payload, as: type) }
    let json: JSONValue
    do throws(WireError) {
        json = try codec.decode(payload, as: type)
    } catch {
        guard case .failure(let refusal) = validating, refusal.kind == error.kind, refusal.offset == error.offset else {
            return ["validate did not fail as decode did (\(error)): \(validating)"]
        }
        if case .failure(let failure) = writing, failure.kind == error.kind, failure.offset == error.offset, written.isEmpty { return [] }
        return ["writeJSON did not fail as decode did (\(error)): \(writing), \(written.count) bytes written"]
    }
    if case .failure(let refusal) = validating { return ["validate refused what decode read: \(refusal)"] }
    guard written == writer.bytes(json) else {
        return ["writeJSON wrote \(String(decoding: written, as: UTF8.self)), decode gives \(writer.string(json))"]
    }
    let encoded: [UInt8]
    do {
        encoded = try codec.encode(json, as: type)
    } catch {
        return ["decoded JSON does not encode: \(error); JSON: \(json)"]
    }
    do {
        let again = try codec.decode(encoded, as: type)
        return again == json ? [] : ["decode-encode-decode changed the JSON: \(json) became \(again)"]
    } catch {
        return ["the re-encoded payload does not decode: \(error)"]
    }
}
