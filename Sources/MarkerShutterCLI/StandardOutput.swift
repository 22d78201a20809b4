import FileFormats
import Foundation
import MarkerShutter
import Synchronization

/// Standard output as the commands print to it, written at once with each write checked, so that
/// output that cannot be written (`> /dev/full`, a closed standard output) ends in a message on
/// standard error and exit status 1, never a silent success or a trap.
enum StandardOutput {
    /// The first write that failed; nothing more is written after it.
    private static let failure = Mutex<OutputError?>(nil)

    /// Gives a closed standard input, output or error a stand-in, `/dev/null` opened read-only, so
    /// that no file the command opens later takes its number and receives what is printed; writes
    /// to the stand-in fail and are reported.
    static func reserveClosedStreams() {
        for descriptor in [STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO] where fcntl(descriptor, F_GETFD) == -1 {
            // `open` returns the lowest free number, which is this one: the ones below are open.
            _ = open("/dev/null", O_RDONLY | O_CLOEXEC)
        }
    }

    /// Writes `text` and a newline, unless an earlier write failed.
    static func line(_ text: String) {
        failure.withLock { failure in
            guard failure == nil else { return }
            do throws(OutputError) {
                try SafeOutput.writeAll(Array((text + "\n").utf8), to: STDOUT_FILENO, path: "standard output")
            } catch {
                failure = error
            }
        }
    }

    /// Checks that every line reached standard output.
    ///
    /// The commands print with ``line(_:)`` only, never `print`: flushing the C library's streams
    /// would wait for the lock of standard input, which `live` holds while it waits for a command.
    ///
    /// - Throws: `RuntimeError` naming the write that failed.
    static func check() throws {
        if let failure = failure.withLock({ $0 }) { throw RuntimeError("\(failure)") }
    }
}

/// Diagnostics on standard error with their control characters escaped, line breaks kept (see
/// ``FileNameText/terminalSafe(_:)``): for messages that name folders or files from a list or a
/// folder. The console's own status line, which moves the cursor on purpose, writes directly.
enum StandardError {
    static func write(_ text: String) {
        FileHandle.standardError.write(FileNameText.terminalSafe(text))
    }
}
