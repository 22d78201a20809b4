import Dispatch
import Foundation
public import MarkerDetection
public import Pixels
import Synchronization

/// Processes a recorded frame folder: decodes and detects frames on several threads at once, then
/// runs the shutter's timeline over them in frame order with their own timestamps, exactly as live
/// capture would have.
///
/// Worker threads each take the next stretch of frames (``stretchLength(frames:)``), and read,
/// decode and detect its frames in order, each consecutive frame searched first where the frame
/// before showed the board (``RegionTracker``); they run at most a few stretches ahead of the
/// consumer, so memory stays bounded however long the folder. Every stretch starts afresh, so what
/// is found does not depend on how many jobs run. Results reach the caller strictly in frame
/// order, on the calling thread.
public struct FolderProcessor: Sendable {
    /// How to process.
    public struct Options: Sendable {
        /// How long a lost detection is held.
        public var hold: Duration = .milliseconds(300)
        /// Threads decoding and detecting at once, each working through a stretch of frames at a
        /// time (no more than there are stretches).
        public var jobs: Int = ProcessInfo.processInfo.activeProcessorCount
        /// Images whose header claims more pixels than this are refused before decoding.
        public var pixelLimit: Int = ImageFile.defaultPixelLimit

        /// Default options: 0.3 s hold, one job per core.
        public init() {}
    }

    /// One frame's result, in order.
    public enum Outcome: Sendable {
        /// The frame was read and detected; `step` is the shutter after it.
        case observed(FrameObservation, ShutterStep<FrameObservation>)
        /// The frame could not be read (missing, corrupt, too large, not an image).
        case unreadable(reason: String)
    }

    /// The folder being processed.
    public let folder: FrameFolder
    /// The detector (shared by all workers; it is safe to use from several threads).
    public let detector: MarkerDetector
    /// Which detections may enable the shutter.
    public let rule: ValidityRule
    /// Hold time, jobs and pixel limit.
    public let options: Options

    /// Creates a processor.
    public init(folder: FrameFolder, detector: MarkerDetector, rule: ValidityRule, options: Options = Options()) {
        self.folder = folder
        self.detector = detector
        self.rule = rule
        self.options = options
    }

