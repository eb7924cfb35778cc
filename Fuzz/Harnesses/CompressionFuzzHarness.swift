// Shared by the FuzzCompression target (Fuzz/Sources/FuzzCompression, where a violation
// traps) and its corpus replay test (Tests/GroupWireCompressionTests/Fuzz, where it is an
// expectation): both depend on the GroupWireFuzzChecks product, so they run the same checks.
import Foundation
import GroupWire
import GroupWireCompression

/// Receive limits for compression fuzzing: small, so bombs hit the cap at once.
let compressionFuzzLimits = Limits(maxMessageSize: 1 << 16)

/// The fixed dictionary store: the vectors' dictionary 4242
/// (Spec/vectors/compression/playback-4242.dict, 2 KiB). Found from this file's path.
let compressionFuzzDictionaries: DictionaryStore = {
    let url = fuzzRepositoryFile("Spec/vectors/compression/playback-4242.dict")
    guard let data = try? Data(contentsOf: url), let dictionary = try? ZstdDictionary(bytes: [UInt8](data)),
        let store = try? DictionaryStore([dictionary])
    else {
        preconditionFailure("cannot load the fuzz dictionary at \(url.path)")
    }
    return store
}()

let compressionFuzzReceiver: PayloadCompressor = {
    guard let compressor = try? PayloadCompressor(dictionaries: compressionFuzzDictionaries, limits: compressionFuzzLimits) else {
        preconditionFailure("cannot create the fuzz receiver")
    }
    return compressor
}()

/// Decompresses a fuzz input and returns every invariant it breaks (empty: none).
///
/// Input: `selector u8, contentSize u16 LE, body`. Selector bits 0-1 pick the dictionary
/// id (0 none, 1 4242, 2 an unknown id 7, 3 4242); bit 2 set declares the content size as
/// `contentSize << 8` instead (to reach sizes over the limit). Invariants: decompression
/// never traps and never returns more than the limit; a body that decompresses returns
/// exactly the declared size, and its output compresses (same dictionary) and decompresses
/// back to the same bytes. The bare `ZstdDecompressor` (no declared size) also never
/// returns more than its limit and agrees with the declared-size path.
public func compressionFuzzViolations(_ input: [UInt8]) -> [String] {
    guard input.count >= 3 else { return [] }
    let selector = input[0]
    let dictionaryID: UInt32 = [0, 4242, 7, 4242][Int(selector & 3)]
    let declared = UInt64(input[1]) | UInt64(input[2]) << 8
    let contentSize = selector & 4 == 0 ? declared : declared << 8
    let body = Array(input[3...])
    let limit = compressionFuzzLimits.maxMessageSize
    var violations: [String] = []

    let info = CompressionInfo(dictionaryID: dictionaryID, contentSize: contentSize)
    let output = try? compressionFuzzReceiver.decompress(body, info: info)
    if let output {
        if output.count > limit { violations.append("decompressed \(output.count) bytes, over the \(limit) limit") }
        if UInt64(output.count) != contentSize {
            violations.append("decompressed \(output.count) bytes, declared \(contentSize)")
        }
        let policy = CompressionPolicy(threshold: 0, dictionaryID: dictionaryID == 0 ? nil : dictionaryID)
        if let sender = try? PayloadCompressor(policy: policy, dictionaries: compressionFuzzDictionaries, limits: compressionFuzzLimits) {
            do {
                if let again = try sender.compress(output) {
                    let back = try compressionFuzzReceiver.decompress(again)
                    if back != output { violations.append("recompressed output decompresses to different bytes") }
                }
            } catch {
                violations.append("decompressed output does not recompress and decompress: \(error)")
            }
        } else {
            violations.append("cannot create a sender for dictionary \(dictionaryID)")
        }
    }

    let decompressor = ZstdDecompressor(limits: compressionFuzzLimits)
    let dictionary = compressionFuzzDictionaries.dictionary(id: dictionaryID)
    if let bare = try? decompressor.decompress(body, dictionary: dictionary) {
        if bare.count > limit { violations.append("bare decompression gave \(bare.count) bytes, over the \(limit) limit") }
        if let output, bare != output { violations.append("bare decompression disagrees with the declared-size path") }
    }
    return violations
}
