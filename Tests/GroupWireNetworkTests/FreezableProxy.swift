import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A TCP proxy on 127.0.0.1 in front of `target` for one connection, which ``freeze()``
/// turns into a half-open path: from then on nothing passes either way (bytes are read and
/// dropped, and counted), as when a peer vanishes without FIN or RST. ``close()`` ends it.
final class FreezableProxy: Sendable {
    /// The port clients connect to.
    let port: Int
    private let listener: Int32
    /// What the forwarding threads and the test share.
    private final class Shared: Sendable {
        let state = Mutex((frozen: false, droppedFromClient: 0, sockets: [Int32]()))
    }

    private let shared = Shared()

    init(target: Int) throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard listener >= 0 else { throw CocoaError(.fileWriteUnknown) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw in
                bind(listener, raw, length) == 0 && listen(listener, 1) == 0 && getsockname(listener, raw, &length) == 0
            }
        }
        guard bound else {
            Self.closeSocket(listener)
            throw CocoaError(.fileWriteUnknown)
        }
        self.listener = listener
        port = Int(UInt16(bigEndian: address.sin_port))
        let shared = shared
        Thread.detachNewThread {
            let client = accept(listener, nil, nil)
            guard client >= 0 else { return }
            let server = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var targetAddress = sockaddr_in()
            targetAddress.sin_family = sa_family_t(AF_INET)
            targetAddress.sin_addr.s_addr = inet_addr("127.0.0.1")
            targetAddress.sin_port = in_port_t(UInt16(target).bigEndian)
            let connected = withUnsafePointer(to: &targetAddress) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(server, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
                }
            }
            shared.state.withLock { $0.sockets += [client, server] }
            guard connected else { return }
            Thread.detachNewThread { Self.forward(from: client, to: server, shared: shared, fromClient: true) }
            Self.forward(from: server, to: client, shared: shared, fromClient: false)
        }
    }

    private static func forward(
        from source: Int32, to destination: Int32, shared: Shared, fromClient: Bool
    ) {
        var buffer = [UInt8](repeating: 0, count: 16_384)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(source, $0.baseAddress, $0.count) }
            guard count > 0 else { return }
            let frozen = shared.state.withLock { state -> Bool in
                if state.frozen, fromClient { state.droppedFromClient += count }
                return state.frozen
            }
            if frozen { continue }
            let written = buffer.withUnsafeBytes { write(destination, $0.baseAddress, count) }
            guard written == count else { return }
        }
    }

    /// From now on nothing passes.
    func freeze() {
        shared.state.withLock { $0.frozen = true }
    }

    /// Bytes the client sent after the freeze, which went nowhere.
    var droppedFromClient: Int { shared.state.withLock { $0.droppedFromClient } }

    /// Closes the listener and both connections.
    func close() {
        let sockets = shared.state.withLock { $0.sockets }
        for socket in sockets + [listener] {
            shutdown(socket, Int32(SHUT_RDWR))
            Self.closeSocket(socket)
        }
    }

    private static func closeSocket(_ socket: Int32) {
        #if canImport(Glibc)
            _ = Glibc.close(socket)
        #else
            _ = Darwin.close(socket)
        #endif
    }
}
