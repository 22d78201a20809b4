import Foundation
import Synchronization

/// A blocking HTTP/1.1 client over one TCP connection to 127.0.0.1, for tests of servers (the
/// browser view's endpoints, chromedriver's, whose headers Foundation's client cannot read): it
/// reads exactly what the server sends (chunked bodies de-chunked), so tests can read one part of
/// an endless stream and then hang up. Each call runs on a thread of its own (``onThread(_:)``),
/// never on the tasks the server runs on.
///
/// A read waits at most ``readLimit`` for bytes: only so that a broken server fails the test
/// instead of hanging it; no outcome depends on how fast anything is.
public final class TestConnection: Sendable {
    public struct Head: Sendable {
        public let status: Int
        /// Header names in lower case.
        public let headers: [String: String]
    }

    public struct Failure: Error, CustomStringConvertible {
        public let description: String

        public init(description: String) { self.description = description }
    }

    public static let readLimit = 120

    private struct Buffers {
        var raw: [UInt8] = []
        var body: [UInt8] = []
        var chunked = false
        var remainingLength: Int?
        var bodyEnded = false
    }

    private let fd: Int32
    private let buffers = Mutex(Buffers())

    /// Connects to `127.0.0.1:port`.
    public init(port: Int) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket failed: errno \(errno)") }
        var limit = timeval(tv_sec: Self.readLimit, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard result == 0 else {
            close(fd)
            throw Failure(description: "connect to port \(port) failed: errno \(errno)")
        }
    }

    deinit { close(fd) }

    /// Hangs up now, in the middle of whatever the server sends.
    public func hangUp() {
        shutdown(fd, Int32(SHUT_RDWR))
    }

    /// Sends a request, with `body` when given, and `host` as its `Host` header.
    public func send(_ method: String, _ path: String, host: String = "127.0.0.1", headers: [String: String] = [:],
                     body: [UInt8] = []) throws {
        var text = "\(method) \(path) HTTP/1.1\r\nHost: \(host)\r\n"
        for (name, value) in headers { text += "\(name): \(value)\r\n" }
        if method == "POST" || !body.isEmpty { text += "Content-Length: \(body.count)\r\n" }
        text += "\r\n"
        try sendRaw(Array(text.utf8) + body)
    }

