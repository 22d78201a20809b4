import FileFormats
import Foundation
public import MarkerDetection
import Synchronization

/// One calibration from pictures to files, as `marker-shutter calibrate` makes it: reads a folder of
/// pictures (``PictureSet``), solves (``PictureSet/calibrate(_:)``), describes the result
/// (``CalibrationReport``), writes its files, and with `undistort` every picture without distortion,
/// into a staged ``SafeOutput/Folder``, and moves them into place together.
///
/// ``write(_:undistorting:)`` is the last part on its own, for a result solved elsewhere (`live
/// --calibrate` solves as pictures come).
///
/// A signal handler may ``stop()`` it from another thread: the staged folder is made under the lock
/// ``stop()`` takes, so that a stop either finds it (and removes it, waiting for a write or a move
/// under way) or comes before it is made (and it is then never made).
public final class CalibrationJob: Sendable {
    /// What ``run(pictures:pattern:model:cameraName:undistort:replacing:onRead:)`` made.
    public struct Written: Sendable {
        /// The calibration and what is said about it (``CalibrationReport/summary`` is the summary).
        public let report: CalibrationReport
        /// The paths written, in ``CalibrationReport/fileNames`` order, then `undistorted/` when
        /// the pictures were undistorted (each the destination joined with the name).
        public let paths: [String]
    }

    struct State {
        var output: SafeOutput.Folder?
        var stopped = false
    }

    /// The folder the files go to.
    public let destination: String
    /// The folder never written into (the pictures' folder), or `nil` when there is none.
    public let input: String?
    let state = Mutex(State())
    /// Called once every file is written into the staged folder, just before the move. Replaced by
    /// tests to stop a job at that point.
    let willCommit: @Sendable () -> Void

    /// A job writing into `destination`.
    ///
    /// - Parameters:
    ///   - destination: The folder the files go to; made if missing.
    ///   - input: The folder the files must never go into (the pictures' folder); `nil` when the
    ///     views come from no folder.
    public convenience init(into destination: String, input: String?) {
        self.init(into: destination, input: input, willCommit: {})
    }

    /// A job that calls `willCommit` once every file is written into the staged folder, just before
    /// the move (for tests).
    package init(into destination: String, input: String?, willCommit: @escaping @Sendable () -> Void) {
        self.destination = destination
        self.input = input
        self.willCommit = willCommit
    }

    /// Reads, solves, describes and writes: `calibrate`'s whole work.
    ///
    /// Checks `destination` before anything is read; when anything fails, nothing is written and
    /// the staged folder is removed.
    ///
    /// - Parameters:
    ///   - folder: The folder of pictures (name it as this job's `input`, so that the files never
    ///     go into it).
    ///   - pattern: The target, for a folder without sidecars (see ``PictureSet/init(folder:pattern:)``).
    ///   - model: The lens model.
    ///   - cameraName: The camera's name in camera_info.yaml.
    ///   - undistort: Whether every picture is also written without distortion into `undistorted/`.
    ///   - replacing: Whether a `destination` that has files may have them replaced.
    ///   - crossValidate: Whether the views are also solved in two halves (``CrossValidation``);
    ///     `nil`: when the final solve has ``CrossValidation/defaultMinimumViews`` views or more.
    ///   - onRead: Told the pictures once they are read, before the solve.
    /// - Returns: The report and the paths written.
    /// - Throws: ``CalibrationError/output(_:)`` with ``OutputError/folderNotEmpty(_:)`` for a
    ///   `destination` with files when not `replacing`, or ``OutputError/notWritten(path:reason:)``
    ///   for a `destination` refused, a file not written or a job stopped; what
    ///   ``PictureSet/init(folder:pattern:)``, ``PictureSet/calibrate(_:)`` and
    ///   ``write(_:undistorting:)`` throw.
    public func run(
        pictures folder: String, pattern: Pattern?, model: CameraModel, cameraName: String = "camera",
        undistort: Bool = false, replacing: Bool = false, crossValidate: Bool? = nil,
        onRead: (PictureSet) -> Void = { _ in }
    ) throws(CalibrationError) -> Written {
        do {
            try SafeOutput.Folder.check(path: destination, input: input, replacing: replacing)
        } catch {
            throw .output(error)
        }
        let pictures = try PictureSet(folder: folder, pattern: pattern)
        onRead(pictures)
        var report = CalibrationReport(result: try pictures.calibrate(model), pattern: pictures.pattern.description,
                                       cameraName: cameraName)
        report.crossValidate(crossValidate)
        let paths = try write(report, undistorting: undistort ? pictures : nil)
        return Written(report: report, paths: paths)
    }

