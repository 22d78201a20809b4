import MarkerDetection
import MarkerShutter
import Synchronization

/// What the live session hands the browser view, and what the view's clients read.
///
/// The session calls ``show(_:)`` with every frame, ``update(_:)`` with every report and
/// ``add(_:)`` with every picture saved, from any thread; none of them waits or encodes. Each
/// viewer reads only the newest frame and the newest report when it is ready for one, so a slow
/// viewer skips values instead of queueing them, and frames are encoded only while someone watches.
/// ``finish(reason:)`` ends every stream.
public final class ViewFeed: Sendable {
    private struct State {
        var frame: (version: Int, frame: ViewFrame)?
        var encoded: (version: Int, jpeg: [UInt8])?
        var report: ViewState?
        /// Every change of the shutter's phase, oldest first (the last ``phaseChangeLimit``).
        var phaseChanges: [ViewState] = []
        var phaseChangeCount = 0
        var recent: [ViewPicture] = []
        var picturesTaken = 0
        var finishReason: String?
        var viewers = 0
        var listeners = 0
        var framesEncoded = 0
        /// The rig, when the feed shows one.
        var rig: RigView?
        /// Every change of the rig (enabled or not, or its reason), oldest first (the last ``phaseChangeLimit``).
        var rigChanges: [RigChange] = []
        var rigChangeCount = 0
        /// The newest background calibration, and how many solves have been shown.
        var calibration: ViewCalibration?
        var calibrationSolves = 0
        /// The newest calibration's uncertainty map as PNG, encoded once per solve.
        var calibrationMap: [UInt8]?
        /// Why the newest solve failed, when it did (the calibration shown is the one before).
        var calibrationFailure: String?
        /// A rig's newest calibration: the summary lines `calibrate` prints for a rig.
        var rigCalibration: [String]?
    }

    /// A change of the rig, as every event client receives it, however slow: turned enabled or
    /// disabled, or disabled for another reason.
    struct RigChange: Sendable, Equatable {
        /// The rig's newest frame time at the change.
        let time: FrameTime?
        let enabled: Bool
        /// With the rig enabled: how far apart the set's frames are.
        let apart: Duration?
        /// With the rig disabled: why, in the terminal's words.
        let refusal: String?
    }

    /// How many pictures the page lists.
    public static let recentPictureCount = 5
    /// How many of the shutter's phase changes are kept for clients that join late.
    public static let phaseChangeLimit = 4096

    private let state = Mutex(State())
    let frames = ChangeSignal()
    let updates = ChangeSignal()
    let audience = ChangeSignal()
    /// Encodes one frame at a time, at a lower priority than detection; a viewer asking for a
    /// frame being encoded waits for it.
    private let encoder = FrameEncoder()

    /// An empty feed: no frame, no report, no pictures.
    public init() {}

    /// Hands over the newest frame, replacing the previous one. Never encodes.
    public func show(_ frame: ViewFrame) {
        state.withLock { s in
            guard s.finishReason == nil else { return }
            s.frame = ((s.frame?.version ?? 0) + 1, frame)
        }
        frames.change()
    }

    /// Hands over the newest report.
    ///
    /// A report whose shutter phase differs from the one before is also kept as a phase change,
    /// which every event client receives, however slow: reports between changes may be skipped,
    /// changes never are.
    public func update(_ report: ViewState) {
        state.withLock { s in
            if s.report?.phase != report.phase {
                s.phaseChanges.append(report)
                s.phaseChangeCount += 1
                if s.phaseChanges.count > Self.phaseChangeLimit { s.phaseChanges.removeFirst() }
            }
            s.report = report
        }
        updates.change()
    }

    /// Tells of a picture saved; the page lists the last ``recentPictureCount``.
    public func add(_ picture: ViewPicture) {
        state.withLock { s in
            s.picturesTaken += 1
            s.recent.append(picture)
            if s.recent.count > Self.recentPictureCount { s.recent.removeFirst(s.recent.count - Self.recentPictureCount) }
        }
        updates.change()
    }

    /// Tells of a background solve (`live --calibrate`): the page shows `calibration`, and its
    /// uncertainty map, encoded here as PNG once, is served until the next solve.
    public func show(_ calibration: ViewCalibration) {
        let png = calibration.map.flatMap { try? ImageFile.encode($0, as: .png) }
        state.withLock { s in
            guard s.finishReason == nil else { return }
            s.calibration = calibration
            s.calibrationSolves += 1
            s.calibrationMap = png
            s.calibrationFailure = nil
        }
        updates.change()
    }

    /// Tells of a background solve that failed: the page says why beside the calibration before.
    public func calibrationFailed(_ reason: String) {
        state.withLock { s in
            guard s.finishReason == nil else { return }
            s.calibrationFailure = reason
        }
        updates.change()
    }

    /// Tells of a rig's background solve: the page shows its summary `lines`.
    public func showRigCalibration(_ lines: [String]) {
        state.withLock { s in
            guard s.finishReason == nil else { return }
            s.rigCalibration = lines
            s.calibrationSolves += 1
            s.calibrationFailure = nil
        }
        updates.change()
    }

