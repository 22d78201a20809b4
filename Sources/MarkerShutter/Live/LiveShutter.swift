import Dispatch
import Foundation
package import MarkerDetection
public import Pixels
import Synchronization

/// Detection on its own thread, for a live session: frames go in as they arrive and come out
/// detected, in order, to the session, whose ``LiveSessionMachine`` moves the shutter on the frames'
/// own timestamps.
///
/// Detection takes the newest frame: a frame that arrives while detection is busy replaces the one
/// waiting (the replaced frames are counted as skipped), and frames are never detected out of
/// order. Each frame keeps the index of its arrival, so a recording of every frame replays to the
/// same indices.
public final class LiveShutter: Sendable {
    /// What detection made of one frame.
    public struct Report: Sendable {
        /// The frame after detection.
        public let observation: FrameObservation
        /// The shutter after the frame.
        public let step: ShutterStep<FrameObservation>
        /// From the frame's arrival to the new state, detection included.
        let latency: Duration
        /// The frame's pixels, valid or not (``FrameObservation/pixels`` keeps a valid frame's
        /// only), for views that show every frame.
        public let pixels: PixelBuffer
        /// The camera's counts and the pictures saved, after the frame.
        public internal(set) var status = LiveSession.Status()
        /// The frame's camera, its position in the session.
        public internal(set) var camera = 0
        /// The rig after the frame: the set a picture would take now, or why none (for one camera,
        /// its shutter but for its stalls).
        public internal(set) var rig: RigState? = nil
        /// Whether the rig turned, or its reason changed, with this frame.
        package internal(set) var rigChanged = false
    }

    /// The shutter disabled by time alone: no frame came before the hold ran out.
    public struct Expiry: Sendable {
        /// The state after it (disabled).
        public let state: ShutterState<FrameObservation>
        /// When the hold ran out, on the frames' clock.
        public let time: FrameTime
        /// The index of the last frame detected before it.
        public let lastFrame: Int
        /// The camera's counts and the pictures saved, then.
        public internal(set) var status = LiveSession.Status()
        /// The camera whose shutter ran out.
        public internal(set) var camera = 0
    }

    /// What became of one frame handed over, in the order they were handed over.
    enum Outcome: Sendable {
        /// The frame was detected.
        case detected(FrameObservation, pixels: PixelBuffer, arrivedAt: Duration, latency: Duration)
        /// Detection of the frame failed (for instance an image too small).
        case failed(index: Int)
        /// The turn of a frame that cannot be read, with its time.
        case missing(FrameTime)
    }

    private struct Submitted: Sendable {
        let index: Int
        /// The frame; `nil` for a frame that cannot be read, of which only the time passes.
        let frame: SourceFrame?
        /// The frame's time.
        let time: FrameTime
        /// When it arrived, on the session clock.
        let arrivedAt: Duration
    }

    /// The detector (used on the detection thread only).
    package let detector: MarkerDetector
    /// Which detections may enable the shutter.
    package let rule: ValidityRule
    /// Frames waiting for detection; a missing frame replaced by a newer one is not a frame skipped.
    private let slot = LatestFrameSlot<Submitted>(counting: { $0.frame != nil })
    /// Where the next frame is searched; `nil` searches every frame whole.
    private let tracker: Mutex<RegionTracker?>
    private let started = Mutex(false)
    private let done = DispatchSemaphore(value: 0)

    /// Detection that searches frames where `tracker` says (every frame whole when it is `nil`).
    ///
    /// In ``DetectionMode/fast`` a live session searches each frame large enough for fast mode to
    /// shrink first where the board was in the frame before (a ``RegionTracker`` with its defaults:
    /// frames come one after another); in ``DetectionMode/full`` every frame is searched whole.
    init(detector: MarkerDetector, rule: ValidityRule, tracker: RegionTracker?) {
        self.detector = detector
        self.rule = rule
        self.tracker = Mutex(tracker)
    }

    /// Starts the detection thread.
    ///
    /// - Parameter handle: Called on the detection thread with each frame's outcome, in order.
    ///   Keep it short: detection waits for it.
    func start(_ handle: @escaping @Sendable (Outcome) -> Void) {
        let first = started.withLock { s -> Bool in
            defer { s = true }
            return !s
        }
        precondition(first, "LiveShutter.start called twice")
        let thread = Thread { [self] in
            while let submitted = slot.take() {
                handle(detect(submitted))
            }
            done.signal()
        }
        thread.name = "marker-shutter detection"
        thread.start()
    }

    /// Hands over a frame as it arrives, with the index the session gave it and its arrival on the
    /// session clock. Never blocks: the frame replaces one still waiting.
    func submit(_ frame: SourceFrame, index: Int, arrivedAt: Duration) {
        slot.put(Submitted(index: index, frame: frame, time: frame.time, arrivedAt: arrivedAt))
    }

