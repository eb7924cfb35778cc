import Synchronization

/// The connections open now, in all and per remote address, against
/// ``RelayServerConfiguration/maxConnections`` and
/// ``RelayServerConfiguration/maxConnectionsPerAddress``: a connection is admitted when it
/// is accepted and released when it closes.
final class RelayAdmission: Sendable {
    private struct State {
        var total = 0
        var byAddress: [String: Int] = [:]
    }

    /// A connection refused because `limit` is full.
    struct Refused: Error, Sendable {
        var limit: String
    }

    private let maxConnections: Int
    private let maxPerAddress: Int
    private let state = Mutex(State())

    init(maxConnections: Int, maxPerAddress: Int) {
        self.maxConnections = maxConnections
        self.maxPerAddress = maxPerAddress
    }

    /// Takes a place for a connection from `address`, or says which limit is full.
    func admit(_ address: String) -> String? {
        state.withLock { state in
            guard state.total < maxConnections else { return "maxConnections \(maxConnections)" }
            guard state.byAddress[address, default: 0] < maxPerAddress else {
                return "maxConnectionsPerAddress \(maxPerAddress)"
            }
            state.total += 1
            state.byAddress[address, default: 0] += 1
            return nil
        }
    }

    /// Gives back the place of a connection from `address` that closed.
    func release(_ address: String) {
        state.withLock { state in
            state.total -= 1
            let left = state.byAddress[address, default: 1] - 1
            state.byAddress[address] = left > 0 ? left : nil
        }
    }

    /// The connections open now.
    var open: Int { state.withLock { $0.total } }
}
