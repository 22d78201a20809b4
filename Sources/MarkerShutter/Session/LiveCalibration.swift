import Dispatch
import Foundation
package import Calibration
import MarkerDetection
package import Pixels
import Synchronization

/// `live --calibrate`: the pictures of a session solved in the background as they are taken, and
/// the calibration files written at the end.
///
/// After each picture, once there are as many as the model needs, the session's pictures are solved
/// with ``CameraCalibration`` (as `calibrate` solves them) on a queue of their own, so that frames and
/// detection never wait. At most one solve runs; pictures taken meanwhile are solved together when
/// it ends (the latest pictures win, solves in between are skipped).
public enum LiveCalibration {
    /// What to solve and where the files go.
    package struct Configuration: Sendable {
        /// The lens model.
        package var model: CameraModel = .pinhole
        /// The folder the files go to (`calibrate`'s six files).
        package var folder: String
        /// Whether files already in `folder` may be replaced (`--force`); otherwise a folder with
        /// files in it is refused before the session starts.
        package var replacing = false
        /// A good result's RMS reprojection error is under this many pixels (a limit of the
        /// verdict, ``CalibrationVerdict/Thresholds/rms``, beside its standard ones).
        package var goodRMS = 0.5
        /// ... and the 95% interval of each focal length is under this share of its value.
        package var goodFocalInterval = 0.01
        /// The camera's name in camera_info.yaml.
        package var cameraName = "camera"
        /// A folder the files must never go into (the replayed one).
        package var input: String?
        /// Whether each solve draws its projection-uncertainty map (``Update/uncertaintyMap``), for
        /// a browser view or a window that shows it; off, no solve draws what nobody sees.
        package var drawsUncertaintyMap = false

        /// A configuration writing into `folder`, with the default model and thresholds.
        package init(folder: String) {
            self.folder = folder
        }

        /// The limits the verdict judges a live result by: `calibrate`'s, with ``goodRMS`` and
        /// ``goodFocalInterval``.
        package var thresholds: CalibrationVerdict.Thresholds {
            CalibrationVerdict.Thresholds(rms: goodRMS, focalInterval: goodFocalInterval)
        }

        /// The verdict's limits in words: `corners over 50% of the image, projection uncertainty
        /// under 1 px over 90% of it, consistent halves, RMS under 0.5 px, focal lengths within 1%`.
        package var goodText: String { thresholds.description }
    }

    /// One solve's result.
    public struct Update: Sendable, CustomStringConvertible {
        /// The calibration.
        package let result: CalibrationResult
        /// The pictures given to the solve (some may have been set aside or dropped).
        package let pictures: Int
        /// The verdict (``CalibrationVerdict``) by the configuration's thresholds, the one
        /// `calibrate` gives.
        package let verdict: CalibrationVerdict
        /// Where to capture more by the projection-uncertainty map (``CalibrationAdvice/sentence(for:)``),
        /// when it is weak somewhere.
        package var uncertaintyAdvice: String?
        /// What to capture next (``CalibrationReport/advice``, the sentences calibration.json
        /// holds); empty when nothing is weak.
        package var advice: [String] = []
        /// The projection-uncertainty map drawn as uncertainty.png draws it
        /// (``CalibrationPictures/uncertainty(_:)``), once per solve; `nil` when it could not be drawn
        /// or ``Configuration/drawsUncertaintyMap`` is off.
        package var uncertaintyMap: PixelBuffer?

        /// Whether the verdict is good.
        package var isGood: Bool { verdict.isGood }
        /// The views in the final solve.
        package var views: Int { result.run.views.count }
        /// The RMS reprojection error, in pixels.
        package var rms: Double { result.run.rms }
        /// fx, fy, cx and cy, with their 95% intervals, as the solve gives them.
        package var parameters: [CalibrationRun.Parameter] { ["fx", "fy", "cx", "cy"].compactMap(result.run.parameter) }
        /// fx and fy, with their 95% intervals.
        var focalLengths: [CalibrationRun.Parameter] { Self.focalLengths(of: result.run) }

        static func focalLengths(of run: CalibrationRun) -> [CalibrationRun.Parameter] { ["fx", "fy"].compactMap(run.parameter) }