    /// Hands over the time of a frame that cannot be read (a replayed file that is missing or
    /// corrupt): its turn comes after the frames before it, as ``Outcome/missing(_:)``. Never blocks.
    func pass(_ time: FrameTime, arrivedAt: Duration) {
        slot.put(Submitted(index: -1, frame: nil, time: time, arrivedAt: arrivedAt))
    }

    /// No more frames: detection finishes the frame waiting, if any, then stops.
    func finish() {
        slot.close()
    }

    /// Blocks until detection has stopped after ``finish()``.
    func waitUntilDone() {
        done.wait()
        done.signal()  // let later calls return at once too
    }

    /// Frames replaced while detection was busy.
    var framesSkipped: Int { slot.replacedCount }

    private func detect(_ submitted: Submitted) -> Outcome {
        guard let frame = submitted.frame else { return .missing(submitted.time) }
        let detection: Detection
        do {
            detection = try detect(frame.pixels)
        } catch {
            return .failed(index: submitted.index)
        }
        var observation = FrameObservation(index: submitted.index, time: frame.time, sequence: frame.sequence,
                                           file: frame.file, detection: detection, rule: rule, pixels: frame.pixels)
        observation.controls = frame.controls
        return .detected(observation, pixels: frame.pixels, arrivedAt: submitted.arrivedAt,
                         latency: frame.receivedAt.duration(to: .now))
    }

    /// Detects as the tracker says (``RegionTracker/search(_:with:)``), or the whole image in full
    /// mode. Only the detection thread calls this, so holding the tracker's lock through the
    /// detection keeps nothing waiting.
    private func detect(_ pixels: PixelBuffer) throws(DetectionError) -> Detection {
        try tracker.withLock { (tracker) throws(DetectionError) -> Detection in
            guard tracker != nil else { return try detector.detect(pixels) }
            return try tracker!.search(pixels, with: detector)
        }
    }
}

/// Counts, rates and latencies of a live session.
public struct LiveStatistics: Sendable {
    /// Frames the source delivered.
    public internal(set) var framesReceived = 0
    /// Frames detected.
    public internal(set) var framesDetected = 0
    /// Frames replaced while detection was busy.
    public internal(set) var framesSkipped = 0
    /// Frames the camera reported lost before delivering.
    public internal(set) var framesLostByCamera = 0
    /// Frames whose detection failed (for instance an image too small).
    public internal(set) var detectionFailures = 0
    /// Frames dropped because their timestamp went back.
    public internal(set) var framesOutOfOrder = 0
    /// Replayed frames that are missing or cannot be read (their time passed all the same).
    public internal(set) var framesMissing = 0
    /// The last detection's duration.
    public var lastDetectionTime: Duration?
    /// The last detection's marker and board-corner counts.
    public var lastCounts = (markers: 0, corners: 0)
    private var recentArrivals: [FrameTime] = []
    private var latencies: [Duration] = []
    private static let latencyLimit = 100_000

    /// Frames per second delivered by the source over the last second or so of frame timestamps.
    public var framesPerSecond: Double? {
        guard let first = recentArrivals.first, let last = recentArrivals.last, recentArrivals.count > 1 else { return nil }
        let value = first.duration(to: last).inSeconds
        return value > 0 ? Double(recentArrivals.count - 1) / value : nil
    }

    /// A latency percentile (0...1) over the frames detected so far (the latest 100,000).
    public func latency(percentile fraction: Double) -> Duration? {
        guard !latencies.isEmpty else { return nil }
        let sorted = latencies.sorted()
        return sorted[min(sorted.count - 1, Int(Double(sorted.count) * fraction))]
    }

    mutating func noteReceived(_ frame: SourceFrame) {
        noteArrival(at: frame.time, dropped: frame.droppedBefore)
    }

    /// A frame arrived at `time`, with `dropped` frames lost by the camera before it.
    mutating func noteArrival(at time: FrameTime, dropped: Int) {
        framesReceived += 1
        framesLostByCamera += dropped
        recentArrivals.append(time)
        if recentArrivals.count > 31 { recentArrivals.removeFirst(recentArrivals.count - 31) }
    }

    mutating func noteDetected(_ observation: FrameObservation, latency: Duration) {
        framesDetected += 1
        lastDetectionTime = observation.detection.duration
        lastCounts = (observation.detection.markers.count, observation.detection.boardCorners.count)
        if latencies.count == Self.latencyLimit { latencies.removeFirst(Self.latencyLimit / 10) }
        latencies.append(latency)
    }
}