    /// Processes every frame, or the frames of `range` alone.
    ///
    /// - Parameters:
    ///   - range: The frames to process, whole stretches of the folder (the cut of a folder into shards by the Sharding target);
    ///     `nil` for all. Each frame's detection is the one it gets when the whole folder is processed.
    ///   - shouldStop: Checked on the calling thread before each frame; once it returns true, no
    ///     new frame is started, the frames before the first unfinished one are still handed over,
    ///     and the summary says how many were processed (for Ctrl-C).
    ///   - onDecoded: Called on a worker thread with each readable frame's pixels and detection,
    ///     in no particular order (for work that needs the pixels, such as drawing annotations).
    ///   - handle: Called on the calling thread for each frame, in frame order.
    /// - Returns: What the folder amounted to.
    public func run(
        frames range: Range<Int>? = nil,
        shouldStop: @escaping @Sendable () -> Bool = { false },
        onDecoded: (@Sendable (FrameFolder.Frame, PixelBuffer, Detection) -> Void)? = nil,
        _ handle: (FrameFolder.Frame, Outcome) -> Void
    ) -> ProcessingSummary {
        let clock = ContinuousClock()
        let start = clock.now
        let frames = folder.frames
        let stretch = Self.stretchLength(frames: frames.count)
        let range = range ?? frames.indices
        precondition(range.isEmpty || range.lowerBound % stretch == 0 && (range.upperBound % stretch == 0 || range.upperBound == frames.count)
                         && range.upperBound <= frames.count, "\(range) is not made of whole stretches of \(stretch) frames")
        let stretches = (range.count + stretch - 1) / stretch
        let jobs = max(1, min(options.jobs, stretches))
        let work = WorkQueue(range: range, stretch: stretch, window: max(2, jobs * 2))
        let done = DispatchGroup()
        for _ in 0..<jobs {
            done.enter()
            let thread = Thread { [detector, rule, options] in
                // Only the consumer asks `shouldStop`, and stops the workers through `work`: a worker
                // that asked too would skip a frame the consumer may already be waiting for.
                while let claimed = work.claim() {
                    var tracker: RegionTracker?
                    for index in claimed {
                        if work.isCancelled { break }
                        let frame = frames[index]
                        let follows = index > claimed.lowerBound && frame.follows(frames[index - 1])
                        let outcome = Self.analyze(frame, detector: detector, tracker: follows ? tracker : nil, rule: rule,
                                                   pixelLimit: options.pixelLimit, onDecoded: onDecoded)
                        if case .success(let observation) = outcome {
                            var next = (follows ? tracker : nil) ?? RegionTracker(margin: RegionTracker.videoMargin)
                            next.follow(observation.detection, of: detector.pattern)
                            tracker = next
                        } else {
                            tracker = nil
                        }
                        work.deliver(index, outcome)
                    }
                }
                done.leave()
            }
            thread.name = "marker-shutter detect"
            thread.start()
        }

        var timeline = ShutterTimeline<FrameObservation>(hold: options.hold)
        var summary = ProcessingSummary(frames: range.count)
        for index in range {
            let frame = frames[index]
            if shouldStop() {
                summary.stoppedAfter = index - range.lowerBound
                work.cancel(workers: jobs)
                break
            }
            let analyzed = work.take(index)
            switch analyzed {
            case .success(let observation):
                let step = timeline.observe(index: index, snapshot: observation, isValid: observation.isValid, at: frame.time)
                if observation.isValid { summary.validFrames += 1 }
                handle(frame, .observed(observation, step))
            case .failure(let failure):
                summary.errors.append(ProcessingSummary.FrameError(index: index, file: frame.file, reason: failure.reason))
                handle(frame, .unreadable(reason: failure.reason))
            }
        }
        done.wait()
        summary.stretches = timeline.stretches
        summary.elapsed = clock.now - start
        summary.jobs = jobs
        return summary
    }

    /// How many frames one worker takes at a time: 30 (a second of video, whose frames after the
    /// first are searched where the frame before showed the board), fewer for a short folder so
    /// that it still keeps several cores busy (an eighth of it, at least 1). It depends on the
    /// folder alone, never on the jobs, so that the rows do not either.
    package static func stretchLength(frames: Int) -> Int { min(30, max(1, frames / 8)) }

    struct Unreadable: Error { let reason: String }

    private static func analyze(
        _ frame: FrameFolder.Frame, detector: MarkerDetector, tracker: RegionTracker?, rule: ValidityRule, pixelLimit: Int,
        onDecoded: (@Sendable (FrameFolder.Frame, PixelBuffer, Detection) -> Void)?
    ) -> Result<FrameObservation, Unreadable> {
        // Detection reads the luma alone (for a JPEG, decoding skips the colour conversion), so the
        // rows are the same whether or not colour pixels are decoded too for `onDecoded`.
        let colour: PixelBuffer?
        let luma: PixelBuffer
        let detection: Detection
        do {
            colour = onDecoded == nil ? nil : try frame.readPixels(pixelLimit: pixelLimit)
            luma = try frame.readPixels(pixelLimit: pixelLimit, channels: .gray)
            detection = try detector.detect(luma, following: tracker)
        } catch {
            return .failure(Unreadable(reason: "\(error)"))
        }
        if let colour { onDecoded?(frame, colour, detection) }
        // Offline, nothing is saved from the held frame, so its pixels are not kept.
        return .success(FrameObservation(index: frame.index, time: frame.time, sequence: frame.sequence,
                                         file: frame.file, detection: detection, rule: rule, pixels: nil))
    }
}

