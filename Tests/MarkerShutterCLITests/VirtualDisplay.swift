import Foundation
import Pixels

/// An X server of its own for a test (Xvfb, on a display number it picks itself), with what the
/// tests do on it: screenshots (`xwd`) and keys (`xdotool`, through XTEST like a keyboard).
final class VirtualDisplay {
    /// The programs the tests need, all from Debian (Scripts/install-dependencies installs them).
    static let tools = ["Xvfb": "/usr/bin/Xvfb", "xwd": "/usr/bin/xwd", "xdotool": "/usr/bin/xdotool"]

    /// Why the display tests cannot run here, or `nil` when they can.
    static var missing: String? {
        let absent = tools.filter { !FileManager.default.isExecutableFile(atPath: $0.value) }.keys.sorted()
        return absent.isEmpty ? nil
            : "\(absent.joined(separator: ", ")) not installed (Scripts/install-dependencies installs xvfb, x11-apps, xdotool)"
    }

    let server: Process
    /// `:N`, as DISPLAY takes it.
    let name: String

    /// Starts Xvfb with one 1280x1024 24-bit screen and returns once it accepts connections (it
    /// writes its display number when ready, `-displayfd`).
    init() throws {
        server = Process()
        server.executableURL = URL(fileURLWithPath: Self.tools["Xvfb"]!)
        server.arguments = ["-displayfd", "1", "-screen", "0", "1280x1024x24", "-nolisten", "tcp"]
        let ready = Pipe()
        server.standardOutput = ready
        server.standardError = FileHandle.nullDevice
        try server.run()
        var text = ""
        while !text.contains("\n") {
            let data = ready.fileHandleForReading.availableData
            if data.isEmpty { break }  // Xvfb ended without a display
            text += String(decoding: data, as: UTF8.self)
        }
        guard let number = Int(text.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            server.terminate()
            server.waitUntilExit()
            throw VirtualDisplayError(reason: "Xvfb did not start (it wrote \"\(text)\")")
        }
        name = ":\(number)"
    }

    deinit { stop() }

    /// Ends the server. SIGKILL, because a process the test runner starts inherits its blocked
    /// signals, SIGTERM among them; the socket and lock Xvfb would have removed are removed here.
    func stop() {
        guard server.isRunning else { return }
        kill(server.processIdentifier, SIGKILL)
        server.waitUntilExit()
        let number = name.dropFirst()
        for leftover in ["/tmp/.X11-unix/X\(number)", "/tmp/.X\(number)-lock"] { unlink(leftover) }
    }

    /// The environment for a program on this display: the test's own, DISPLAY replaced.
    var environment: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["DISPLAY"] = name
        return environment
    }

    /// Runs one of ``tools`` on this display and returns its standard output.
    @discardableResult
    func run(_ tool: String, _ arguments: [String]) throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.tools[tool] ?? tool)
        process.arguments = arguments
        process.environment = environment
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        let errorText = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw VirtualDisplayError(reason: "\(tool) \(arguments.joined(separator: " ")): status \(process.terminationStatus) \(errorText)")
        }
        return data
    }

    /// The whole screen as BGR24 pixels, read from `xwd -root`.
    func screenshot() throws -> PixelBuffer {
        try Self.decodeXWD(try run("xwd", ["-root", "-silent"]))
    }

    /// Decodes an XWD file of a 24- or 32-bit TrueColor ZPixmap (what `xwd` writes for Xvfb's
    /// 24-bit screen): a big-endian header, the window name, colours, then the rows.
    static func decodeXWD(_ data: Data) throws -> PixelBuffer {
        let bytes = [UInt8](data)
        func field(_ index: Int) throws -> Int {
            let at = index * 4
            guard at + 4 <= bytes.count else { throw VirtualDisplayError(reason: "XWD file cut short in its header") }
            return bytes[at..<at + 4].reduce(0) { $0 << 8 | Int($1) }
        }
        let headerSize = try field(0), format = try field(2), width = try field(4), height = try field(5)
        let byteOrder = try field(7), bitsPerPixel = try field(11), bytesPerLine = try field(12)
        let masks = (red: try field(14), green: try field(15), blue: try field(16)), colours = try field(19)
        guard format == 2, bitsPerPixel == 32 || bitsPerPixel == 24 else {
            throw VirtualDisplayError(reason: "XWD format \(format) with \(bitsPerPixel) bits per pixel is not handled")
        }
        let start = headerSize + colours * 12, pixelBytes = bitsPerPixel / 8
        guard start + height * bytesPerLine <= bytes.count else { throw VirtualDisplayError(reason: "XWD file cut short") }
        let shifts = [masks.blue, masks.green, masks.red].map(\.trailingZeroBitCount)
        var bgr = [UInt8](repeating: 0, count: width * height * 3)
        bytes.withUnsafeBufferPointer { source in
            bgr.withUnsafeMutableBufferPointer { target in
                for y in 0..<height {
                    var at = start + y * bytesPerLine, out = y * width * 3
                    for _ in 0..<width {
                        var value = 0
                        for k in 0..<pixelBytes {
                            value = byteOrder == 0 ? value | Int(source[at + k]) << (8 * k) : value << 8 | Int(source[at + k])
                        }
                        for c in 0..<3 { target[out + c] = UInt8(truncatingIfNeeded: value >> shifts[c]) }
                        at += pixelBytes
                        out += 3
                    }
                }
            }
        }
        return try PixelBuffer(copying: bgr, width: width, height: height, format: .bgr24)
    }
}

struct VirtualDisplayError: Error, CustomStringConvertible {
    let reason: String
    var description: String { reason }
}
