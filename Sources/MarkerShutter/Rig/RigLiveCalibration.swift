import Dispatch
import FileFormats
import Foundation
package import Calibration
package import MarkerDetection
import Synchronization

/// `live --camera ... --calibrate`: the rig's sets solved in the background as they are saved, and
/// the rig's files written at the end, as `calibrate` of the rig picture folder solves and writes them.
///
/// After each set saved, once there are as many sets as the model needs views, the rig picture
/// folder is read (its sidecars' stored detections: nothing is detected again) and solved with
/// ``RigCalibration`` on a queue of its own, so that frames and detection never wait. At most one
/// solve runs; sets saved meanwhile are solved together when it ends.
public final class RigLiveCalibration: Sendable {
    /// What to solve and where the files go.
    package struct Configuration: Sendable {
        /// The cameras' names, the reference first (the order of `--camera`).
        package var cameras: [String]
        /// The rig picture folder the sets are saved into (`PICTURES/NAME/STEM.png`).
        package var pictures: String
        /// The folder the rig's files go to; never inside ``pictures``.
        package var folder: String
        /// The lens model of every camera.
        package var model: CameraModel = .pinhole
        /// Whether files already in ``folder`` may be replaced (`--force`).
        package var replacing = false

        /// A configuration solving the sets in `pictures` of `cameras` into `folder`.
        package init(cameras: [String], pictures: String, folder: String) {
            self.cameras = cameras
            self.pictures = pictures
            self.folder = folder
        }
    }

    /// One solve's result.
    public struct Update: Sendable, CustomStringConvertible {
        /// The rig calibration and what is said about it.
        package let report: RigReport
        /// The pictures it was solved from (the rectified pairs are made from them).
        package let pictures: RigPictureSet

        /// `rig calibration: 9 sets, RMS 0.196 px; right from left: baseline 0.1203 ± 0.0004`.
        public var description: String {
            let result = report.result
            let placed = result.cameras.dropFirst().map { camera in
                "\(camera.name) from \(result.cameras[0].name): baseline "
                    + String(format: "%.5g ± %.2g", camera.extrinsics.baseline.value, camera.extrinsics.baseline.interval95)
            }
            return "rig calibration: \(result.sets.count) set\(result.sets.count == 1 ? "" : "s"), RMS "
                + String(format: "%.3f px", result.rms) + "; " + placed.joined(separator: ", ")
        }
    }

    private struct State {
        /// Sets saved so far.
        var saved = 0
        /// Whether a solve is queued or running.
        var solving = false
        /// The sets the newest finished solve saw, and its outcome.
        var latest: (sets: Int, outcome: Result<Update, CalibrationError>)?
    }

    /// The configuration.
    package let configuration: Configuration
    private let pattern: Pattern
    private let state = Mutex(State())
    private let queue = DispatchQueue(label: "marker-shutter rig calibration")
    private let onOutcome: @Sendable (Result<Update, CalibrationError>) -> Void

    /// A solver of the sets of `pattern` that `configuration` names; `onOutcome` is told every
    /// background solve's outcome, on the solver's queue.
    ///
    /// - Throws: ``CalibrationError/patternWithoutLayout(_:)`` for loose markers;
    ///   ``CalibrationError/output(_:)`` for a destination inside the picture folder, or one with
    ///   files in it when not ``Configuration/replacing``.
    package init(configuration: Configuration, pattern: Pattern,
                onOutcome: @escaping @Sendable (Result<Update, CalibrationError>) -> Void) throws(CalibrationError) {
        _ = try TargetLayout(pattern)
        do throws(OutputError) {
            try SafeOutput.Folder.check(path: configuration.folder, input: configuration.pictures, replacing: configuration.replacing)
        } catch {
            throw .output(error)
        }
        self.configuration = configuration
        self.pattern = pattern
        self.onOutcome = onOutcome
    }

    /// Says that a set was saved; starts a solve when there are enough sets and none is running.
    package func setSaved() {
        state.withLock { s in
            s.saved += 1
            guard s.saved >= configuration.model.minimumViews, !s.solving else { return }
            s.solving = true
            queue.async { [self] in solveWhileNewer() }
        }
    }

    /// Solves the sets there are, and again while sets were saved during the solve.
    private func solveWhileNewer() {
        var sets = state.withLock { $0.saved }
        while true {
            let outcome = solve()
            onOutcome(outcome)
            let newer = state.withLock { s -> Int? in
                s.latest = (sets, outcome)
                guard s.saved > sets else {
                    s.solving = false
                    return nil
                }
                return s.saved
            }
            guard let newer else { return }
            sets = newer
        }
    }

    private func solve() -> Result<Update, CalibrationError> {
        Result { () throws(CalibrationError) -> Update in
            let cameras = configuration.cameras.map { ($0, (configuration.pictures as NSString).appendingPathComponent($0)) }
            let pictures = try RigPictureSet(cameras: cameras, pattern: pattern)
            let result = try RigCalibration.calibrate(pictures.cameras(models: [:], model: configuration.model))
            return Update(report: RigReport(result: result, pattern: pictures.pattern.description), pictures: pictures)
        }
    }

    /// Waits for the solve in progress and returns the outcome for every set saved (solving once
    /// more, here, when the last solve saw fewer; with fewer sets than the model needs views,
    /// ``CalibrationError/tooFewViews(usable:needed:model:rejected:)``). Call it once no more sets come.
    package func finish() -> Result<Update, CalibrationError> {
        queue.sync {}
        let (saved, latest) = state.withLock { ($0.saved, $0.latest) }
        if let latest, latest.sets == saved { return latest.outcome }
        let model = configuration.model
        guard saved >= model.minimumViews else {
            return .failure(.tooFewViews(usable: saved, needed: model.minimumViews, model: model, rejected: []))
        }
        return solve()
    }

    /// Writes the files of `update`, with the rectified pairs, into the configured folder, all
    /// together or none (``CalibrationJob/writeRig(_:rectifying:)``, as `calibrate` writes them).
    ///
    /// - Returns: The paths written.
    package func write(_ update: Update) throws(CalibrationError) -> [String] {
        try CalibrationJob(into: configuration.folder, input: configuration.pictures).writeRig(update.report, rectifying: update.pictures)
    }
}
