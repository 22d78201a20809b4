import Foundation
import MarkerShutter
import Synchronization

/// A progress bar on standard error, drawn only when standard error is a terminal and redrawn at
/// most ten times a second.
final class ProgressBar: Sendable {
    private struct State {
        var done = 0
        var lastDraw: ContinuousClock.Instant?
    }

    private let total: Int
    private let enabled: Bool
    private let start = ContinuousClock.now
    private let state = Mutex(State())

    init(total: Int) {
        self.total = total
        enabled = isatty(STDERR_FILENO) != 0
    }

    func advance() {
        guard enabled else { return }
        let line = state.withLock { s -> String? in
            s.done += 1
            let now = ContinuousClock.now
            if let last = s.lastDraw, now - last < .milliseconds(100), s.done < total { return nil }
            s.lastDraw = now
            return render(done: s.done, now: now)
        }
        if let line { FileHandle.standardError.write("\r" + line + "\u{1B}[K") }
    }

    func finish() {
        guard enabled else { return }
        FileHandle.standardError.write("\r\u{1B}[K")
    }

    private func render(done: Int, now: ContinuousClock.Instant) -> String {
        let width = 30
        let filled = total == 0 ? width : done * width / total
        let elapsed = now - start
        let seconds = elapsed.inSeconds
        let rate = seconds > 0 ? Double(done) / seconds : 0
        return "[" + String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled) + "] "
            + "\(done)/\(total) frames" + String(format: ", %.1f/s", rate)
    }
}
