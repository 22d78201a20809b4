import Foundation
import MarkerDetection

/// Two calibrations of one camera (two sessions, or one camera over time) compared: how far apart
/// they project over the image (``ProjectionDifference``, the rotation between them fitted), each
/// one's projection uncertainty beside it, and the verdict in ``CrossValidation``'s words.
public struct CalibrationComparison: Sendable {
    /// The first calibration.
    public var first: SavedCalibration
    /// The second.
    public var second: SavedCalibration
    /// How far apart they project.
    public var difference: ProjectionDifference
    /// What the two uncertainty maps explain (as in ``CrossValidation``), in pixels; not a number
    /// when either file has no map.
    public var explained95: Double
    /// The verdict.
    public var verdict: CrossValidation.Verdict

    /// Compares `first` with `second`, at the first's map distance.
    ///
    /// - Throws: ``ComparisonError/differentImageSizes(_:_:)`` or ``ComparisonError/differentModels(_:_:)``.
    public init(_ first: SavedCalibration, _ second: SavedCalibration) throws(ComparisonError) {
        guard first.camera.imageSize == second.camera.imageSize else {
            throw .differentImageSizes("\(first.camera.imageSize) in \(first.path)", "\(second.camera.imageSize) in \(second.path)")
        }
        // OpenCV's pinhole models are one family (4, 5 or 8 coefficients: the fewer are the more with
        // zeros), so a Kalibr radtan camera compares with a pinhole one; the fisheye model is another.
        guard first.camera.model == second.camera.model || (first.camera.model != .fisheye && second.camera.model != .fisheye) else {
            throw .differentModels("\(first.camera.model) in \(first.path)", "\(second.camera.model) in \(second.path)")
        }
        self.first = first
        self.second = second
        let distance = first.uncertainty?.distance ?? second.uncertainty?.distance ?? 1
        difference = ProjectionDifference(from: first.camera, to: second.camera, distance: distance)
        var unsure = Double.infinity
        if let a = first.uncertainty, let b = second.uncertainty {
            var explained: [Double] = []
            for row in 0..<difference.rows {
                for column in 0..<difference.columns {
                    let point = difference.position(column: column, row: row)
                    let u = a.value(at: point), v = b.value(at: point)
                    explained.append(2.45 * (u * u + v * v).squareRoot())
                }
            }
            explained95 = ProjectionDifference.percentile(explained, 0.95)
            unsure = max(ProjectionDifference.percentile(a.values, 0.95), ProjectionDifference.percentile(b.values, 0.95))
        } else {
            explained95 = .nan
        }
        verdict = CrossValidation.verdict(difference95: difference.percentile95, explained95: explained95, unsure: unsure)
    }

    /// Why no verdict can be given, or `nil` when one can: a file without an uncertainty map (another
    /// tool's) leaves unknown whether a difference beyond ``CrossValidation/closeEnough`` is more
    /// than the calibrations can know.
    public var unjudged: String? {
        guard verdict != .consistent, first.uncertainty == nil || second.uncertainty == nil else { return nil }
        let missing = [first, second].filter { $0.uncertainty == nil }.map { "\($0.path) (\($0.format))" }
        return "\(missing.joined(separator: " and ")) \(missing.count == 1 ? "has" : "have") no uncertainty map, so whether "
            + "\(ProjectionWording.pixels(difference.percentile95)) px apart (95th percentile) is more than the calibrations can know "
            + "cannot be told; within \(ProjectionWording.pixels(CrossValidation.closeEnough)) px they would be consistent whatever it is"
    }

    /// The lines `marker-shutter compare` prints.
    public var lines: [String] {
        let p = ProjectionWording.pixels
        func corners(_ values: [Double]) -> String {
            zip(UncertaintyMap.cornerNames, values).map { "\($0) \(p($1))" }.joined(separator: ", ")
        }
        var lines = [
            "projection difference (rotation between them fitted), px: mean \(p(difference.mean)), "
                + "95th percentile \(p(difference.percentile95)), centre \(p(difference.centre))",
            "  corners: " + corners(difference.corners),
        ]
        for (name, side) in [("first", first), ("second", second)] {
            if let map = side.uncertainty {
                lines.append(
                    "\(name) (\(side.path)): uncertainty centre \(p(map.centre)) px, corners " + corners(map.corners)
                        + ", \(Int((map.share() * 100).rounded()))% of the image under 0.5 px")
            } else {
                lines.append("\(name) (\(side.path)): no uncertainty map in the file (\(side.format))")
            }
        }
        if let unjudged {
            lines.append("verdict: not judged: " + unjudged)
        } else {
            let explained = explained95.isFinite ? "their uncertainties explain \(p(explained95)) px" : "their uncertainties are unknown"
            lines.append("verdict: " + verdict.sentence(of: "the calibrations") + " (\(explained))")
        }
        return lines
    }
}
