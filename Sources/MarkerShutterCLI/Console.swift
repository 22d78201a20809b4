import Foundation
import Synchronization

/// Standard error as `live` uses it: a status line kept at the bottom and redrawn in place when
/// standard error is a terminal, with messages printed above it. Without a terminal, the status
/// line is not drawn (messages and state changes are printed as lines instead).
final class Console: Sendable {
    /// Whether standard error is a terminal.
    let isTerminal: Bool
    private let status = Mutex("")

    init() {
        isTerminal = isatty(STDERR_FILENO) != 0
    }

    /// Replaces the status line.
    func setStatus(_ line: String) {
        guard isTerminal else { return }
        status.withLock { current in
            current = line
            FileHandle.standardError.write("\r\(line)\u{1B}[K")
        }
    }

    /// Prints a message on a line of its own, keeping the status line below it.
    func message(_ text: String) {
        status.withLock { current in
            if isTerminal {
                FileHandle.standardError.write("\r\u{1B}[K\(text)\n\(current)")
            } else {
                FileHandle.standardError.write(text + "\n")
            }
        }
    }

    /// Prints a result on standard output, keeping the status line intact.
    func result(_ text: String) {
        status.withLock { current in
            if isTerminal { FileHandle.standardError.write("\r\u{1B}[K") }
            StandardOutput.line(text)
            if isTerminal { FileHandle.standardError.write(current) }
        }
    }

    /// Clears the status line (before the final summary).
    func clearStatus() {
        guard isTerminal else { return }
        status.withLock { current in
            current = ""
            FileHandle.standardError.write("\r\u{1B}[K")
        }
    }
}
