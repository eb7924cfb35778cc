import Testing

/// The trait of tests that start processes, relays or many connections: at most one such
/// test runs at a time, beside any number of light ones.
///
/// Swift Testing runs every test in parallel by default. On a 2-core machine a dozen relays
/// and child processes started at the same moment starve each other (and the light tests'
/// tasks) for seconds; one lane for the heavy ones keeps the suite's time close to what it
/// was while no test waits behind more than one other heavy test.
///
/// Where a test goes (see Tests/README.md):
/// - pure logic, codecs, vectors, the in-process hub on virtual time: no trait;
/// - a relay or a listener on loopback, a child process, tshark, a package build:
///   `@Suite(.heavy)` on its suite.
package struct HeavyTrait: SuiteTrait, TestTrait, TestScoping {
    /// Applies to every test of a suite it is on.
    package var isRecursive: Bool { true }

    /// Runs the test once the heavy lane is free.
    package func provideScope(for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void)
        async throws
    {
        // The suite's own scope is not a test: only test cases take the lane.
        guard testCase != nil else { return try await function() }
        await HeavyLane.shared.acquire()
        do {
            try await function()
        } catch {
            await HeavyLane.shared.release()
            throw error
        }
        await HeavyLane.shared.release()
    }
}

extension Trait where Self == HeavyTrait {
    /// One lane for the tests that start processes, relays or many connections.
    package static var heavy: HeavyTrait { HeavyTrait() }
}

/// A one-permit semaphore for the heavy tests, first come first served.
actor HeavyLane {
    static let shared = HeavyLane()
    private var busy = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    func acquire() async {
        guard busy else {
            busy = true
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    func release() {
        guard !waiting.isEmpty else {
            busy = false
            return
        }
        waiting.removeFirst().resume()
    }
}
