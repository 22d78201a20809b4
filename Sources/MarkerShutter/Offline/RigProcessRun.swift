package import FileFormats
import Dispatch
import Foundation
package import MarkerDetection
import Pixels
import Synchronization

/// One `process` run over a rig's recording (``RigRecording``): each camera's frame rows and the rig
/// shutter's changes as one stream of JSON Lines (``RigProcessLine``), in the order the rig's
/// machine took things, and the outcome that decides the exit status.
///
/// Each camera's folder is detected as `process` detects one camera's folder (``FolderProcessor``:
/// stretches of frames on several threads, each stretch searched afresh, its own shutter with the
/// hold), so its rows are those one camera alone would have, whatever the jobs. The rig's machine
/// is told the recording's steps (``RigRecording/steps``) in order, as `live --replay` tells it:
/// arrivals, time moving on, cameras lost, and each frame once detected; a frame that cannot be
/// read gets a row with its `error` and is not given to the machine (live, a frame whose detection
/// failed never reaches it).
package struct RigProcessRun: Sendable {
    /// What to process and what to write.
    package struct Configuration: Sendable {
        /// The recording.
        package var recording: RigRecording
        /// The rig's rules (its cameras are the recording's).
        package var rig: RigShutterMachine.Configuration
        /// Finds the target.
        package var detector: MarkerDetector
        /// Which detections may enable a camera's shutter.
        package var rule: ValidityRule
        /// Hold time, jobs (shared among the cameras, at least one each, capped at the cores) and pixel limit.
        package var options = FolderProcessor.Options()
        /// OpenCV's threads inside one detection; nil: 1 with several jobs, else OpenCV's own.
        package var openCVThreads: Int?
        /// Where the JSON Lines go (see ``SafeOutput/destination(for:replacing:inputs:)``).
        package var output = SafeOutput.Destination.standardOutput
        /// Where each frame is written with its detection drawn, in a folder per camera
        /// (`DIR/NAME/frame_000000.jpg`).
        package var annotate: String?
        /// The most jobs that run at once (the cores; a test sets more).
        var coreLimit = InputLimits.cores

        /// Processes `recording` with the default options, lines to standard output.
        package init(recording: RigRecording, rig: RigShutterMachine.Configuration, detector: MarkerDetector, rule: ValidityRule) {
            self.recording = recording
            self.rig = rig
            self.detector = detector
            self.rule = rule
        }
    }

    /// One camera's part of a run.
    package struct CameraSummary: Sendable {
        /// The camera's name.
        package let name: String
        /// Its frames, what became of them, and its own shutter's stretches.
        package internal(set) var summary: ProcessingSummary
        /// Rows written for it.
        package internal(set) var rows = 0
    }

    /// What a run did.
    package struct Result: Sendable, CustomStringConvertible {
        /// Each camera, in the rig's order.
        package let cameras: [CameraSummary]
        /// Rig lines written (changes of the rig shutter).
        package let rigChanges: Int
        /// Sets the rig was enabled for: how many times it turned enabled.
        package let enabledStretches: Int
        /// How long the rig was enabled, on the frames' clock.
        package let enabledTime: Duration
        /// Why the rig's timeline stopped before the recording's end (a camera the rig cannot do without lost).
        package let rigStopped: String?
        /// How long processing took.
        package let elapsed: Duration
        /// Threads detecting, in all.
        package let jobs: Int
        /// OpenCV's threads inside one detection (-1: OpenCV's own).
        let threads: Int
        /// Annotations that could not be written.
        package let warnings: [String]
        /// The recording's folder.
        package let folder: String
        /// Where the frames were drawn, if anywhere.
        let annotate: String?
        /// How the run ended.
        package let exit: ProcessRun.Exit
        /// Where the frames' times came from.
        var timing = FrameFolder.Timing.manifest

        /// The summary as `process` prints it, several lines.
        package var description: String {
            let frames = cameras.reduce(0) { $0 + $1.summary.frames }
            let written = cameras.reduce(0) { $0 + $1.rows }
            let seconds = elapsed.inSeconds
            var lines = [
                "\(folder): rig of \(cameras.count) cameras (\(cameras.map(\.name).joined(separator: ", "))), \(frames) frames, "
                    + "\(timing)",
                String(format: "  processed in %.2f s (%.1f frames/s, %d job%@, OpenCV threads %@)", seconds,
                       seconds > 0 ? Double(written) / seconds : 0, jobs, jobs == 1 ? "" : "s", threads > 0 ? "\(threads)" : "default"),
            ]
            for camera in cameras {
                let summary = camera.summary
                let stretches = summary.stretches
                lines.append("  \(camera.name): \(summary.processedFrames) frames, \(summary.processedFrames - summary.errors.count) detected, "
                    + "\(summary.validFrames) valid, \(summary.errors.count) error\(summary.errors.count == 1 ? "" : "s"); "
                    + String(format: "shutter enabled %.2f s in %d stretch%@", summary.enabledTime.inSeconds, stretches.count,
                             stretches.count == 1 ? "" : "es")
                    + (stretches.isEmpty ? "" : ": " + stretches.map { "\($0.firstFrame)-\($0.lastFrame)" }.joined(separator: ", ")))
                for error in summary.errors.prefix(10) {
                    lines.append("    " + FileNameText.escaped("\(camera.name)/\(error.file): \(error.reason)"))
                }
                if summary.errors.count > 10 { lines.append("    ... and \(summary.errors.count - 10) more") }
            }
            lines.append(String(format: "  rig: %d change%@, enabled %.2f s in %d stretch%@", rigChanges, rigChanges == 1 ? "" : "s",
                                enabledTime.inSeconds, enabledStretches, enabledStretches == 1 ? "" : "es"))
            if let rigStopped { lines.append("  rig stopped: \(rigStopped)") }
            if frames > written { lines.append("  interrupted: stopped after \(written) of \(frames) frames") }
            if let annotate { lines.append("  annotated: each camera's frames drawn into \(annotate)/NAME") }
            lines += warnings.map { "  warning: \($0)" }
            return lines.joined(separator: "\n")
        }
    }

    /// The configuration.
    package let configuration: Configuration

    /// Prepares a run.
    package init(_ configuration: Configuration) {
        self.configuration = configuration
    }

    /// Detection threads: the jobs asked for, at most one per core, at least one per camera.
    var jobs: Int {
        max(configuration.recording.cameras.count,
            min(configuration.options.jobs, configuration.coreLimit, configuration.recording.frames.count))
    }

    /// The value for ``MarkerDetector/openCVThreadCount`` this run wants (see ``ProcessRun/applyProcessSettings()``).
    var openCVThreadCount: Int { ProcessRun.openCVThreadCount(configured: configuration.openCVThreads, jobs: jobs) }

    /// Sets what the run wants for the whole process: OpenCV's thread count and glibc's malloc
    /// keeping freed frames for reuse (see ``ProcessRun/applyProcessSettings()``).
    package func applyProcessSettings() {
        ProcessRun.applyProcessSettings(openCVThreads: openCVThreadCount)
    }

    /// Each camera's frames as a folder of its own, in the recording's order, and where each of the
    /// recording's frames is in its camera's folder.
    static func cameraFolders(_ recording: RigRecording) -> (folders: [FrameFolder], places: [Int]) {
        var frames: [[FrameFolder.Frame]] = recording.cameras.map { _ in [] }
        var places: [Int] = []
        places.reserveCapacity(recording.frames.count)
        for frame in recording.frames {
            let place = frames[frame.camera].count
            places.append(place)
            frames[frame.camera].append(FrameFolder.Frame(index: place, file: (frame.path as NSString).lastPathComponent, path: frame.path,
                                                          time: frame.time, sequence: frame.sequence, content: frame.content))
        }
        let folders = recording.cameras.indices.map { camera in
            FrameFolder(path: (recording.folder as NSString).appendingPathComponent(recording.cameras[camera].name),
                        frames: frames[camera], timing: recording.timing)
        }
        return (folders, places)
    }

    /// Processes every frame (until `shouldStop`), writing each camera's rows and the rig's changes.
    ///
    /// - Parameters:
    ///   - shouldStop: Checked before each of the recording's steps (for Ctrl-C); the lines before the stop are kept.
    ///   - onFrame: Called after each frame's row, in the recording's order (for progress).
    /// - Throws: ``OutputError`` when the file of the lines cannot be opened (a write that fails
    ///   later ends the run with ``ProcessRun/Exit/outputFailed(_:)``).
    package func run(shouldStop: @escaping @Sendable () -> Bool = { false }, onFrame: () -> Void = {}) throws(OutputError) -> Result {
        let clock = ContinuousClock()
        let start = clock.now
        let configuration = configuration
        let recording = configuration.recording
        let names = recording.cameras.map(\.name)
        if let annotate = configuration.annotate {
            try SafeOutput.prepareFolder(annotate)
            for name in names { try SafeOutput.prepareFolder((annotate as NSString).appendingPathComponent(name)) }
        }
        var lines = try RowSink(configuration.output)
        let (folders, places) = Self.cameraFolders(recording)

        // Each camera's folder is processed on a thread of its own, its jobs a share of the run's.
        let jobs = jobs
        let channels = folders.map { _ in OutcomeChannel(capacity: 256) }
        let summaries = SummaryBox(count: folders.count)
        let done = DispatchGroup()
        for (camera, folder) in folders.enumerated() {
            var options = configuration.options
            options.jobs = jobs / folders.count + (camera < jobs % folders.count ? 1 : 0)
            let processor = FolderProcessor(folder: folder, detector: configuration.detector, rule: configuration.rule, options: options)
            let channel = channels[camera]
            var onDecoded: (@Sendable (FrameFolder.Frame, PixelBuffer, Detection) -> Void)?
            if let annotate = configuration.annotate {
                let name = names[camera]
                let target = (annotate as NSString).appendingPathComponent(name)
                let files = OutputNames.assign(folder.frames.map(\.file), pathExtension: "jpg")
                onDecoded = { [rule = configuration.rule] frame, pixels, detection in
                    let path = (target as NSString).appendingPathComponent(files[frame.index])
                    if let failure = ProcessRun.annotate(frame, pixels, detection, rule: rule, to: path) { summaries.warn("\(name): \(failure)") }
                }
            }
            done.enter()
            let thread = Thread { [onDecoded] in
                let summary = processor.run(shouldStop: { channel.isClosed }, onDecoded: onDecoded) { frame, outcome in
                    channel.send((frame, outcome))
                }
                summaries.set(camera, summary)
                channel.finish()
                done.leave()
            }
            thread.name = "marker-shutter rig camera"
            thread.start()
        }

        var machine = RigShutterMachine(configuration: configuration.rig)
        var cameras = folders.indices.map { CameraSummary(name: names[$0], summary: ProcessingSummary(frames: folders[$0].frames.count)) }
        var nextArrival = Array(repeating: 0, count: folders.count)
        var arrivalIndexes: [[FrameTime: Int]] = Array(repeating: [:], count: folders.count)
        // The machine knows a frame by its arrival (as live); the lines name its place in its folder.
        var placeByArrival: [[Int: Int]] = Array(repeating: [:], count: folders.count)
        var rigChanges = 0
        var enabledStretches = 0
        var enabledTime = Duration.zero
        var enabledSince: FrameTime?
        var rigStopped: String?
        var stopped = false

        func changed(_ step: RigShutterMachine.Step, at time: FrameTime) {
            guard step.changed else { return }
            let state = step.state
            let shutters = zip(names, state.cameras).map { RigProcessLine.Change.CameraShutter(camera: $0, shutter: $1.description) }
            let lineState: RigProcessLine.Change.State
            if let set = state.set {
                let members = set.members.map { member in
                    RigProcessLine.Change.Member(camera: names[member.camera],
                                                 index: placeByArrival[member.camera][member.index] ?? member.index)
                }
                lineState = .enabled(largestDifference: set.largestDifference.inSeconds, set: members)
                if enabledSince == nil {
                    enabledSince = time
                    enabledStretches += 1
                }
            } else {
                lineState = .disabled(why: state.refusal.map { "\($0)" } ?? "")
                if let since = enabledSince {
                    enabledTime += since.duration(to: time)
                    enabledSince = nil
                }
            }
            lines.write(RigProcessLine.changeText(RigProcessLine.Change(t: time.seconds, state: lineState, cameras: shutters)))
            rigChanges += 1
        }

        for step in recording.steps {
            if shouldStop() {
                stopped = true
                break
            }
            switch step {
            case .arrived(let camera, let time, let dropped):
                guard rigStopped == nil else { continue }
                arrivalIndexes[camera][time] = nextArrival[camera]
                nextArrival[camera] += 1
                changed(machine.arrived(camera: camera, at: time, dropped: dropped), at: time)
            case .advance(let time):
                guard rigStopped == nil else { continue }
                changed(machine.advance(to: time), at: time)
            case .advanceArrivals(let time):
                guard rigStopped == nil else { continue }
                changed(machine.advanceArrivals(to: time), at: time)
            case .lost(let camera):
                guard rigStopped == nil else { continue }
                let step = machine.lose(camera: camera)
                changed(step, at: machine.now ?? machine.arrivalNow ?? recording.frames[0].time)
                // As `live --replay`, the rig's timeline ends with a camera the rig cannot do without.
                if !machine.canMeetRequirement { rigStopped = "\(names[camera]) is gone in the recording" }
            case .observed(let number):
                let frame = recording.frames[number]
                let camera = frame.camera
                guard let (folderFrame, outcome) = channels[camera].receive() else {
                    preconditionFailure("camera \(camera)'s processor ended before its frame \(places[number])")
                }
                precondition(folderFrame.index == places[number], "camera \(camera) sent frame \(folderFrame.index), not \(places[number])")
                cameras[camera].rows += 1
                switch outcome {
                case .observed(let observation, let shutter):
                    lines.write(RigProcessLine.frameText(camera: names[camera], row: FrameRow.row(for: observation, state: shutter.state)))
                    if observation.isValid { cameras[camera].summary.validFrames += 1 }
                    guard rigStopped == nil else { break }
                    let arrival = arrivalIndexes[camera].removeValue(forKey: frame.time) ?? nextArrival[camera] - 1
                    placeByArrival[camera][arrival] = places[number]
                    let rigFrame = RigFrame(camera: camera, index: arrival, time: frame.time, isValid: observation.isValid,
                                            motion: .corners(observation.detection.boardCorners))
                    changed(machine.observe(rigFrame), at: frame.time)
                case .unreadable(let reason):
                    lines.write(RigProcessLine.frameText(camera: names[camera],
                                                         row: FrameRow.errorRow(index: folderFrame.index, file: folderFrame.file,
                                                                                time: folderFrame.time, reason: reason)))
                    cameras[camera].summary.errors.append(ProcessingSummary.FrameError(index: folderFrame.index, file: folderFrame.file,
                                                                                       reason: reason))
                }
                onFrame()
            }
        }
        for channel in channels { channel.close() }
        done.wait()
        if let since = enabledSince, let end = machine.now { enabledTime += since.duration(to: end) }
        let finished = summaries.all()
        for camera in cameras.indices {
            let processed = cameras[camera].rows
            var summary = cameras[camera].summary
            let whole = finished[camera]
            summary.stretches = processed == summary.frames ? whole?.stretches ?? [] : (whole?.stretches ?? []).filter { $0.firstFrame < processed }
            summary.elapsed = whole?.elapsed ?? .zero
            summary.jobs = whole?.jobs ?? 1
            if processed < summary.frames { summary.stoppedAfter = processed }
            cameras[camera].summary = summary
        }
        let outputFailure = lines.finish()
        let warnings = summaries.warnings()
        let errors = cameras.reduce(0) { $0 + $1.summary.errors.count }
        let firstError = cameras.first { !$0.summary.errors.isEmpty }.map { camera in
            let error = camera.summary.errors[0]
            return (file: "\(camera.name)/\(error.file)", reason: error.reason)
        }
        let exit = ProcessRun.Exit(outputFailure: outputFailure, stopped: stopped, folder: recording.folder,
                                   frames: recording.frames.count, errors: errors, firstError: firstError,
                                   warnings: !warnings.isEmpty)
        return Result(cameras: cameras, rigChanges: rigChanges, enabledStretches: enabledStretches, enabledTime: enabledTime,
                      rigStopped: rigStopped, elapsed: clock.now - start, jobs: jobs, threads: openCVThreadCount,
                      warnings: warnings, folder: recording.folder, annotate: configuration.annotate, exit: exit, timing: recording.timing)
    }
}

/// The summaries the cameras' threads leave when they end, and the annotations they could not write.
private final class SummaryBox: Sendable {
    private let summaries: Mutex<[ProcessingSummary?]>
    private let failures = Mutex<[String]>([])

    init(count: Int) { summaries = Mutex(Array(repeating: nil, count: count)) }

    func set(_ camera: Int, _ summary: ProcessingSummary) { summaries.withLock { $0[camera] = summary } }

    func all() -> [ProcessingSummary?] { summaries.withLock { $0 } }

    func warn(_ failure: String) { failures.withLock { $0.append(failure) } }

    func warnings() -> [String] { failures.withLock { $0 } }
}
