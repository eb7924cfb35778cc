import Foundation
import GroupWire
import GroupWireExamples
import GroupWireTestSupport
import GroupWireTesting
import Synchronization
import Testing

@testable import GroupWireSession

/// `Messenger.Messages`, the messenger's own stream type: what it keeps, when it ends, and
/// that a stream nobody reads any more stops listening.
@Suite struct MessengerStreamTests {
    /// What a reading task saw, for the test to look at.
    private final class Seen: Sendable {
        let values = Mutex<[Double]>([])
    }

    private func stroke(_ index: Int) -> UpsertStroke {
        UpsertStroke(
            id: UUID(uuid: (1, 2, 3, 4, 5, 6, 0x40, 8, 0x80, 10, 11, 12, 13, 14, 15, UInt8(index & 0xFF))),
            color: .blue, point: Point(x: Double(index), y: -Double(index)))
    }

    @Test("A stream keeps what arrives until it is read, in order, and ends after it when the transport closes")
    func keepsInOrderAndEndsAfterTheClose() async throws {
        let group = try await Group.make(count: 2)
        let strokes = try group.messengers[1].messages(of: UpsertStroke.self)
        for index in 0..<300 {
            try await group.messengers[0].send(stroke(index))
        }
        await group.settle()
        let got = await collect(strokes)
        #expect(got.map(\.message) == (0..<300).map(stroke))
        #expect(got.allSatisfy { $0.context.source == group.ids[0] && $0.context.typeID == UpsertStroke.wireTypeID })
    }

    @Test("A stream whose reading task is cancelled stops listening, while another stream of the type goes on")
    func cancelledReaderStopsListening() async throws {
        let group = try await Group.make(count: 2)
        let receiver = group.messengers[1]
        let kept = try receiver.messages(of: UpsertStroke.self)
        let read = Seen()
        let cancelled = try receiver.messages(of: UpsertStroke.self)
        let reader = Task {
            for await (stroke, _) in cancelled {
                read.values.withLock { $0.append(stroke.point.x) }
            }
        }
        try await group.messengers[0].send(stroke(1))
        await group.hub.runUntilIdle()
        try await eventually("the reader to have the first stroke") { read.values.withLock { $0 } == [1] }
        reader.cancel()
        await reader.value
        try await group.messengers[0].send(stroke(2))
        await group.hub.runUntilIdle()
        try await eventually("the second stroke to be delivered") { receiver.statistics.messagesDelivered == 2 }
        #expect(read.values.withLock { $0 } == [1], "the cancelled reader got nothing more")
        #expect(receiver.statistics.messagesUnrouted == 0, "the other stream still listens")
        await group.settle()
        #expect(await collect(kept).map(\.message.point.x) == [1, 2])
    }

    @Test("A stream dropped unread stops listening: what follows is unrouted")
    func droppedStreamStopsListening() async throws {
        let group = try await Group.make(count: 2)
        let receiver = group.messengers[1]
        var strokes: Messenger.Messages<UpsertStroke>? = try receiver.messages(of: UpsertStroke.self)
        try await group.messengers[0].send(stroke(1))
        await group.hub.runUntilIdle()
        try await eventually("the first stroke to be delivered") { receiver.statistics.messagesDelivered == 1 }
        #expect(strokes != nil)
        strokes = nil
        try await group.messengers[0].send(stroke(2))
        await group.hub.runUntilIdle()
        try await eventually("the second stroke to be unrouted") { receiver.statistics.messagesUnrouted == 1 }
        #expect(receiver.statistics.messagesDelivered == 1)
        await group.settle()
    }

    @Test("A message appended as the waiting reader is cancelled is still returned, then the end")
    func cancellationKeepsWhatWasAppended() async throws {
        let stream = Messenger.Messages<Int>()
        let reader = Task {
            var iterator = stream.makeAsyncIterator()
            var got: [Int] = []
            while let (value, _) = await iterator.next() { got.append(value) }
            return got
        }
        try await eventually("the reader to wait") { stream.buffer.state.withLock { $0.reader != nil } }
        let context = MessageContext(source: .numbered(1), typeID: 5, wasCompressed: false, session: nil)
        stream.buffer.append(42, context: context)
        reader.cancel()
        #expect(await reader.value == [42])
        stream.buffer.append(43, context: context)
        #expect(stream.buffer.state.withLock { $0.elements.isEmpty && $0.finished }, "nothing is kept after the end")
    }

    @Test("An iterator keeps its stream listening after the stream value itself is gone")
    func iteratorKeepsTheStream() async throws {
        let group = try await Group.make(count: 2)
        let receiver = group.messengers[1]
        var iterator = try receiver.messages(of: UpsertStroke.self).makeAsyncIterator()
        try await group.messengers[0].send(stroke(7))
        try await group.messengers[0].send(stroke(8))
        await group.hub.runUntilIdle()
        #expect(await iterator.next()?.message == stroke(7))
        #expect(await iterator.next()?.message == stroke(8))
        #expect(receiver.statistics.messagesUnrouted == 0)
        await group.settle()
        #expect(await iterator.next() == nil, "the stream ended with the transport")
    }
}
