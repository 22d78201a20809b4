import Foundation
import Glibc
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

    /// Xvfb's process id.
    private let server: pid_t
    private var running = true
    /// `:N`, as DISPLAY takes it.
    let name: String

    /// Starts Xvfb with one `width` x `height` 24-bit screen and returns once it accepts connections (it
    /// writes its display number when ready, `-displayfd`). `-noreset`: by default the server
    /// resets when its last client leaves, which refuses connections for a moment, and the program's
    /// own display check is such a client. It is spawned with no signal blocked
    /// (the test runner blocks some, and a child inherits them), so that SIGTERM ends it and it
    /// removes its own socket and lock file.
    init(width: Int = 1280, height: Int = 1024) throws {
        var ready: [Int32] = [0, 0]
        guard pipe(&ready) == 0 else { throw VirtualDisplayError(reason: "pipe: errno \(errno)") }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, ready[1], 1)
        posix_spawn_file_actions_addclose(&actions, ready[0])
        posix_spawn_file_actions_addclose(&actions, ready[1])
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t(), all = sigset_t()
        sigemptyset(&none)
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let arguments = [Self.tools["Xvfb"]!, "-displayfd", "1", "-screen", "0", "\(width)x\(height)x24", "-nolisten", "tcp", "-noreset"]
        var argv = arguments.map { strdup($0) } + [nil]
        defer { for argument in argv { free(argument) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, arguments[0], &actions, &attributes, &argv, environ)
        Glibc.close(ready[1])
        defer { Glibc.close(ready[0]) }
        guard spawned == 0 else { throw VirtualDisplayError(reason: "Xvfb could not be started: error \(spawned)") }
        server = pid
        var text = ""
        var byte: UInt8 = 0
        while !text.hasSuffix("\n"), read(ready[0], &byte, 1) == 1 { text.append(Character(UnicodeScalar(byte))) }
        guard let number = Int(text.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            kill(pid, SIGKILL)
            waitpid(pid, nil, 0)
            throw VirtualDisplayError(reason: "Xvfb did not start (it wrote \"\(text)\")")
        }
        name = ":\(number)"
    }

    deinit { stop() }

    /// Ends the server and waits for it.
    func stop() {
        guard running else { return }
        running = false
        kill(server, SIGTERM)
        var status: Int32 = 0
        while waitpid(server, &status, 0) == -1, errno == EINTR {}
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

    /// Asks `window` to close as a window manager's close button does: a WM_DELETE_WINDOW client
    /// message, sent through Xlib from Debian's python3 (xdotool 3.2016 has no such command).
    func close(window: String) throws {
        let script = """
            import ctypes, sys
            x = ctypes.CDLL("libX11.so.6")
            x.XOpenDisplay.restype = ctypes.c_void_p
            x.XOpenDisplay.argtypes = [ctypes.c_char_p]
            x.XInternAtom.restype = ctypes.c_ulong
            x.XInternAtom.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int]
            class Message(ctypes.Structure):
                _fields_ = [("type", ctypes.c_int), ("serial", ctypes.c_ulong), ("send_event", ctypes.c_int),
                            ("display", ctypes.c_void_p), ("window", ctypes.c_ulong), ("message_type", ctypes.c_ulong),
                            ("format", ctypes.c_int), ("data", ctypes.c_long * 5)]
            class Event(ctypes.Union):
                _fields_ = [("message", Message), ("pad", ctypes.c_long * 24)]
            x.XSendEvent.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.c_int, ctypes.c_long, ctypes.POINTER(Event)]
            x.XSync.argtypes = [ctypes.c_void_p, ctypes.c_int]
            display = x.XOpenDisplay(None)
            if not display: sys.exit("no display")
            event = Event()
            event.message.type = 33  # ClientMessage
            event.message.window = int(sys.argv[1])
            event.message.message_type = x.XInternAtom(display, b"WM_PROTOCOLS", 0)
            event.message.format = 32
            event.message.data[0] = x.XInternAtom(display, b"WM_DELETE_WINDOW", 0)
            if not x.XSendEvent(display, event.message.window, 0, 0, ctypes.byref(event)): sys.exit("XSendEvent failed")
            x.XSync(display, 0)
            """
        try run("/usr/bin/python3", ["-c", script, window])
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
