import ArgumentParser
import BrowserView
import FileFormats
import Foundation
import FrameCapture
import MarkerDetection
import MarkerShutter
import RosBags
import SystemCalls

extension LiveCommand {
    /// A rig's arguments that cannot work, as usage errors (checked in `validate`).
    func validateRig() throws {
        guard rig.isRig else { return }
        if device != nil || replay != nil { throw ValidationError("give --camera for each camera of a rig, or --device (or --replay) for one camera, not both") }
        if calibration.calibrate, calibration.calibrationOut == nil {
            throw ValidationError("--calibrate with --camera needs --calibration-out DIR: a rig's sets fill --out, so its files go elsewhere")
        }
        if let record, URL(fileURLWithPath: record).standardizedFileURL.path == URL(fileURLWithPath: out).standardizedFileURL.path {
            throw ValidationError("--record and --out are both \(record): the recording and the sets each need their own folder")
        }
        _ = try rig.rigConfiguration(rig.cameraArguments(defaults: captureSettings, controls: cameraControls.settings),
                                     hold: detection.holdDuration)
    }

    /// What a rig's replay cannot do, as a usage error. `--calibrate` solves the replayed sets as a
    /// live rig's, into `--calibration-out`, which it needs for the same reason.
    func validateRigReplay() throws {
        let unavailable: [(Bool, String)] = [
            (record != nil, "--record"), (!rig.cameraOptions.isEmpty, "--camera-option"),
            (!(try cameraControls.settings.isEmpty), "--exposure, --focus, --control and --lock"),
        ]
        if let (_, names) = unavailable.first(where: { $0.0 }) { throw ValidationError("\(names): not available with --replay of a rig's recording") }
        if calibration.calibrate, calibration.calibrationOut == nil {
            throw ValidationError("--calibrate with --replay of a rig's recording needs --calibration-out DIR: a rig's sets fill --out, "
                + "so its files go elsewhere")
        }
    }

    /// With `--replay` of a ROS bag, the topics `--topic` chose, listed (a rig's replay options are
    /// checked first, for two topics or more); nil for a camera or a folder.
    ///
    /// - Throws: A usage error for `--topic` with a folder, or `RuntimeError` with the bag's error.
    func openBag() throws -> BagInput? {
        guard let replay else { return nil }
        guard BagInput.isBag(replay) else {
            if !topics.isEmpty {
                throw ValidationError("--topic goes with a ROS bag (.bag, .mcap or a rosbag2 folder); \(replay) is a folder of frames")
            }
            return nil
        }
        // A rig's options are checked before a large bag is listed.
        if topics.count >= 2 { try validateRigReplay() }
        return try BagInput(path: replay, topics: topics)
    }

    /// The cameras `live` watches, as the options give them.
    struct CameraSetup {
        /// One camera, or a rig's (empty for a rig's recording replayed).
        var cameras: [LiveSession.Camera] = []
        /// A rig's recording to replay.
        var recording: RigRecording?
        /// Whether the recording is a bag's topics (its timing is then told).
        var recordingIsBag = false
        /// Whether several cameras make a rig.
        var isRig: Bool { cameras.count > 1 || recording != nil }
    }