    /// The newest calibration's uncertainty map as PNG; `nil` before the first solve.
    var calibrationMap: [UInt8]? { state.withLock { $0.calibrationMap } }

    /// Ends the view: streams send what is newest and close, the page shows `reason`.
    public func finish(reason: String) {
        state.withLock { s in
            if s.finishReason == nil { s.finishReason = reason }
        }
        updates.change()
        audience.change()  // ends a wait for the first client
        frames.close()
        updates.close()
    }

    /// Returns once a client reads the image or the event stream, or the feed has ended.
    public func waitForAudience() async {
        while true {
            let seen = audience.version
            if state.withLock({ $0.viewers + $0.listeners > 0 || $0.finishReason != nil }) { return }
            if await audience.wait(after: seen) == nil { return }
        }
    }

    /// Whether anyone watches the image stream now; a session may skip preparing frames otherwise.
    public var isWatched: Bool { state.withLock { $0.viewers > 0 } }

    /// Clients reading the image stream now.
    public var viewerCount: Int { state.withLock { $0.viewers } }

    /// Clients reading the event stream now.
    public var listenerCount: Int { state.withLock { $0.listeners } }

    /// Frames encoded for viewers so far (each at most once, however many watch).
    public var framesEncoded: Int { state.withLock { $0.framesEncoded } }

    // MARK: - For the server

    struct Snapshot {
        var report: ViewState?
        var phaseChanges: [ViewState]
        var phaseChangeCount: Int
        var recent: [ViewPicture]
        var picturesTaken: Int
        var finishReason: String?
        var rig: RigView?
        var rigChanges: [RigChange] = []
        var rigChangeCount = 0
        var calibration: ViewCalibration?
        var calibrationSolves = 0
        var calibrationFailure: String?
        var rigCalibration: [String]?
    }

    var snapshot: Snapshot {
        state.withLock {
            Snapshot(report: $0.report, phaseChanges: $0.phaseChanges, phaseChangeCount: $0.phaseChangeCount,
                     recent: $0.recent, picturesTaken: $0.picturesTaken, finishReason: $0.finishReason, rig: $0.rig,
                     rigChanges: $0.rigChanges, rigChangeCount: $0.rigChangeCount, calibration: $0.calibration,
                     calibrationSolves: $0.calibrationSolves, calibrationFailure: $0.calibrationFailure,
                     rigCalibration: $0.rigCalibration)
        }
    }

    /// Whether the feed shows a rig (``showRig(cameras:folder:)`` was called).
    var showsRig: Bool { state.withLock { $0.rig != nil } }

    /// Changes the rig the feed shows, and with it the frame when `change` says the picture changed;
    /// never draws or encodes.
    func changeRig(_ change: (inout RigView) -> Bool, start: () -> RigView) {
        let pictureChanged = state.withLock { s -> Bool in
            guard s.finishReason == nil else { return false }
            var rig = s.rig ?? start()
            let before = (rig.state?.isEnabled, rig.state?.refusal)
            let changed = change(&rig)
            s.rig = rig
            if let state = rig.state, before.0 != state.isEnabled || before.1?.kind != state.refusal?.kind {
                s.rigChanges.append(RigChange(time: rig.time, enabled: state.isEnabled, apart: state.set?.largestDifference,
                                              refusal: state.refusal.map(String.init(describing:))))
                s.rigChangeCount += 1
                if s.rigChanges.count > Self.phaseChangeLimit { s.rigChanges.removeFirst() }
            }
            if changed { s.frame = ((s.frame?.version ?? 0) + 1, .sideBySide(rig.panels)) }
            return changed
        }
        if pictureChanged { frames.change() }
        updates.change()
    }

    /// The newest frame's version, 0 before the first.
    var frameVersion: Int { state.withLock { $0.frame?.version ?? 0 } }

    /// The newest frame as JPEG, encoded once per frame (on the encoder's thread); `nil` before the first frame.
    func newestJPEG(quality: Int) async throws(ViewFrameError) -> (version: Int, jpeg: [UInt8])? {
        try await encoder.run { [self] in
            Result { () throws(ViewFrameError) in try encodeNewest(quality: quality) }
        }.get()
    }

    /// Encodes the newest frame unless it is encoded already; on the encoder's thread only.
    private func encodeNewest(quality: Int) throws(ViewFrameError) -> (version: Int, jpeg: [UInt8])? {
        let (frame, cached) = state.withLock { ($0.frame, $0.encoded) }
        guard let frame else { return nil }
        if let cached, cached.version == frame.version { return cached }
        let jpeg = try frame.frame.encoded(quality: quality)
        state.withLock { s in
            s.encoded = (frame.version, jpeg)
            if frame.frame.isDrawn { s.framesEncoded += 1 }
        }
        return (frame.version, jpeg)
    }

    /// Who reads a long-lived response.
    enum Audience {
        /// The image stream's.
        case viewers
        /// The event stream's.
        case listeners
    }

    func joined(_ audience: Audience) { count(audience, by: 1) }
    func left(_ audience: Audience) { count(audience, by: -1) }

    private func count(_ who: Audience, by change: Int) {
        state.withLock { s in
            switch who {
            case .viewers: s.viewers += change
            case .listeners: s.listeners += change
            }
        }
        audience.change()
    }
}
