import HTTPTestSupport
import Foundation
import MarkerDetection
import Pixels
import Testing
@testable import BrowserView

/// Runs a view server on 127.0.0.1 with a port the system chooses, hands the port to `body`,
/// then stops the server and waits until it has stopped.
func withServer(
    feed: ViewFeed = ViewFeed(), configuration: ViewServer.Configuration = .init(address: ServeAddress(port: 0)),
    commands: @escaping ViewServer.CommandHandler = { _ in .accepted },
    _ body: (ViewServer, Int) async throws -> Void
) async throws {
    let server = try ViewServer(feed: feed, configuration: configuration, commands: commands)
    let (ports, portContinuation) = AsyncStream.makeStream(of: Int.self)
    try await withThrowingTaskGroup(of: Void.self) { group in
        group.addTask { try await server.run { port in portContinuation.yield(port) } }
        var iterator = ports.makeAsyncIterator()
        let port = try #require(await iterator.next())
        do {
            try await body(server, port)
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()
        try await group.waitForAll()
    }
}

/// A whole response read on a connection of its own.
struct TestResponse: Sendable {
    let status: Int
    let headers: [String: String]
    let body: [UInt8]

    var text: String { String(decoding: body, as: UTF8.self) }

    /// The body as a JSON object.
    func json() throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(body)) as? [String: Any])
    }
}

/// Sends a GET request and reads the whole response.
func request(_ path: String, port: Int, headers: [String: String] = [:]) async throws -> TestResponse {
    try await request("GET", path, port: port, headers: headers)
}

/// Sends one request, with `host` as its `Host`, and reads the whole response.
func request(_ method: String, _ path: String, port: Int, host: String = "127.0.0.1", headers: [String: String] = [:],
             body: [UInt8] = []) async throws -> TestResponse {
    try await onThread {
        let connection = try TestConnection(port: port)
        try connection.send(method, path, host: host, headers: headers.merging(["Connection": "close"]) { a, _ in a }, body: body)
        let head = try connection.readHead()
        return TestResponse(status: head.status, headers: head.headers, body: try connection.readBodyToEnd())
    }
}

/// Opens a connection, asks for `path` and reads the response's head, leaving the body unread.
func openStream(_ path: String, port: Int) async throws -> (connection: TestConnection, head: TestConnection.Head) {
    let connection = try TestConnection(port: port)
    let head = try await onThread {
        try connection.send("GET", path)
        return try connection.readHead()
    }
    return (connection, head)
}

/// One part of the MJPEG stream.
struct StreamPart: Sendable {
    let headers: [String: String]
    let jpeg: [UInt8]
}

extension TestConnection {
    /// Reads the next part of a `multipart/x-mixed-replace` body: the boundary line, the part's
    /// headers, `Content-Length` bytes and the line end after them.
    func readPart(boundary: String) throws -> StreamPart {
        let before = try readBody(until: Array("--\(boundary)\r\n".utf8))
        guard before.isEmpty else { throw Failure(description: "\(before.count) bytes before the boundary") }
        let headerText = String(decoding: try readBody(until: Array("\r\n\r\n".utf8)), as: UTF8.self)
        var headers: [String: String] = [:]
        for line in headerText.components(separatedBy: "\r\n") {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        guard let length = headers["content-length"].flatMap({ Int($0) }) else {
            throw Failure(description: "part without Content-Length: \(headerText)")
        }
        let jpeg = try readBody(count: length)
        let end = try readBody(count: 2)
        guard end == Array("\r\n".utf8) else { throw Failure(description: "part not followed by CRLF") }
        return StreamPart(headers: headers, jpeg: jpeg)
    }

    /// Reads the next Server-Sent Event: its name and its data (one line of JSON).
    func readEvent() throws -> (name: String, data: String) {
        let text = String(decoding: try readBody(until: Array("\n\n".utf8)), as: UTF8.self)
        var name = "message", data = ""
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("event: ") { name = String(line.dropFirst(7)) }
            else if line.hasPrefix("data: ") { data = String(line.dropFirst(6)) }
            else { throw Failure(description: "unexpected line in an event: \(line.debugDescription)") }
        }
        return (name, data)
    }
}

/// A gray BGR frame, every pixel `value`; the value tells frames apart after JPEG.
func flatFrame(_ value: UInt8, width: Int = 64, height: Int = 48) throws -> PixelBuffer {
    try PixelBuffer(width: width, height: height, format: .bgr24) { $0.initializeMemory(as: UInt8.self, repeating: value) }
}

/// Checks that `jpeg` is a whole JPEG file (start and end markers) that the project's decoder
/// reads, and returns its pixels.
func decodeJPEG(_ jpeg: [UInt8]) throws -> PixelBuffer {
    #expect(jpeg.prefix(2) == [0xFF, 0xD8], "no JPEG start-of-image marker")
    #expect(jpeg.suffix(2) == [0xFF, 0xD9], "no JPEG end-of-image marker")
    #expect(try ImageFile.header(of: jpeg).format == .jpeg)
    return try ImageFile.decode(jpeg)
}

/// The middle pixel's first channel.
func middleValue(_ pixels: PixelBuffer) -> Int {
    Int(pixels.row(pixels.height / 2)[(pixels.width / 2) * pixels.format.bytesPerPixel])
}

/// Waits, without polling the clock, until the feed has `count` viewers of the image stream.
func waitForViewers(_ feed: ViewFeed, _ count: Int) async {
    while true {
        let seen = feed.audience.version
        if feed.viewerCount == count { return }
        _ = await feed.audience.wait(after: seen)
    }
}

/// Waits until the feed has `count` listeners to the event stream.
func waitForListeners(_ feed: ViewFeed, _ count: Int) async {
    while true {
        let seen = feed.audience.version
        if feed.listenerCount == count { return }
        _ = await feed.audience.wait(after: seen)
    }
}

typealias Failure = TestConnection.Failure
