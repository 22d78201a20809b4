import Foundation
import MarkerShutter

/// The JSON the view serves: `GET /state`, and the `state`, `shutter` and `picture` events; for a
/// rig, `rig` holds the rig's state, each camera's and the sets saved; with `live --calibrate`,
/// `calibration` holds the newest background solve.
///
/// Keys are snake_case as in the timeline rows; durations are in seconds, the detection time in
/// milliseconds (`detect_ms`, as in `process`'s rows).
struct StateDocument: Encodable {
    struct Picture: Encodable {
        let number: Int
        let file: String
        let frame: Int
        let trigger: String
        let heldFor: Double?
        let thumbnail: String?

        init(_ picture: ViewPicture, withThumbnail: Bool) {
            number = picture.number
            file = picture.fileName
            frame = picture.frameIndex
            trigger = picture.trigger.rawValue
            heldFor = picture.holdAge.map(\.inSeconds)
            thumbnail = withThumbnail ? picture.thumbnailDataURL : nil
        }
    }

    /// A change of the shutter's phase: the `shutter` event.
    struct PhaseChange: Encodable {
        let frame: Int
        let t: Double
        let shutter: String

        init(_ state: ViewState) {
            frame = state.frameIndex
            t = state.time.seconds
            shutter = state.phase.description
        }
    }

    /// A change of the rig, as the `rig` event tells it.
    struct RigChange: Encodable {
        let t: Double?
        let enabled: Bool
        let apartMs: Double?
        let refusal: String?

        init(_ change: ViewFeed.RigChange) {
            t = change.time?.seconds
            enabled = change.enabled
            apartMs = change.apart.map { ($0.inSeconds * 10_000).rounded() / 10 }
            refusal = change.refusal
        }
    }

    struct Pictures: Encodable {
        let taken: Int
        let recent: [Picture]?
    }

    struct Coverage: Encodable {
        let x, y, size, skew: Double
    }

    /// A rig: its state, each camera's, and the sets saved.
    struct Rig: Encodable {
        struct Camera: Encodable {
            let name: String
            let state: String
            let badge: String
            let frame: Int?
            let t: Double?
            let markers: Int?
            let corners: Int?
        }

        struct SavedSet: Encodable {
            let number: Int
            let sidecar: String
            let images: [String]
            let apartMs: Double
            let trigger: String
        }

        struct Sets: Encodable {
            let taken: Int
            let recent: [SavedSet]
        }

        let enabled: Bool
        let badge: String
        let apartMs: Double?
        let refusal: String?
        let t: Double?
        let cameras: [Camera]
        let sets: Sets

        init(_ rig: RigView) {
            enabled = rig.isEnabled
            badge = rig.text
            apartMs = rig.state?.set.map { ($0.largestDifference.inSeconds * 10_000).rounded() / 10 }
            refusal = rig.state?.refusal.map(String.init(describing:))
            t = rig.time?.seconds
            cameras = rig.cameras.map { camera in
                Camera(name: camera.name, state: camera.phase.description, badge: camera.stateText, frame: camera.frameIndex,
                       t: camera.time?.seconds, markers: camera.detection?.markers.count,
                       corners: camera.detection?.boardCorners.count)
            }
            sets = Sets(taken: rig.setsTaken, recent: rig.recentSets.map { set in
                SavedSet(number: set.number, sidecar: set.sidecar, images: set.images, apartMs: (set.apart * 10_000).rounded() / 10,
                         trigger: set.trigger.rawValue)
            })
        }
    }

    /// The newest background calibration (`live --calibrate`): the verdict in the terminal's
    /// words, its kind and reasons, the RMS error, fx fy cx cy with their 95% intervals, the
    /// advice, and where its uncertainty map is served (``mapPath``, changing with each solve).
    struct Calibration: Encodable {
        struct Parameter: Encodable {
            let name: String
            let value: Double?
            let interval95: Double?
        }

        /// How many solves there have been.
        let solves: Int
        let views: Int?
        /// The pictures given to the solve (`views` may be fewer: some set aside).
        let pictures: Int?
        let rms: Double?
        let verdict: String?
        let kind: String?
        let reasons: [String]?
        let parameters: [Parameter]?
        let advice: [String]?
        /// The map's address with the solve's number, so that a page reloads it on each solve.
        let map: String?
        /// Why the newest solve failed, when it did.
        let error: String?
        /// A rig's: the summary lines `calibrate` prints.
        let summary: [String]?

        init?(_ snapshot: ViewFeed.Snapshot) {
            guard snapshot.calibration != nil || snapshot.rigCalibration != nil || snapshot.calibrationFailure != nil else { return nil }
            let calibration = snapshot.calibration
            solves = snapshot.calibrationSolves
            views = calibration?.views
            pictures = calibration?.pictures
            rms = calibration.flatMap { $0.rms.isFinite ? $0.rms : nil }
            verdict = calibration?.verdict
            kind = calibration?.kind
            reasons = calibration?.reasons
            parameters = calibration?.parameters.map {
                Parameter(name: $0.name, value: $0.value.isFinite ? $0.value : nil, interval95: $0.interval95)
            }
            advice = calibration?.advice
            map = calibration?.map == nil ? nil : ViewServer.calibrationMapPath + "?solve=\(snapshot.calibrationSolves)"
            error = snapshot.calibrationFailure
            summary = snapshot.rigCalibration
        }
    }

    let running: Bool
    let stopReason: String?
    let frame: Int?
    let t: Double?
    let shutter: String?
    let badge: String?
    let heldFor: Double?
    let holdLeft: Double?
    let hold: Double?
    let fps: Double?
    let detectMs: Double?
    let markers: Int?
    let corners: Int?
    let coverage: Coverage?
    let pictures: Pictures
    let rig: Rig?
    let calibration: Calibration?

    /// The document for a feed's snapshot; the recent pictures (with thumbnails) only when asked.
    init(_ snapshot: ViewFeed.Snapshot, withPictures: Bool) {
        let report = snapshot.report
        running = snapshot.finishReason == nil
        stopReason = snapshot.finishReason
        frame = report?.frameIndex
        t = report?.time.seconds
        shutter = report?.phase.description
        badge = report?.shutterText
        heldFor = report?.holdAge?.inSeconds
        holdLeft = report?.holdRemaining?.inSeconds
        hold = report?.hold.inSeconds
        fps = report?.framesPerSecond
        detectMs = report?.detectionTime.map { $0.inSeconds * 1000 }
        markers = report?.markers
        corners = report?.corners
        coverage = report?.coverage.map { Coverage(x: $0.x, y: $0.y, size: $0.size, skew: $0.skew) }
        pictures = Pictures(
            taken: snapshot.picturesTaken,
            recent: withPictures ? snapshot.recent.map { Picture($0, withThumbnail: true) } : nil)
        rig = snapshot.rig.map(Rig.init)
        calibration = Calibration(snapshot)
    }

    /// One line of JSON, keys sorted; values not known are left out.
    static func json(_ value: some Encodable) -> String {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(value) else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }
}