        /// One line: `calibration: 8 views, RMS 0.214 px, fx 601.3 ± 0.42%, fy 600.8 ± 0.40%; verdict: good`.
        public var description: String {
            let focal = focalLengths.map {
                "\($0.name) " + String(format: "%.1f ± %.2f%%", $0.value, 100 * $0.interval95 / max(abs($0.value), .leastNonzeroMagnitude))
            }
            return "calibration: \(views) view\(views == 1 ? "" : "s"), RMS " + String(format: "%.3f px", rms) + ", "
                + focal.joined(separator: ", ") + "; verdict: \(verdict)"
        }
    }

    /// Solves in the background, one solve at a time, the latest pictures winning.
    final class Solver: Sendable {
        private struct State {
            var views: [CalibrationView] = []
            /// Whether a solve is queued or running.
            var solving = false
            /// The views of the newest finished solve, and its outcome.
            var latest: (views: Int, outcome: Result<Update, CalibrationError>)?
        }

        let configuration: Configuration
        let pattern: Pattern
        private let layout: TargetLayout
        private let state = Mutex(State())
        private let queue = DispatchQueue(label: "marker-shutter calibration")
        private let onOutcome: @Sendable (Result<Update, CalibrationError>) -> Void

        /// A solver for views of `pattern`; `onOutcome` is told every solve's outcome, on the solver's queue.
        ///
        /// - Throws: ``CalibrationError/patternWithoutLayout(_:)`` for loose markers.
        init(configuration: Configuration, pattern: Pattern,
             onOutcome: @escaping @Sendable (Result<Update, CalibrationError>) -> Void) throws(CalibrationError) {
            self.configuration = configuration
            self.pattern = pattern
            layout = try TargetLayout(pattern)
            self.onOutcome = onOutcome
        }

        /// Adds a picture's detection; starts a solve when there are enough views and none is running.
        func add(picture name: String, _ detection: Detection) {
            let view = layout.view(named: name, detection)
            state.withLock { s in
                s.views.append(view)
                guard s.views.count >= configuration.model.minimumViews, !s.solving else { return }
                s.solving = true
                queue.async { [self] in solveWhileNewer() }
            }
        }

        /// Solves the views there are, and again while pictures came during the solve.
        private func solveWhileNewer() {
            var views = state.withLock { $0.views }
            while true {
                let outcome = solve(views)
                onOutcome(outcome)
                let newer = state.withLock { s -> [CalibrationView]? in
                    s.latest = (views.count, outcome)
                    guard s.views.count > views.count else {
                        s.solving = false
                        return nil
                    }
                    return s.views
                }
                guard let newer else { return }
                views = newer
            }
        }

        private func solve(_ views: [CalibrationView]) -> Result<Update, CalibrationError> {
            Result { () throws(CalibrationError) -> Update in
                let result = try CameraCalibration.calibrate(views, model: configuration.model)
                var report = CalibrationReport(result: result, pattern: pattern.description)
                report.thresholds = configuration.thresholds
                report.crossValidate(nil)
                return Update(
                    result: result, pictures: views.count, verdict: report.verdict,
                    uncertaintyAdvice: report.uncertainty.flatMap(CalibrationAdvice.sentence(for:)), advice: report.advice,
                    uncertaintyMap: configuration.drawsUncertaintyMap ? try? CalibrationPictures.uncertainty(report) : nil)
            }
        }

        /// Waits for the solve in progress, and returns the outcome for every picture added (solving
        /// them once more, here, when the last solve had fewer; with fewer pictures than the model
        /// needs, the outcome is ``CalibrationError/tooFewViews(usable:needed:model:rejected:)``).
        /// Call it once no more pictures come.
        func finish() -> Result<Update, CalibrationError> {
            queue.sync {}
            let (views, latest) = state.withLock { ($0.views, $0.latest) }
            if let latest, latest.views == views.count { return latest.outcome }
            let outcome = solve(views)
            if views.count >= configuration.model.minimumViews { onOutcome(outcome) }
            return outcome
        }

        /// Writes the files of `update` into the configured folder, all together or none (with
        /// ``CalibrationJob/write(_:undistorting:)``, as `calibrate` writes them).
        ///
        /// - Returns: The paths written.
        func write(_ update: Update) throws(CalibrationError) -> [String] {
            let report = CalibrationReport(result: update.result, pattern: pattern.description, cameraName: configuration.cameraName)
            return try CalibrationJob(into: configuration.folder, input: configuration.input).write(report)
        }
    }
}