    /// Writes the files of `report` (``CalibrationReport/write(into:)``) and, when `pictures` are
    /// given, every one of them without distortion (``CalibrationReport/writeUndistorted(_:into:)``),
    /// into a staged folder, then moves them into `destination` together. When anything fails,
    /// nothing is moved and the staged folder is removed. A job writes once.
    ///
    /// - Returns: The paths written: `destination` joined with each of ``CalibrationReport/fileNames``,
    ///   then with `undistorted/` when `pictures` were given.
    /// - Throws: ``CalibrationError/output(_:)`` when the folder is refused, a file cannot be written
    ///   or moved, or the job was stopped (``OutputError/notWritten(path:reason:)``, reason
    ///   `stopped by a signal` when it was stopped before the folder was made); what
    ///   ``CalibrationReport/write(into:)`` and ``CalibrationReport/writeUndistorted(_:into:)`` throw.
    public func write(_ report: CalibrationReport, undistorting pictures: PictureSet? = nil) throws(CalibrationError) -> [String] {
        try staged { output throws(CalibrationError) in
            try report.write(into: output)
            guard let pictures else { return report.writtenFileNames }
            try report.writeUndistorted(pictures, into: output)
            return report.writtenFileNames + ["undistorted/"]
        }
    }

    /// Makes the staged folder, lets `fill` write into it (it answers the names it wrote), then
    /// moves them into `destination` together; when anything fails, nothing is moved and the
    /// staged folder is removed. Every write of the job goes through here.
    ///
    /// - Returns: `destination` joined with each name `fill` answered.
    func staged(_ fill: (SafeOutput.Folder) throws(CalibrationError) -> [String]) throws(CalibrationError) -> [String] {
        do throws(CalibrationError) {
            let output = try open()
            let names = try fill(output)
            willCommit()
            do {
                try output.commit()
            } catch {
                throw .output(error)
            }
            return names.map { (destination as NSString).appendingPathComponent($0) }
        } catch {
            // The process may end before the folder is released: remove the staged folder now
            // (old files a failed replacement could not put back stay where the error says).
            state.withLock { $0.output }?.abandon()
            throw error
        }
    }

    /// Makes the staged folder, unless the job was stopped first.
    func open() throws(CalibrationError) -> SafeOutput.Folder {
        do {
            return try state.withLock { (state: inout State) throws(OutputError) -> SafeOutput.Folder in
                guard !state.stopped else { throw .notWritten(path: destination, reason: "stopped by a signal") }
                let output = try SafeOutput.Folder(path: destination, input: input)
                state.output = output
                return output
            }
        } catch {
            throw .output(error)
        }
    }

    /// Whether ``stop()`` was called.
    public var isStopped: Bool { state.withLock { $0.stopped } }

    /// Stops the job: removes its staged folder (waiting for a write or a move under way), and makes
    /// any later write fail. The files already moved into place stay.
    ///
    /// - Returns: Whether the files were already moved into place.
    @discardableResult
    public func stop() -> Bool {
        let output = state.withLock { state in
            state.stopped = true
            return state.output
        }
        guard let output else { return false }
        return !output.abandon()
    }
}
