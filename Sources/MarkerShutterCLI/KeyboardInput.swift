import Foundation
import MarkerShutter
import Synchronization

/// Commands typed while `live` runs: on a terminal, single keys (Space or Enter takes a picture,
/// `q` quits) read without waiting for Enter; otherwise lines on standard input (`capture`, `quit`).
/// Both become the session's own ``LiveSession/Command``s.
final class KeyboardInput: Sendable {
    /// Whether keys are read one by one from a terminal.
    let isTerminal: Bool

    init() {
        isTerminal = isatty(STDIN_FILENO) != 0
    }

    /// The command a key pressed on a terminal stands for, if any.
    static func command(forKey byte: UInt8) -> LiveSession.Command? {
        switch byte {
        case UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\r"): .capture
        case UInt8(ascii: "q"), UInt8(ascii: "Q"): .stop(reason: "quit")
        default: nil
        }
    }

    /// What a line read from standard input asks: a command, nothing (an empty line), or a line
    /// that is no command (returned as `.failure` with the text, lowercased and trimmed).
    static func command(forLine line: String) -> Result<LiveSession.Command, UnknownCommand>? {
        switch line.trimmingCharacters(in: .whitespaces).lowercased() {
        case "capture", "c": .success(.capture)
        case "quit", "q": .success(.stop(reason: "quit"))
        case "": nil
        case let other: .failure(UnknownCommand(text: other))
        }
    }

    /// A line that is no command.
    struct UnknownCommand: Error {
        let text: String
    }

    /// Starts reading on a thread of its own: each command goes to `send`, each line that is no
    /// command to `unknown`. End of input stops reading (the session goes on until `q`, `quit` or Ctrl-C).
    func start(send: @escaping @Sendable (LiveSession.Command) -> Void, unknown: @escaping @Sendable (String) -> Void) {
        if isTerminal { TerminalMode.enterRaw() }
        let terminal = isTerminal
        let thread = Thread {
            if terminal {
                var byte: UInt8 = 0
                while read(STDIN_FILENO, &byte, 1) == 1 {
                    if let command = Self.command(forKey: byte) { send(command) }
                }
            } else {
                while let line = readLine() {
                    switch Self.command(forLine: line) {
                    case .success(let command): send(command)
                    case .failure(let error): unknown(error.text)
                    case nil: continue
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
