import HTTPTestSupport

/// A picture of the browser view's image stream, as a client reads it.
enum StreamPicture {
    /// Reads the first JPEG of `/stream.mjpg` (empty when the stream is refused), then hangs up
    /// in the middle of the stream.
    static func first(port: Int) throws -> [UInt8] {
        let connection = try TestConnection(port: port)
        defer { connection.hangUp() }
        try connection.send("GET", "/stream.mjpg")
        guard try connection.readHead().status == 200 else { return [] }
        _ = try connection.readBody(until: Array("Content-Length: ".utf8))
        let length = Int(String(decoding: try connection.readBody(until: Array("\r\n\r\n".utf8)), as: UTF8.self)) ?? 0
        return try connection.readBody(count: length)
    }
}
