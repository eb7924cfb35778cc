import GroupWire
import GroupWireCompression

/// Loads the `--dictionary` files of `decode` and `inspect` into a store.
enum DictionaryLoading {
    /// Reads each file as a standard zstd dictionary (what `groupwire dict train` and
    /// `zstd --train` write), at most ``GroupWireCompression/ZstdDictionary/maxSize`` bytes.
    /// - Parameter paths: dictionary files, in any order.
    /// - Returns: a store keyed by each dictionary's id (empty when `paths` is).
    /// - Throws: ``ToolFailure`` with status 2 naming the file when one cannot be read, is
    ///   not a dictionary, or has the id of a different dictionary given before it.
    static func load(_ paths: [String]) throws(ToolFailure) -> DictionaryStore {
        var loaded: [UInt32: (path: String, dictionary: ZstdDictionary)] = [:]
        for path in paths {
            let dictionary = try read(path)
            if let earlier = loaded[dictionary.id], earlier.dictionary.bytes != dictionary.bytes {
                throw ToolFailure(
                    "\(path): dictionary id \(dictionary.id) is already taken by \(earlier.path), a different dictionary")
            }
            loaded[dictionary.id] = (path, dictionary)
        }
        do {
            return try DictionaryStore(loaded.values.map(\.dictionary))
        } catch {
            // DictionaryStore refuses only different dictionaries under one id, refused above.
            throw ToolFailure("cannot store the dictionaries: \(error)")
        }
    }

    /// Runs `body` with the dictionaries of `paths`, or reports on `output` why they cannot
    /// be loaded and returns that failure's status (2) without running it.
    static func withDictionaries(
        _ paths: [String], output: ToolOutput, _ body: (DictionaryStore) -> ToolStatus
    ) -> ToolStatus {
        do throws(ToolFailure) {
            return body(try load(paths))
        } catch {
            output.message(error.result.messages)
            return error.result.status
        }
    }

    private static func read(_ path: String) throws(ToolFailure) -> ZstdDictionary {
        let bytes: [UInt8]
        do throws(InputReadingError) {
            bytes = try InputReading.file(path, limit: ZstdDictionary.maxSize)
        } catch {
            throw ToolFailure(error.message)
        }
        do {
            return try ZstdDictionary(bytes: bytes)
        } catch {
            throw ToolFailure("\(path): \(error.context)")
        }
    }
}
