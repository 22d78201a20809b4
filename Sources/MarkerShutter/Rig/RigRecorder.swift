import Dispatch
import FileFormats
import Foundation
import MarkerDetection
import Pixels
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Records a rig's frames as the rig shutter saw them, so that `live --replay` reproduces its timeline:
/// each camera's frames in `DIR/<camera>/frame_000000.jpg`, ... (numbered per camera, as a single
/// camera's recording numbers them), one `DIR/manifest.jsonl` for the rig whose every line names its
/// camera, `DIR/cameras.json` naming the cameras in the rig's order with their frame rates, and
/// `DIR/events.jsonl`, everything the rig machine was told in order: each frame's arrival, each
/// frame taken after detection, time moving on with no frame, a camera lost. Frames arrive before
/// they are detected, while other cameras' frames are detected, and a camera's stall is judged on
/// arrivals and on the clock: only those events in their order let a replay reach the same decisions.
///
/// A line is queued when the rig machine has taken the frame after its detection, so the manifest
/// is in the order the machine saw the frames; its `t` is the frame's kernel timestamp, in seconds
/// on the clock all the rig's cameras share (not seconds since the recording began, as for one
/// camera: the machine's decisions depend on those timestamps exactly, to the microsecond). Frames
/// the rig skipped while detection was busy never reached the machine and are not recorded.
///
/// Frames are encoded and written on a queue of their own; a line is added once its file is
/// complete. When `backlogLimit` frames wait, new frames are not recorded (and counted); when a
/// write fails, recording stops and says why.
final class RigRecorder: Sendable {
    private struct State {
        var summary = FrameRecorder.Summary()
        var backlog = 0
        var nextNumber: [Int]
        /// Each camera's controls on its last line queued: a line names its own only when they differ.
        var controls: [[String: Int64]]
    }

    /// The folder.
    let folder: String
    /// The cameras' names, in the rig's order.
    let cameras: [String]
    let backlogLimit: Int
    private let queue = DispatchQueue(label: "marker-shutter rig recorder")
    private let state: Mutex<State>
    private let manifest: Int32
    private let events: Int32

    /// Prepares an empty (or new) folder: a folder per camera, the rig's description and an empty manifest.
    ///
    /// - Parameters:
    ///   - folder: Where to record; must be empty or not exist yet.
    ///   - cameras: The rig's cameras, in its order.
    ///   - backlogLimit: How many frames may wait to be written.
    /// - Throws: ``OutputError`` when the folder cannot be made, written, or holds files already.
    init(folder: String, cameras: [RigCamera], backlogLimit: Int = 180) throws(OutputError) {
        try SafeOutput.prepareEmptyFolder(folder)
        for camera in cameras { try SafeOutput.prepareFolder((folder as NSString).appendingPathComponent(camera.name)) }
        let description = CamerasFile(cameras: cameras.map { .init(name: $0.name, frameInterval: $0.frameInterval) })
        try SafeOutput.write(Array(description.text.utf8), to: (folder as NSString).appendingPathComponent(CamerasFile.fileName))
        manifest = try SafeOutput.openInPlace((folder as NSString).appendingPathComponent(FrameManifest.fileName), appending: true)
        do {
            events = try SafeOutput.openInPlace((folder as NSString).appendingPathComponent(EventsLine.fileName), appending: true)
        } catch {
            close(manifest)
            throw error
        }
        self.folder = folder
        self.cameras = cameras.map(\.name)
        self.backlogLimit = backlogLimit
        state = Mutex(State(nextNumber: Array(repeating: 0, count: cameras.count),
                            controls: Array(repeating: [:], count: cameras.count)))
    }

    deinit {
        close(manifest)
        close(events)
    }

    /// Notes that camera `camera`'s frame arrived at the machine (before detection), with `dropped`
    /// frames lost before it (written only when there were). Never blocks;
    /// call it, ``noteAdvance(to:arrivalsOnly:)``, ``noteLost(camera:)`` and ``record(camera:pixels:time:sequence:controls:)``
    /// in the order the machine is told.
    func noteArrival(camera: Int, at time: FrameTime, dropped: Int = 0) {
        note(.arrived(camera: cameras[camera], t: time.seconds, dropped: dropped))
    }

