import Dispatch
package import FileFormats
import Foundation
import MarkerDetection
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Records every frame of a live session into a folder: `frame_000000.jpg`, ... and a
/// `manifest.jsonl` line for each (file, seconds since the first frame, sequence), so that
/// `marker-shutter process` can replay the session with its own timing. The camera controls set
/// (``SourceFrame/controls``) go on the line of the first frame taken with them, and again only
/// where they change.
///
/// Frames are encoded and written on a queue of their own, so recording never slows capture. A
/// frame's manifest line is added only once its file is complete, so the manifest never names a
/// missing file. When the disk cannot keep up and `backlogLimit` frames wait, new frames are not
/// recorded (and counted); when a write fails (full disk), recording stops and says why.
package final class FrameRecorder: Sendable {
    /// What a recording amounted to.
    package struct Summary: Sendable {
        /// Frames written with their manifest lines.
        package var written = 0
        /// Frames not recorded because the writer was too far behind.
        package var skipped = 0
        /// Why recording stopped early, if it did.
        package var failure: OutputError?

        /// Whether a frame may join the `backlog` of frames waiting for the writer (and then
        /// counts it in): not after a failure, and not when `limit` frames wait already (it is then
        /// counted as skipped).
        mutating func admit(into backlog: inout Int, limit: Int) -> Bool {
            guard failure == nil else { return false }
            guard backlog < limit else {
                skipped += 1
                return false
            }
            backlog += 1
            return true
        }
    }

    private struct State {
        var summary = Summary()
        var backlog = 0
        var origin: FrameTime?
        var nextNumber = 0
        /// The controls of the last frame queued: a frame's line names its own only when they differ.
        var controls: [String: Int64] = [:]
    }

    /// The folder.
    package let folder: String
    /// Frames allowed to wait for the writer.
    let backlogLimit: Int
    private let queue = DispatchQueue(label: "marker-shutter recorder")
    private let state = Mutex(State())
    private let manifest: Int32

    /// Prepares an empty (or new) folder for a recording.
    ///
    /// - Parameters:
    ///   - folder: Where to record; must be empty or not exist yet, so sessions never mix.
    ///   - backlogLimit: How many frames may wait to be written.
    /// - Throws: ``OutputError`` when the folder cannot be made, written, or holds files already.
    package init(folder: String, backlogLimit: Int = 90) throws(OutputError) {
        try SafeOutput.prepareEmptyFolder(folder)
        let path = (folder as NSString).appendingPathComponent(FrameManifest.fileName)
        manifest = try SafeOutput.openInPlace(path, appending: true)
        self.folder = folder
        self.backlogLimit = backlogLimit
    }

    deinit { close(manifest) }

    /// Queues a frame for recording. Never blocks.
    package func record(_ frame: SourceFrame) {
        let queued = state.withLock { s -> (number: Int, controls: [String: Int64]?)? in
            guard s.summary.admit(into: &s.backlog, limit: backlogLimit) else { return nil }
            if s.origin == nil { s.origin = frame.time }
            defer { s.nextNumber += 1 }
            // Frames are written in the order queued (one serial queue), so a change is written where it happens.
            defer { s.controls = frame.controls }
            return (s.nextNumber, frame.controls == s.controls ? nil : frame.controls)
        }
        guard let queued else { return }
        let origin = state.withLock { $0.origin! }
        queue.async { [self] in
            write(frame, number: queued.number, seconds: origin.duration(to: frame.time), controls: queued.controls)
            state.withLock { $0.backlog -= 1 }
        }
    }

    /// Waits for every queued frame to be written and flushes the manifest.
    package func finish() -> Summary {
        queue.sync {
            _ = fsync(manifest)
        }
        return state.withLock { $0.summary }
    }

    /// What has been recorded so far.
    package var summary: Summary { state.withLock { $0.summary } }

    private func write(_ frame: SourceFrame, number: Int, seconds: Duration, controls: [String: Int64]?) {
        guard state.withLock({ $0.summary.failure == nil }) else { return }
        let name = String(format: "frame_%06d.jpg", number)
        do {
            let bytes = try ImageFile.encode(frame.pixels, as: .jpeg(quality: 95))
            try SafeOutput.write(bytes, to: (folder as NSString).appendingPathComponent(name))
            let entry = FrameManifest.Entry(file: name, t: seconds.inSeconds, sequence: frame.sequence, controls: controls)
            let line = Array(entry.text.utf8)
            try appendToManifest(line)
            state.withLock { $0.summary.written += 1 }
            if number % 30 == 29 { _ = fdatasync(manifest) }
        } catch let error as OutputError {
            state.withLock { $0.summary.failure = error }
        } catch {
            state.withLock {
                $0.summary.failure = OutputError(path: (folder as NSString).appendingPathComponent(name), call: "encode", errno: EIO)
            }
        }
    }

    /// Appends one line; if the write fails part way (a full disk), cuts the manifest back to its
    /// last complete line, so that it stays readable with every frame it names.
    private func appendToManifest(_ line: [UInt8]) throws(OutputError) {
        let end = lseek(manifest, 0, SEEK_END)
        do {
            try SafeOutput.writeAll(line, to: manifest, path: (folder as NSString).appendingPathComponent(FrameManifest.fileName))
        } catch {
            if end >= 0 { _ = ftruncate(manifest, end) }
            throw error
        }
    }
}
