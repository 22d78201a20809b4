import ArgumentParser
import BrowserView
import FileFormats
import Foundation
import FrameCapture
import MarkerDetection
import MarkerShutter
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

    /// What a rig's replay cannot do, as a usage error.
    func validateRigReplay() throws {
        let unavailable: [(Bool, String)] = [
            (record != nil, "--record"), (calibration.calibrate, "--calibrate"),
            (!rig.cameraOptions.isEmpty, "--camera-option"),
            (!(try cameraControls.settings.isEmpty), "--exposure, --focus, --control and --lock"),
        ]
        if let (_, names) = unavailable.first(where: { $0.0 }) { throw ValidationError("\(names): not available with --replay of a rig's recording") }
    }

    /// `live --camera NAME=DEVICE ...`: one shutter for the set of several cameras; or `live
    /// --replay DIR` of a rig's recording, its cameras those the recording names (`given`, a bag's
    /// topics, or the folder's).
    func runRig(replaying folder: String? = nil, recording given: RigRecording? = nil) async throws {
        let interruption = InterruptFlag()
        SystemCall.raiseOpenFileLimit()
        SystemCall.giveLargeBlocksBack()
        let console = Console()
        if folder != nil { try validateRigReplay() }
        let window = preview ? try LivePreview.open(console: console) : nil  // without a display, before anything is opened
        defer { window?.close() }
        let detector: MarkerDetector
        if let folder, detection.identifiesPattern {
            let recording: RigRecording
            do { recording = try RigRecording(folder: folder) } catch { throw RuntimeError("cannot replay \(folder): \(error)") }
            detector = try detection.makeDetector(identifyingIn: recording.frames.map(\.path), source: folder)
        } else if !detection.identifiesPattern {
            detector = try detection.makeDetector()
        } else {
            // A live rig identifies the target on its first camera.
            let first = try rig.cameraArguments(defaults: captureSettings, controls: cameraControls.settings).first
            detector = try await sessionDetector(
                replay: nil, camera: (first?.device ?? device ?? "/dev/video0", first?.settings ?? captureSettings), console: console,
                interruption: interruption)
        }
        let session: RigSession
        let names: [String]
        let rigConfiguration: RigShutterMachine.Configuration
        var browser: BrowserServing?
        if let folder {
            let recording: RigRecording
            if let given {
                recording = given
            } else {
                do { recording = try RigRecording(folder: folder) } catch { throw RuntimeError("cannot replay \(folder): \(error)") }
            }
            do { try SafeOutput.checkFolder(out, option: "--out", notAnyOf: [folder]) } catch { throw RuntimeError("\(error)") }
            browser = try await startBrowserView(console: console, interruption: interruption)
            rigConfiguration = try rig.rules.rigConfiguration(cameras: recording.cameras, hold: detection.holdDuration)
            var configuration = RigSession.Configuration(detector: detector, rule: detection.rule(for: detector.pattern), pictures: out,
                                                         rig: rigConfiguration)
            configuration.automatic = auto
            configuration.stopAfter = stopAfter
            do { session = try RigSession(replaying: recording, configuration: configuration) } catch { throw RuntimeError("\(error)") }
            names = recording.cameras.map(\.name)
            console.message("replaying the rig recorded in \(folder): \(recording.frames.count) frames of "
                + names.joined(separator: ", ") + (given == nil ? "" : ", \(recording.timing)"))
        } else {
            let arguments = try rig.cameraArguments(defaults: captureSettings, controls: cameraControls.settings)
            rigConfiguration = try rig.rigConfiguration(arguments, hold: detection.holdDuration)
            var configuration = RigSession.Configuration(detector: detector, rule: detection.rule(for: detector.pattern), pictures: out,
                                                         rig: rigConfiguration)
            configuration.automatic = auto
            configuration.stopAfter = stopAfter
            configuration.record = record
            configuration.calibration = rigCalibration(cameras: arguments.map(\.name))
            if let settle { configuration.controlSettling = .milliseconds((settle * 1000).rounded()) }
            let sources = zip(arguments, rigConfiguration.cameras).map { argument, camera in
                RigSession.CameraSource(camera: camera, request: .camera(path: argument.device, settings: argument.settings),
                                        controls: argument.controls)
            }
            browser = try await startBrowserView(console: console, interruption: interruption)
            do {
                session = try RigSession(cameras: sources, configuration: configuration)
            } catch {
                if case .camera = error { throw RuntimeError("\(error)\n(list cameras with `marker-shutter devices`)") }
                throw RuntimeError("\(error)")
            }
            names = arguments.map(\.name)
            for (source, argument) in zip(session.sources, arguments) { console.message("\(argument.name): \(source.banner)") }
        }

        let tolerance = String(format: "%.1f", rigConfiguration.syncTolerance.inSeconds * 1000)
        let motion = rigConfiguration.maxMotion.map { String(format: "%.2f px/frame", $0) } ?? "off"
        console.message("rig of \(names.count) cameras: require \(rigConfiguration.require), sync tolerance \(tolerance) ms, "
            + "max motion \(motion); pattern \(detector.pattern), hold \(detection.hold) s, sets to \(out)"
            + (record.map { ", recording to \($0)" } ?? "")
            + (calibration.calibrate ? calibration.calibrationOut.map { ", calibration to \($0)" } ?? "" : ""))
        let keyboard = KeyboardInput()
        console.message(keyboard.isTerminal
            ? "Space or Enter: take a set   q or Ctrl-C: quit"
            : "commands on standard input: capture, quit (or Ctrl-C)")
        let send: @Sendable (LiveSession.Command) -> LiveSession.Command.Answer = { session.send($0) }
        browser?.showRig(cameras: names, folder: out)
        browser?.attach(send)
        window?.attach(send)
        let views: @Sendable (RigSession.Event) -> Void = { [browser, window, names, out] event in
            browser?.show(event, cameras: names, folder: out)
            window?.show(event, cameras: names, folder: out)
        }
        let printer = Task {
            await Self.show(session.events, names: names, console: console, views: views)
        }
        keyboard.start(send: { _ = send($0) }, unknown: { text in console.message("unknown command \"\(text)\": capture or quit") })
        interruption.onInterrupt { name in session.stop(reason: name) }

        let summary = await session.run()
        await printer.value
        await browser?.finish(reason: summary.stopReason ?? "ended")
        console.clearStatus()
        TerminalMode.restore()
        interruption.cancel()
        console.message(summary.description)
        let calibrated = summary.calibration.map { Self.say($0, console: console) } ?? true
        if !summary.lostCameras.isEmpty, let reason = summary.stopReason, reason.contains(" is gone: ") { throw RuntimeError(reason) }
        if interruption.isSet { throw ExitCode(130) }
        if summary.writesFailed || summary.recording?.summary.failure != nil || !calibrated { throw ExitCode(2) }
    }

    /// What `--calibrate` asks of a live rig (whose cameras are `cameras`, the reference first), or nil without it.
    private func rigCalibration(cameras: [String]) -> RigLiveCalibration.Configuration? {
        guard calibration.calibrate, let folder = calibration.calibrationOut else { return nil }
        var configuration = RigLiveCalibration.Configuration(cameras: cameras, pictures: out, folder: folder)
        configuration.replacing = calibration.force
        return configuration
    }

    /// Says the rig's summary and the paths of its files (on standard output), or why they were
    /// not written; false when they were not.
    private static func say(_ calibration: RigSummary.Calibration, console: Console) -> Bool {
        if let update = calibration.update { for line in update.report.summary { console.message(line) } }
        if let failure = calibration.failure {
            console.message("calibration not written: \(failure)")
            return false
        }
        for path in calibration.files { console.result(path) }
        return true
    }

    /// Prints the rig's changes and sets: changes and refusals on standard error, the sets saved on
    /// standard output; and hands every event to the browser view and the preview window (`views`).
    private static func show(_ events: AsyncStream<RigSession.Event>, names: [String], console: Console,
                             views: (RigSession.Event) -> Void) async {
        func line(_ state: RigState) -> String {
            let cameras = zip(names, state.cameras).map { "\($0) \($1)" }.joined(separator: ", ")
            guard let set = state.set else { return "rig disabled: \(state.refusal.map { "\($0)" } ?? "") (\(cameras))" }
            let difference = String(format: "%.1f", set.largestDifference.inSeconds * 1000)
            return "rig enabled: frames \(difference) ms apart (\(cameras))"
        }
        for await event in events {
            views(event)
            switch event {
            case .frame(_, _, let state, let changed, _):
                if changed { console.message(line(state)) }
                console.setStatus(line(state))
            case .rigChanged(let state):
                console.message(line(state))
            case .setSaved(let saved, let trigger):
                console.result("\(saved.sidecar) (\(saved.images.joined(separator: ", ")); "
                    + String(format: "%.1f ms apart", saved.largestDifference * 1000) + ", \(trigger.rawValue))")
            case .setRefused(let refusal):
                console.message("no set taken: \(refusal)")
            case .setFailed(let error):
                console.message("set not saved: \(error)")
            case .cameraLost(let camera, let reason):
                console.message("camera \(camera) lost: \(reason)")
            case .cameraControls(let camera, let values, let locked):
                let list = values.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ", ")
                console.message("\(camera): camera controls \(locked ? "locked" : "set"): \(list)")
            case .calibrated(let update):
                console.message("\(update)")
            case .calibrationFailed(let error):
                console.message("rig calibration: \(error)")
            }
        }
    }
}
