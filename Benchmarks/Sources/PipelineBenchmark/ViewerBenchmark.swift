import EmulatedCameraHarness
import Foundation
import Synchronization

/// `live --serve` against the same paced 1280x720 camera as `live`: the frame-to-state latency and
/// frame rate without the browser view, serving with nobody watching, and with viewers that read
/// the page's two streams (`/stream.mjpg` and `/events`) from the first frame to the last.
struct ViewerBenchmark {
    let live: LiveBenchmark

    /// One configuration of the run.
    enum Setup: CustomStringConvertible {
        case plain
        case serving
        case watched(viewers: Int)

        var description: String {
            switch self {
            case .plain: "no --serve"
            case .serving: "--serve, nobody watching"
            case .watched(let viewers): "--serve, \(viewers) viewers"
            }
        }
    }

    func run(frames: Int, viewers: Int, rounds: Int) throws {
        print("pipeline-benchmark viewers: marker-shutter live on an emulated 1280x720 MJPEG camera at 30 fps, paced, "
              + "showing the frames of \(live.folder) in name order; --stop-after \(frames); viewers read /stream.mjpg "
              + "(--view-fps 15, the default) and /events over loopback from before the first frame (--wait-for-viewer) to the end")
        print("load average before: \(loadAverages())")
        let setups: [Setup] = [.plain, .serving, .watched(viewers: viewers)]
        for round in 1...rounds {
            for setup in setups {
                let port = try Self.freePort()
                var extra: [String] = []
                switch setup {
                case .plain: break
                case .serving: extra = ["--serve", "127.0.0.1:\(port)"]
                case .watched: extra = ["--serve", "127.0.0.1:\(port)", "--wait-for-viewer"]
                }
                let watchers: [Viewer]
                if case .watched(let count) = setup {
                    watchers = (0..<count).flatMap { _ in [Viewer(port: port, path: "/stream.mjpg"), Viewer(port: port, path: "/events")] }
                } else {
                    watchers = []
                }
                for watcher in watchers { watcher.start() }
                let (run, summary) = try live.run(format: .mjpeg, paced: true, frames: frames, extraArguments: extra)
                let seen = watchers.map { $0.finish() }
                print("round \(round), \(setup): \(String(format: "%.1f", run.wallSeconds)) s, "
                      + String(format: "CPU %.1f ms/frame, peak RSS %.1f MiB", run.cpuSeconds * 1000 / Double(frames), Double(run.peakKiB) / 1024))
                print("  " + summary)
                if !seen.isEmpty {
                    let streams = seen.filter { $0.path == "/stream.mjpg" }, events = seen.filter { $0.path == "/events" }
                    print("  viewers: " + streams.map { String(format: "%d JPEG frames (%.1f per second, %.1f MiB)", $0.parts, Double($0.parts) / $0.seconds, Double($0.bytes) / 1_048_576) }.joined(separator: "; ")
                          + "; events: " + events.map { "\($0.parts) events" }.joined(separator: ", "))
                }
            }
        }
        print("load average after:  \(loadAverages())")
    }

    /// A loopback port nobody listens on now.
    static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        guard bound else { throw BenchmarkError("no free loopback port: errno \(errno)") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}

/// A client that connects as soon as the server listens, asks for one long-lived response and
/// reads it to its end on a thread of its own, counting parts (JPEG frames or events).
final class Viewer: Sendable {
    struct Seen {
        let path: String
        let parts: Int
        let bytes: Int
        let seconds: Double
    }

    let port: Int
    let path: String
    private let result = Mutex<Seen?>(nil)
    private let done = DispatchSemaphore(value: 0)

    init(port: Int, path: String) {
        self.port = port
        self.path = path
    }

    func start() {
        let thread = Thread { [self] in
            result.withLock { $0 = read() }
            done.signal()
        }
        thread.start()
    }

    /// Waits for the response to end.
    func finish() -> Seen {
        done.wait()
        return result.withLock { $0 } ?? Seen(path: path, parts: 0, bytes: 0, seconds: 0)
    }

    private func read() -> Seen {
        let fd = connectWhenListening()
        guard fd >= 0 else { return Seen(path: path, parts: 0, bytes: 0, seconds: 0) }
        defer { close(fd) }
        let request = "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
        _ = request.withCString { send(fd, $0, strlen($0), Int32(MSG_NOSIGNAL)) }
        // A part starts with the boundary (images) or a line `event: ` (events); counted across reads.
        let marker = Array((path == "/events" ? "event: " : "--markershutterframe").utf8)
        var parts = 0, bytes = 0, tail: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        let clock = ContinuousClock(), start = clock.now
        while true {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { break }
            bytes += n
            let window = tail + buffer[0..<n]
            var from = window.startIndex
            while let range = window[from...].firstRange(of: marker) {
                parts += 1
                from = range.upperBound
            }
            tail = Array(window.suffix(marker.count - 1))
        }
        let elapsed = clock.now - start
        return Seen(path: path, parts: parts, bytes: bytes,
                    seconds: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
    }

    /// Connects to 127.0.0.1:`port`, trying every 10 ms for up to a minute while the tool starts.
    private func connectWhenListening() -> Int32 {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        for _ in 0..<6000 {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
            }
            if connected { return fd }
            close(fd)
            usleep(10_000)
        }
        return -1
    }
}
