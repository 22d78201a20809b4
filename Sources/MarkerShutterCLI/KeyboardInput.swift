import Foundation
import Synchronization

/// Commands typed while `live` runs: on a terminal, single keys (Space or Enter takes a picture,
/// `q` quits) read without waiting for Enter; otherwise lines on standard input (`capture`, `quit`).
final class KeyboardInput: Sendable {
    enum Command: Sendable {
        case capture
        case quit
        case unknown(String)
    }

    /// Whether keys are read one by one from a terminal.
    let isTerminal: Bool

    init() {
        isTerminal = isatty(STDIN_FILENO) != 0
    }

    /// Starts reading on a thread of its own; `handle` is called for each command. End of input
    /// stops reading (the session goes on until `q`, `quit` or Ctrl-C).
    func start(_ handle: @escaping @Sendable (Command) -> Void) {
        if isTerminal { TerminalMode.enterRaw() }
        let terminal = isTerminal
        let thread = Thread {
            if terminal {
                var byte: UInt8 = 0
                while read(STDIN_FILENO, &byte, 1) == 1 {
                    switch byte {
                    case UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\r"): handle(.capture)
                    case UInt8(ascii: "q"), UInt8(ascii: "Q"): handle(.quit)
                    default: break
                    }
                }
            } else {
                while let line = readLine() {
                    switch line.trimmingCharacters(in: .whitespaces).lowercased() {
                    case "capture", "c": handle(.capture)
                    case "quit", "q": handle(.quit)
                    case "": continue
                    case let other: handle(.unknown(other))
                    }
                }
            }
        }
        thread.name = "marker-shutter keys"
        thread.start()
    }
}

/// Puts the terminal in a mode where keys arrive at once and are not echoed, and puts it back on
/// exit, however the program exits.
enum TerminalMode {
    private static let saved = Mutex<termios?>(nil)

    static func enterRaw() {
        var original = termios()
        guard tcgetattr(STDIN_FILENO, &original) == 0 else { return }
        let first = saved.withLock { current -> Bool in
            defer { if current == nil { current = original } }
            return current == nil
        }
        var raw = original
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO)  // keep ISIG: Ctrl-C still sends SIGINT
        raw.c_cc.6 = 1  // VMIN
        raw.c_cc.5 = 0  // VTIME
        tcsetattr(STDIN_FILENO, TCSANOW, &raw)
        if first { atexit { TerminalMode.restore() } }
    }

    static func restore() {
        guard var original = saved.withLock({ $0 }) else { return }
        tcsetattr(STDIN_FILENO, TCSANOW, &original)
    }
}
