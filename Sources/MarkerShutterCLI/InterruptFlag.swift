import Dispatch
import FileFormats
import Foundation
import MarkerShutter
import Synchronization

/// Set by Ctrl-C (SIGINT), SIGTERM or SIGHUP (the terminal went away): long work checks it, or is told through ``onInterrupt(_:)``,
/// and stops in good order. A second signal restores the terminal and exits at once (files appear
/// only by rename, so none is left half-written under its final name, and the temporary files
/// still being written are removed).
///
/// Make it before the work acquires anything (a camera, a folder): a signal that arrives while the
/// work is still being set up is then kept and acted on, instead of ending the program outright.
final class InterruptFlag: Sendable {
    private struct State {
        /// The first signal's name ("Ctrl-C", "SIGTERM"), once one arrived.
        var received: String?
        var handler: (@Sendable (String) -> Void)?
    }

    private final class Shared: Sendable {
        let state = Mutex(State())
    }

    private let shared = Shared()
    /// Kept only to keep the handlers alive; never changed after init.
    nonisolated(unsafe) private let sources: [any DispatchSourceSignal]

    init(signals: [Int32] = [SIGINT, SIGTERM, SIGHUP]) {
        let shared = shared
        sources = signals.map { number in
            signal(number, SIG_IGN)
            let names: [Int32: String] = [SIGINT: "Ctrl-C", SIGTERM: "SIGTERM", SIGHUP: "SIGHUP"]
            let name = names[number] ?? "signal \(number)"
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                let (first, handler) = shared.state.withLock { s in
                    defer { if s.received == nil { s.received = name } }
                    return (s.received == nil, s.handler)
                }
                guard first else {
                    TerminalMode.restore()
                    SafeOutput.exitRemovingStagedFiles(status: 130)
                }
                handler?(name)
            }
            source.resume()
            return source
        }
    }

    /// Whether a signal has arrived.
    var isSet: Bool { shared.state.withLock { $0.received != nil } }

    /// Calls `handler` with the signal's name on the first signal, or at once when it has arrived
    /// already.
    func onInterrupt(_ handler: @escaping @Sendable (String) -> Void) {
        let received = shared.state.withLock { s in
            s.handler = handler
            return s.received
        }
        if let received { handler(received) }
    }

    /// Stops watching; signals that arrive afterwards are ignored.
    func cancel() {
        for source in sources { source.cancel() }
    }
}
