import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A blocking TCP connection to a port on 127.0.0.1, for tests that must speak to a server
/// byte by byte (a plain HTTP GET, a WebSocket client that stops reading). Every read waits
/// at most 30 seconds; ``close()`` ends it.
public final class LoopbackSocket {
    /// What failed, with errno where there is one.
    public struct Failure: Error, CustomStringConvertible {
        /// What failed.
        public let description: String
        /// A failure described by `description`.
        public init(description: String) { self.description = description }
    }

    private let socket: Int32

    /// Connects to `port`; `receiveBuffer` (bytes) shrinks the socket's receive buffer first,
    /// so a server writing to a client that does not read backs up quickly.
    public init(port: Int, receiveBuffer: Int? = nil) throws {
        #if canImport(Glibc)
            let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            let socket = Darwin.socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard socket >= 0 else { throw Failure(description: "socket() failed: errno \(errno)") }
        self.socket = socket
        if var size = receiveBuffer.map(Int32.init) {
            setsockopt(socket, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        var timeout = timeval(tv_sec: 30, tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            let number = errno
            close()
            throw Failure(description: "connect() to 127.0.0.1:\(port) failed: errno \(number)")
        }
    }

    /// Writes all of `bytes`.
    public func write(_ bytes: [UInt8]) throws {
        var written = 0
        while written < bytes.count {
            #if canImport(Glibc)
                let count = bytes[written...].withUnsafeBytes { Glibc.write(socket, $0.baseAddress, $0.count) }
            #else
                let count = bytes[written...].withUnsafeBytes { Darwin.write(socket, $0.baseAddress, $0.count) }
            #endif
            guard count > 0 else { throw Failure(description: "write() failed: errno \(errno)") }
            written += count
        }
    }

    /// Reads one byte; nil at the end of the stream.
    public func readByte() throws -> UInt8? {
        var byte: UInt8 = 0
        #if canImport(Glibc)
            let count = Glibc.read(socket, &byte, 1)
        #else
            let count = Darwin.read(socket, &byte, 1)
        #endif
        guard count >= 0 else { throw Failure(description: "read() failed or timed out: errno \(errno)") }
        return count == 0 ? nil : byte
    }

    /// Reads until the server closes, at most `limit` bytes.
    public func readToEnd(limit: Int = 1 << 20) throws -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4_096)
        while bytes.count < limit {
            #if canImport(Glibc)
                let count = chunk.withUnsafeMutableBytes { Glibc.read(socket, $0.baseAddress, $0.count) }
            #else
                let count = chunk.withUnsafeMutableBytes { Darwin.read(socket, $0.baseAddress, $0.count) }
            #endif
            guard count >= 0 else {
                throw Failure(description: "read() failed or timed out after \(bytes.count) bytes: errno \(errno)")
            }
            if count == 0 { break }
            bytes += chunk[..<count]
        }
        return bytes
    }

    /// Closes the connection.
    public func close() {
        #if canImport(Glibc)
            _ = Glibc.close(socket)
        #else
            _ = Darwin.close(socket)
        #endif
    }

    /// A plain HTTP/1.1 GET of `path` on loopback `port`: the whole answer, head and body, as
    /// text. The blocking socket runs on a thread of its own: a server answering from Swift
    /// tasks must not wait for a pool thread this call holds.
    public static func httpGet(port: Int, path: String) async throws -> String {
        try await withCheckedThrowingContinuation { continuation in
            Thread {
                continuation.resume(
                    with: Result {
                        let socket = try LoopbackSocket(port: port)
                        defer { socket.close() }
                        try socket.write(
                            Array("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n\r\n".utf8))
                        return String(decoding: try socket.readToEnd(), as: UTF8.self)
                    })
            }.start()
        }
    }
}
