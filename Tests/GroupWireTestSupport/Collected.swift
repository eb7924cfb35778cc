import Synchronization

/// What a stream yields, collected as it arrives, for a test to read while it waits.
package final class Collected<Element: Sendable>: Sendable {
    private final class Storage: Sendable {
        let items = Mutex<[Element]>([])
        let finished = Mutex(false)
    }

    private let storage = Storage()
    private let task: Task<Void, Never>

    /// Starts collecting `stream`; collecting stops when the stream ends or this is released.
    package init<Stream: AsyncSequence & Sendable>(_ stream: Stream) where Stream.Element == Element, Stream.Failure == Never {
        let storage = storage
        task = Task {
            for await item in stream { storage.items.withLock { $0.append(item) } }
            storage.finished.withLock { $0 = true }
        }
    }

    deinit { task.cancel() }

    /// Everything collected so far, in order.
    package var all: [Element] { storage.items.withLock { $0 } }

    /// Whether the stream has ended (and everything it yielded is in ``all``).
    package var isFinished: Bool { storage.finished.withLock { $0 } }
}
