import ArgumentParser
import FrameCapture
import MarkerDetection
import MarkerShutter
import RosBags

/// `live --pattern auto`: the target identified before the session starts, from the replay's first
/// frames or from the camera, whose frames are looked at until the target is known without doubt.
extension LiveCommand {
    /// The detector the session runs: for the pattern given, or the one identified.
    ///
    /// - Parameters:
    ///   - replay: The folder replayed, if any.
    ///   - camera: The camera to look at otherwise, and what to ask it for.
    ///   - bag: The bag replayed, if it is one.
    func sessionDetector(replay: String?, bag: BagInput?, camera: (path: String, settings: CaptureSettings), console: Console,
                         interruption: InterruptFlag) async throws -> MarkerDetector {
        guard detection.identifiesPattern else { return try detection.makeDetector() }
        let detector: MarkerDetector
        if let bag {
            detector = bag.index.topics.count >= 2
                ? try detection.makeDetector(identifyingIn: bag.rigRecording())
                : try detection.makeDetector(identifyingIn: FrameFolder(bag.index))
        } else if let replay {
            if RigRecording.isRig(replay) {
                let recording: RigRecording
                do { recording = try RigRecording(folder: replay) } catch { throw RuntimeError("cannot replay \(replay): \(error)") }
                detector = try detection.makeDetector(identifyingIn: recording)
            } else {
                let folder: FrameFolder
                do {
                    folder = try FrameFolder(path: replay, framesPerSecond: Double(fps))
                } catch {
                    throw RuntimeError("cannot replay \(replay): \(error)")
                }
                detector = try detection.makeDetector(identifyingIn: folder)
            }
        } else {
            detector = try await detection.makeDetector(
                for: identifiedOnCamera(path: camera.path, settings: camera.settings, console: console, interruption: interruption))
        }
        if calibration.calibrate { try calibration.validate(pattern: detector.pattern) }
        return detector
    }

    /// The camera `--pattern auto` looks at without `--replay`: a rig's first camera, or the one camera.
    func identifyingCamera() throws -> (path: String, settings: CaptureSettings) {
        if rig.isRig, let first = try rig.cameraArguments(defaults: captureSettings, controls: cameraControls.settings).first {
            return (first.device, first.settings)
        }
        return (device ?? "/dev/video0", captureSettings)
    }

    /// Looks at the camera's frames until ``PatternSearch`` is sure of the target (saying what it
    /// sees whenever that changes), then lets the camera go.
    private func identifiedOnCamera(path: String, settings: CaptureSettings, console: Console, interruption: InterruptFlag)
        async throws -> Pattern
    {
        let camera: Camera
        do {
            camera = try Camera(path: path, settings: settings)
        } catch {
            throw RuntimeError("cannot open camera: \(error)\n(list cameras with `marker-shutter devices`)")
        }
        defer { camera.stop() }
        let identifier: PatternIdentifier
        do {
            identifier = try PatternIdentifier()
        } catch {
            throw RuntimeError("cannot identify the target: \(error)")
        }
        var search = PatternSearch(identifier: identifier)
        console.message("\(path): looking for the target; hold it in view (Ctrl-C to stop)")
        var said = ""
        do {
            for try await frame in camera.frames() {
                if interruption.isSet { throw ExitCode(130) }
                guard let found = try search.offer(frame.pixels, at: frame.timestamp) else { continue }
                if let pattern = found.pattern {
                    console.message("\(path): \(found)")
                    return pattern
                }
                let now = found.candidates.isEmpty ? "no target in view yet" : "\(found)"
                if now != said { console.message("\(path): \(now)") }
                said = now
            }
        } catch let exit as ExitCode {
            throw exit
        } catch {
            throw RuntimeError("\(path): \(error)")
        }
        if interruption.isSet { throw ExitCode(130) }
        throw RuntimeError("\(path): the camera stopped before the target was identified")
    }
}
