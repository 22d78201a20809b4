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
    /// The verdict in ``CrossValidation``'s words (by its rule), or `nil` when there is not enough
    /// to judge (``notJudged`` says why).
    public var verdict: CrossValidation.Verdict?
    /// Why there is no verdict: a calibration without an uncertainty map.
    public var notJudged: String?

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
        if let a = first.uncertainty, let b = second.uncertainty {
            var explained: [Double] = []
            for row in 0..<difference.rows {
                for column in 0..<difference.columns {
                    let point = difference.position(column: column, row: row)
                    let u = a.value(at: point), v = b.value(at: point)
                    explained.append(2.45 * (u * u + v * v).squareRoot())
                }
            }
            explained95 = Self.percentile95(explained)
            let unsure = max(Self.percentile95(a.values), Self.percentile95(b.values))
            verdict = CrossValidation.verdict(difference95: difference.percentile95, explained95: explained95, unsure: unsure)
        } else if difference.percentile95 <= CrossValidation.closeEnough {
            // Consistent whatever the uncertainties: the rule calls halves this close consistent.
            explained95 = .nan
            verdict = .consistent
        } else {
            explained95 = .nan
            let without = [first, second].filter { $0.uncertainty == nil }.map { "\($0.path) (\($0.format))" }
            notJudged = without.joined(separator: " and ") + (without.count == 1 ? " has" : " have")
                + " no uncertainty map, so whether " + ProjectionWording.amount(difference.percentile95)
                + " apart (95th percentile) is more than the calibrations can know cannot be told; within "
                + ProjectionWording.amount(CrossValidation.closeEnough) + " they would be consistent whatever it is"
        }
    }

    /// The 95th percentile of `values`, counting points of no bound (infinite) as the largest.
    static func percentile95(_ values: [Double]) -> Double {
        let sorted = values.filter { !$0.isNaN }.sorted()
        guard !sorted.isEmpty else { return .nan }
        return sorted[min(sorted.count - 1, max(0, Int((Double(sorted.count) * 0.95).rounded(.up)) - 1))]
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
                        + ", \(Int((map.share(under: 1) * 100).rounded()))% of the image under 1 px"
                        + (side.verdict.map { "; its verdict: " + $0 } ?? ""))
            } else {
                lines.append("\(name) (\(side.path)): no uncertainty map in the file (\(side.format))")
            }
        }
        if let verdict, explained95.isFinite {
            lines.append(
                "verdict: " + verdict.sentence(of: "the calibrations") + " (their uncertainties explain "
                    + ProjectionWording.amount(explained95) + ")")
        } else if let verdict {
            lines.append("verdict: " + verdict.sentence(of: "the calibrations") + " (within "
                + ProjectionWording.amount(CrossValidation.closeEnough) + " at the 95th percentile, whatever their uncertainties)")
        } else {
            lines.append("verdict: not enough to judge: " + (notJudged ?? "the uncertainties are unknown"))
        }
        return lines
    }
}