/// Hands stretches of frame indices to worker threads and their results back in order, letting
/// workers run at most `window` stretches ahead of the consumer.
private final class WorkQueue: Sendable {
    typealias Outcome = Result<FrameObservation, FolderProcessor.Unreadable>

    private struct State {
        var next = 0
        var cancelled = false
        var results: [Int: Outcome] = [:]
    }

    private let end: Int
    private let stretch: Int
    private let state: Mutex<State>
    /// Permits for stretches claimed but not yet wholly taken by the consumer.
    private let window: DispatchSemaphore
    /// Signalled whenever a result arrives.
    private let arrived = DispatchSemaphore(value: 0)

    /// `range` starts where a stretch does; stretches are counted from the folder's first frame.
    init(range: Range<Int>, stretch: Int, window: Int) {
        self.end = range.upperBound
        self.stretch = stretch
        self.state = Mutex(State(next: range.lowerBound))
        // Made at 0 and raised to `window`: libdispatch refuses to free a semaphore whose count is
        // below the value it was made with, which is where a stopped run leaves this one.
        self.window = DispatchSemaphore(value: 0)
        for _ in 0..<window { self.window.signal() }
    }

    /// The next stretch of frames to work on, in order, or `nil` when none is left.
    func claim() -> Range<Int>? {
        window.wait()
        let claimed = state.withLock { s -> Range<Int>? in
            guard s.next < end, !s.cancelled else { return nil }
            defer { s.next = min(end, s.next + stretch) }
            return s.next..<min(end, s.next + stretch)
        }
        if claimed == nil { window.signal() }  // pass the permit on so other workers see the end too
        return claimed
    }

    /// Whether the consumer has stopped: a worker leaves its stretch unfinished.
    var isCancelled: Bool { state.withLock { $0.cancelled } }

    func deliver(_ index: Int, _ outcome: Outcome) {
        state.withLock { $0.results[index] = outcome }
        arrived.signal()
    }

    /// Stops handing out frames and wakes every worker waiting for a permit.
    func cancel(workers: Int) {
        state.withLock { $0.cancelled = true }
        for _ in 0..<workers { window.signal() }
    }

    /// Waits for frame `index`'s result and returns it.
    func take(_ index: Int) -> Outcome {
        while true {
            if let outcome = state.withLock({ $0.results.removeValue(forKey: index) }) {
                if index % stretch == stretch - 1 || index == end - 1 { window.signal() }
                return outcome
            }
            arrived.wait()
        }
    }
}

/// What processing a folder amounted to.
public struct ProcessingSummary: Sendable {
    /// A frame that could not be read.
    public struct FrameError: Sendable, Hashable {
        /// The frame's index.
        public let index: Int
        /// Its file.
        public let file: String
        /// Why it could not be read.
        public let reason: String

        /// A frame that could not be read, and why.
        package init(index: Int, file: String, reason: String) {
            self.index = index
            self.file = file
            self.reason = reason
        }
    }

    /// Frames in the folder.
    public var frames: Int
    /// Frames whose detection was valid.
    package var validFrames = 0
    /// Frames that could not be read.
    public var errors: [FrameError] = []
    /// When the shutter was enabled.
    public var stretches: [EnabledStretch] = []
    /// How long processing took.
    public var elapsed: Duration = .zero
    /// Threads used.
    public var jobs = 1
    /// When processing was stopped early: how many frames were handed over before the stop.
    package var stoppedAfter: Int?

    /// Total time the shutter was enabled (including holds).
    var enabledTime: Duration { stretches.reduce(.zero) { $0 + $1.duration } }

    /// Frames handed over: all of them, or those before an early stop.
    package var processedFrames: Int { stoppedAfter ?? frames }

    /// A summary of a folder of `frames` frames, nothing counted yet.
    package init(frames: Int) {
        self.frames = frames
    }

    /// Frames processed per second of wall time.
    public var framesPerSecond: Double {
        let seconds = elapsed.inSeconds
        return seconds > 0 ? Double(processedFrames) / seconds : 0
    }
}