    /// Notes that the machine's time moved on with no frame (for arrivals only while frames wait for detection).
    func noteAdvance(to time: FrameTime, arrivalsOnly: Bool) {
        note(arrivalsOnly ? .advanceArrivals(t: time.seconds) : .advance(t: time.seconds))
    }

    /// Notes that camera `camera` is gone.
    func noteLost(camera: Int) {
        note(.lost(camera: cameras[camera]))
    }

    private func note(_ event: EventsLine) {
        let line = event.text
        guard state.withLock({ $0.summary.failure == nil }) else { return }
        queue.async { [self] in
            guard state.withLock({ $0.summary.failure == nil }) else { return }
            do throws(OutputError) {
                try SafeOutput.writeAll(Array(line.utf8), to: events, path: (folder as NSString).appendingPathComponent(EventsLine.fileName))
            } catch {
                state.withLock { $0.summary.failure = error }
            }
        }
    }

    /// Queues camera `camera`'s frame, as the machine took it after detection, with the camera
    /// controls set for it (on its camera's first line, and again where they change). Never blocks.
    func record(camera: Int, pixels: PixelBuffer, time: FrameTime, sequence: UInt64?, controls: [String: Int64] = [:]) {
        let queued = state.withLock { s -> (number: Int, controls: [String: Int64]?)? in
            guard s.summary.admit(into: &s.backlog, limit: backlogLimit) else { return nil }
            defer {
                s.nextNumber[camera] += 1
                s.controls[camera] = controls
            }
            return (s.nextNumber[camera], controls == s.controls[camera] ? nil : controls)
        }
        guard let queued else { return }
        queue.async { [self] in
            write(camera: camera, pixels: pixels, time: time, sequence: sequence, controls: queued.controls, number: queued.number)
            state.withLock { $0.backlog -= 1 }
        }
    }

    /// Waits for every queued frame to be written and flushes the manifest.
    func finish() -> FrameRecorder.Summary {
        queue.sync {
            _ = fsync(manifest)
            _ = fsync(events)
        }
        return state.withLock { $0.summary }
    }

    /// Removes what the recorder made before any frame: its description, its empty manifest and
    /// event list, and the cameras' empty folders (for a session that could not start). The folder
    /// itself stays; whoever made it removes it.
    func discard() {
        queue.sync {}
        for name in [FrameManifest.fileName, EventsLine.fileName] {
            let path = (folder as NSString).appendingPathComponent(name)
            if let size = try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int, size == 0 { unlink(path) }
        }
        unlink((folder as NSString).appendingPathComponent(CamerasFile.fileName))
        for camera in cameras { _ = rmdir((folder as NSString).appendingPathComponent(camera)) }
    }

    private func write(camera: Int, pixels: PixelBuffer, time: FrameTime, sequence: UInt64?, controls: [String: Int64]?, number: Int) {
        guard state.withLock({ $0.summary.failure == nil }) else { return }
        let name = String(format: "frame_%06d.jpg", number)
        let path = ((folder as NSString).appendingPathComponent(cameras[camera]) as NSString).appendingPathComponent(name)
        let manifestPath = (folder as NSString).appendingPathComponent(FrameManifest.fileName)
        do {
            let bytes = try ImageFile.encode(pixels, as: .jpeg(quality: 95))
            try SafeOutput.write(bytes, to: path)
            let line = Array(ManifestLine(camera: cameras[camera], file: name, t: time.seconds, sequence: sequence, controls: controls).text.utf8)
            let end = lseek(manifest, 0, SEEK_END)
            do {
                try SafeOutput.writeAll(line, to: manifest, path: manifestPath)
            } catch {
                if end >= 0 { _ = ftruncate(manifest, end) }
                throw error
            }
            state.withLock { $0.summary.written += 1 }
            let observed = EventsLine.observed(camera: cameras[camera], file: name).text
            try SafeOutput.writeAll(Array(observed.utf8), to: events, path: (folder as NSString).appendingPathComponent(EventsLine.fileName))
        } catch let error as OutputError {
            state.withLock { $0.summary.failure = error }
        } catch {
            state.withLock { $0.summary.failure = OutputError(path: path, call: "encode", errno: EIO) }
        }
    }
}
