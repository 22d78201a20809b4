import Foundation
import Synchronization

/// A recorded folder as a ``FrameSource``: its frames delivered at their recorded pace (on the
/// continuous clock, from the first frame), each frame that cannot be read delivered as
/// ``SourceItem/missing(_:)`` at its time, so that the hold runs out over a hole in the recording
/// as it would have live. A replay never stalls.
package final class ReplaySource: FrameSource {
    /// The frames and their timestamps.
    package let folder: FrameFolder
    package var name: String { folder.path }
    package var banner: String { "replaying \(folder.path): \(folder.frames.count) frames, \(folder.timing)" }
    package var frameInterval: Duration? { nil }
    package var mayStall: Bool { false }
    private let task = Mutex<Task<Void, Never>?>(nil)
    private let stopped = Mutex(false)

    /// A replay of `folder`.
    package init(_ folder: FrameFolder) {
        self.folder = folder
    }

    /// Opens the folder at `path`, with `framesPerSecond` for a folder without a manifest.
    ///
    /// - Throws: ``SourceError/Kind/unavailable`` naming what is wrong with the folder.
    package convenience init(path: String, framesPerSecond: Double) throws(SourceError) {
        do {
            self.init(try FrameFolder(path: path, framesPerSecond: framesPerSecond))
        } catch {
            throw SourceError(.unavailable, "\(error)")
        }
    }

    package func start(notify: @escaping @Sendable (SourceNotice) -> Void) -> AsyncThrowingStream<SourceItem, any Error> {
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: SourceItem.self, throwing: (any Error).self)
        let folder = folder
        let started = Task {
            let clock = ContinuousClock()
            let start = clock.now
            guard let origin = folder.frames.first?.time else {
                continuation.finish()
                return
            }
            for frame in folder.frames {
                try? await clock.sleep(until: start + origin.duration(to: frame.time))
                if Task.isCancelled { break }
                do {
                    let pixels = try frame.readPixels()
                    continuation.yield(.frame(SourceFrame(pixels: pixels, time: frame.time, sequence: frame.sequence, file: frame.file)
                        .with(controls: frame.controls)))
                } catch {
                    continuation.yield(.missing(MissingFrame(time: frame.time, file: frame.file, reason: "\(error)")))
                }
            }
            continuation.finish()
        }
        task.withLock { $0 = started }
        if stopped.withLock({ $0 }) { started.cancel() }
        return stream
    }

    package func stop() {
        stopped.withLock { $0 = true }
        task.withLock { $0 }?.cancel()
    }
}