    /// Whether the server has closed the connection, without waiting: true once the end of the
    /// stream is all there is left to read.
    public func serverHasClosed() -> Bool {
        var byte: UInt8 = 0
        let n = recv(fd, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT))
        return n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)
    }

    /// Whether the server has closed the connection, without waiting and without reading: true
    /// once it has hung up, even with bytes it sent still unread (what `serverHasClosed()` cannot
    /// tell), for clients that must not read.
    public func serverHasHungUp() -> Bool {
        let peerClosed: Int16 = 0x2000  // POLLRDHUP (Linux), which Glibc's module does not export
        var entry = pollfd(fd: fd, events: peerClosed, revents: 0)
        guard poll(&entry, 1, 0) == 1 else { return false }
        return entry.revents & (peerClosed | Int16(POLLHUP | POLLERR)) != 0
    }

    /// Sends `bytes` as they are: for requests no well-behaved client makes.
    public func sendRaw(_ bytes: [UInt8]) throws {
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { Foundation.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard n > 0 else { throw Failure(description: "send failed: errno \(errno)") }
            sent += n
        }
    }

    /// Reads the status line and headers, and prepares to read the body.
    public func readHead() throws -> Head {
        let text = String(decoding: try readRaw(until: Array("\r\n\r\n".utf8)), as: UTF8.self)
        var lines = text.components(separatedBy: "\r\n").filter { !$0.isEmpty }
        let statusLine = lines.removeFirst().split(separator: " ")
        guard statusLine.count >= 2, let status = Int(statusLine[1]) else { throw Failure(description: "bad status line in \(text)") }
        var headers: [String: String] = [:]
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        buffers.withLock { b in
            b.chunked = headers["transfer-encoding"]?.lowercased() == "chunked"
            b.remainingLength = headers["content-length"].flatMap { Int($0) }
            b.bodyEnded = false  // a new answer on a kept-alive connection
        }
        return Head(status: status, headers: headers)
    }

    /// Reads body bytes up to and including `delimiter`, and returns them without it.
    public func readBody(until delimiter: [UInt8]) throws -> [UInt8] {
        try take(from: \.body, until: delimiter) {
            guard try fillBody() else { throw Failure(description: "the body ended before \(String(decoding: delimiter, as: UTF8.self).debugDescription)") }
        }
    }

    /// Reads exactly `count` body bytes.
    public func readBody(count: Int) throws -> [UInt8] {
        try take(from: \.body, count: count) {
            guard try fillBody() else { throw Failure(description: "the body ended before \(count) bytes") }
        }
    }

    /// Takes bytes up to `delimiter` (dropping it) from a buffer, calling `more` until it has them.
    private func take(from buffer: WritableKeyPath<Buffers, [UInt8]>, until delimiter: [UInt8], more: () throws -> Void) throws -> [UInt8] {
        while true {
            let found = buffers.withLock { b -> [UInt8]? in
                guard let range = b[keyPath: buffer].firstRange(of: delimiter) else { return nil }
                let before = Array(b[keyPath: buffer][..<range.lowerBound])
                b[keyPath: buffer].removeSubrange(..<range.upperBound)
                return before
            }
            if let found { return found }
            try more()
        }
    }

    /// Takes `count` bytes from a buffer, calling `more` until it has them.
    private func take(from buffer: WritableKeyPath<Buffers, [UInt8]>, count: Int, more: () throws -> Void) throws -> [UInt8] {
        while true {
            let taken = buffers.withLock { b -> [UInt8]? in
                guard b[keyPath: buffer].count >= count else { return nil }
                defer { b[keyPath: buffer].removeFirst(count) }
                return Array(b[keyPath: buffer].prefix(count))
            }
            if let taken { return taken }
            try more()
        }
    }

    /// Reads the rest of the body, until the server ends it.
    public func readBodyToEnd() throws -> [UInt8] {
        while try fillBody() {}
        return buffers.withLock { b in
            defer { b.body = [] }
            return b.body
        }
    }

    /// Moves more decoded body bytes into the body buffer; false when the body has ended.
    private func fillBody() throws -> Bool {
        let (chunked, remaining, ended) = buffers.withLock { ($0.chunked, $0.remainingLength, $0.bodyEnded) }
        if ended { return false }
        if chunked {
            let sizeLine = String(decoding: try readRaw(until: Array("\r\n".utf8)), as: UTF8.self)
            guard let size = Int(sizeLine.split(separator: ";")[0], radix: 16) else { throw Failure(description: "bad chunk size \(sizeLine)") }
            if size == 0 {
                _ = try readRaw(until: Array("\r\n".utf8))
                buffers.withLock { $0.bodyEnded = true }
                return false
            }
            let chunk = try readRaw(count: size)
            _ = try readRaw(count: 2)
            buffers.withLock { $0.body += chunk }
            return true
        }
        if let remaining {
            if remaining == 0 {
                buffers.withLock { $0.bodyEnded = true }
                return false
            }
            let bytes = try readRaw(count: remaining)
            buffers.withLock { b in
                b.body += bytes
                b.remainingLength = 0
            }
            return true
        }
        let leftover = buffers.withLock { b -> [UInt8] in
            defer { b.raw = [] }
            return b.raw
        }
        let more = leftover.isEmpty ? try receive() : leftover
        if more.isEmpty {
            buffers.withLock { $0.bodyEnded = true }
            return false
        }
        buffers.withLock { $0.body += more }
        return true
    }

    private func readRaw(until delimiter: [UInt8]) throws -> [UInt8] {
        try take(from: \.raw, until: delimiter, more: receiveMore)
    }

    private func readRaw(count: Int) throws -> [UInt8] {
        try take(from: \.raw, count: count, more: receiveMore)
    }

    private func receiveMore() throws {
        let more = try receive()
        guard !more.isEmpty else { throw Failure(description: "the connection closed while reading") }
        buffers.withLock { $0.raw += more }
    }

    /// What the socket has, up to 64 KiB; empty at the end of the connection.
    private func receive() throws -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: 65_536)
        while true {
            let n = bytes.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n >= 0 { return Array(bytes.prefix(n)) }
            if errno == EINTR { continue }
            throw Failure(description: errno == EAGAIN ? "no answer within \(Self.readLimit) s" : "recv failed: errno \(errno)")
        }
    }
}

/// Runs blocking work on a thread of its own, so that it never holds one of the few threads the
/// server's tasks run on.
public func onThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        let thread = Thread {
            do {
                continuation.resume(returning: try body())
            } catch {
                continuation.resume(throwing: error)
            }
        }
        thread.start()
    }
}