    /// The cameras `--device`, `--replay` or `--camera` give, with what each needs in `configuration`:
    /// one camera (a device, a replayed folder or a bag's topic), a rig of `--camera`s, or a rig's
    /// recording (a folder, or a bag's topics) replayed.
    ///
    /// - Parameter bag: The bag `--replay` names, listed (``openBag()``).
    /// - Throws: A usage error for rig options that cannot work, or `RuntimeError` for a recording
    ///   that cannot be replayed or an `--out` inside it.
    func prepareCameras(_ configuration: inout LiveSession.Configuration, bag: BagInput?) throws -> CameraSetup {
        if rig.isRig {
            let arguments = try rig.cameraArguments(defaults: captureSettings, controls: cameraControls.settings)
            configuration.rig = try rig.rigConfiguration(arguments, hold: detection.holdDuration)
            configuration.record = record
            configuration.rigCalibration = rigCalibration(cameras: arguments.map(\.name))
            return CameraSetup(cameras: arguments.map { argument in
                LiveSession.Camera(name: argument.name, source: .camera(
                    path: argument.device, request: Self.cameraRequest(argument.settings, controls: argument.controls)))
            })
        }
        if let folder = replay, bag.map({ $0.index.topics.count >= 2 }) ?? RigRecording.isRig(folder) {
            let recording: RigRecording
            if let bag {
                recording = try bag.rigRecording()
            } else {
                do { recording = try RigRecording(folder: folder) } catch { throw RuntimeError("cannot replay \(folder): \(error)") }
            }
            do {
                try SafeOutput.checkFolder(out, option: "--out", notAnyOf: [folder])
                if let calibrationOut = calibration.calibrationOut, calibration.calibrate {
                    try SafeOutput.checkFolder(calibrationOut, option: "--calibration-out", notAnyOf: [folder])
                }
            } catch {
                throw RuntimeError("\(error)")
            }
            configuration.rig = try rig.rules.rigConfiguration(cameras: recording.cameras, hold: detection.holdDuration)
            configuration.rigCalibration = rigCalibration(cameras: recording.cameras.map(\.name))
            return CameraSetup(recording: recording, recordingIsBag: bag != nil)
        }
        configuration.record = record
        configuration.calibration = calibration.configuration(pictures: out, replay: replay)
        if let replay {
            do {
                try SafeOutput.checkFolder(out, option: "--out", notAnyOf: [replay])
                if let record { try SafeOutput.checkFolder(record, option: "--record", notAnyOf: [replay]) }
            } catch {
                throw RuntimeError("\(error)")
            }
        }
        // A bag's one topic is replayed as a folder of its frames, read from the bag.
        let source = try bag.map { LiveSession.SourceRequest.source(ReplaySource(FrameFolder($0.index))) } ?? sourceRequest()
        return CameraSetup(cameras: [LiveSession.Camera(name: "camera", source: source)])
    }

    /// What `live` says before the frames: what each camera is, and the session's rules and folders.
    func banner(_ session: LiveSession, setup: CameraSetup, detector: MarkerDetector,
                configuration: LiveSession.Configuration) -> [String] {
        guard setup.isRig, let rigConfiguration = configuration.rig else {
            return [session.sources[0].banner + "; pattern \(detector.pattern), hold \(detection.hold) s, pictures to \(out)"
                + (record.map { ", recording to \($0)" } ?? "")
                + (configuration.calibration.map { ", calibration to \($0.folder) (good: \($0.goodText))" } ?? "")]
        }
        var lines: [String]
        if let recording = setup.recording {
            lines = ["replaying the rig recorded in \(recording.folder): \(recording.frames.count) frames of "
                + recording.cameras.map(\.name).joined(separator: ", ") + (setup.recordingIsBag ? ", \(recording.timing)" : "")]
        } else {
            lines = zip(session.cameras, session.sources).map { "\($0.name): \($1.banner)" }
        }
        let tolerance = String(format: "%.1f", rigConfiguration.syncTolerance.inSeconds * 1000)
        let motion = rigConfiguration.maxMotion.map { String(format: "%.2f px/frame", $0) } ?? "off"
        lines.append("rig of \(session.cameras.count) cameras: require \(rigConfiguration.require), sync tolerance \(tolerance) ms, "
            + "max motion \(motion); pattern \(detector.pattern), hold \(detection.hold) s, sets to \(out)"
            + (record.map { ", recording to \($0)" } ?? "")
            + (calibration.calibrate ? calibration.calibrationOut.map { ", calibration to \($0)" } ?? "" : ""))
        return lines
    }

    /// What `--calibrate` asks of a rig, live or replayed (whose cameras are `cameras`, the reference first), or nil without it.
    private func rigCalibration(cameras: [String]) -> RigLiveCalibration.Configuration? {
        guard calibration.calibrate, let folder = calibration.calibrationOut else { return nil }
        var configuration = RigLiveCalibration.Configuration(cameras: cameras, pictures: out, folder: folder)
        configuration.replacing = calibration.force
        return configuration
    }

    /// Says the rig's summary and the paths of its files (on standard output), or why they were
    /// not written; false when they were not.
    static func say(_ calibration: LiveSummary.RigCalibrationOutcome, console: Console) -> Bool {
        if let update = calibration.update { for line in update.report.summary { console.message(line) } }
        if let failure = calibration.failure {
            console.message("calibration not written: \(failure)")
            return false
        }
        for path in calibration.files { console.result(path) }
        return true
    }
}
