import Foundation
import MarkerDetection

/// Disjoint halves of a calibration's views solved on their own, several times over: how far apart
/// their projections are (``ProjectionDifference``) against what their uncertainty maps alone
/// explain, a verdict in plain words, and the held-out error.
///
/// The halves: ``defaultSplits`` splits of the final solve's views, each a random halving drawn
/// from its own fixed seed (so the same folder gives the same splits on every run, and renaming
/// the files does not choose which views go together). Each half is solved again from the
/// calibration itself, over the corners it kept, by plain least squares.
///
/// What the uncertainties explain: at each grid point, 2.45 times the two maps' values combined
/// (the square root of the sum of their squares; 2.45 standard deviations hold 95% of a
/// two-dimensional normal error), summed up by its 95th percentile over the grid.
///
/// The held-out error: each half's camera with the other half's views, each view's pose fitted
/// again with the camera held (the BabelCalib protocol); the RMS over every corner of both ways.
///
/// The verdict is the one most splits give (the median split's when they are split evenly); the
/// splits' spread is reported beside it.
public struct CrossValidation: Sendable, Hashable {
    /// What the comparison says.
    public enum Verdict: Sendable, Hashable, CustomStringConvertible {
        /// The halves are within ``CrossValidation/closeEnough``, or within what their uncertainties
        /// explain and ``CrossValidation/farApart``.
        case consistent
        /// Each half is sure of itself, yet they differ by more than their uncertainties explain:
        /// something all the views of a half share and the halves do not (the lens model, a board
        /// that bends, corners biased differently), which a richer model may or may not explain.
        case halvesDisagree(Double)
        /// The halves disagree with this model and agree with the richer one named: the model does
        /// not fit the lens.
        case modelDoesNotFit(richer: CameraModel)
        /// The halves differ by this many pixels (95th percentile) and each is unsure: the views
        /// do not pin the camera down.
        case tooFewViews(Double)

        /// The verdict in plain words, of two halves.
        public var description: String { sentence(of: "the halves") }

        /// The verdict in plain words, naming what was compared (`the halves`, `the calibrations`).
        public func sentence(of subject: String) -> String {
            switch self {
            case .consistent: "consistent"
            case .halvesDisagree(let pixels):
                "\(subject) disagree: they differ by \(ProjectionWording.amount(pixels)), more than their uncertainties explain"
            case .modelDoesNotFit(let richer):
                "the model does not fit: \(subject) disagree with it and agree with `--model \(richer)`"
            case .tooFewViews(let pixels): "too few views: \(subject) differ by \(ProjectionWording.amount(pixels))"
            }
        }

        /// A one-word name for files: `consistent`, `halves-disagree`, `model-does-not-fit`,
        /// `too-few-views`.
        public var key: String {
            switch self {
            case .consistent: "consistent"
            case .halvesDisagree: "halves-disagree"
            case .modelDoesNotFit: "model-does-not-fit"
            case .tooFewViews: "too-few-views"
            }
        }
    }

    /// `calibrate` cross-validates by default from this many views in the final solve (4 in each
    /// half).
    public static let defaultMinimumViews = 8
    /// Halves this close (95th percentile, in pixels) are consistent whatever their uncertainties say.
    public static let closeEnough = 0.5
    /// Halves may differ by up to this many times what their uncertainties explain.
    public static let explainedFactor = 2.0
    /// Halves further apart than this (95th percentile, in pixels) are not consistent whatever
    /// their uncertainties explain: a camera that may be this far off is no calibration to rely on.
    public static let farApart = 3.0
    /// A half whose own uncertainty (95th percentile of its map) exceeds this many pixels is
    /// called unsure.
    public static let unsureLevel = 1.0

    /// One split: two halves, solved and compared.
    public struct Split: Sendable, Hashable {
        /// The names of the views in each half.
        public var halves: [[String]]
        /// How far apart the halves project.
        public var difference: ProjectionDifference
        /// Each half's uncertainty map, at the whole set's distance.
        public var maps: [UncertaintyMap]
        /// What the two maps explain (the 95th percentile described above), in pixels.
        public var explained95: Double
        /// The held-out RMS reprojection error, in pixels.
        public var heldOutRMS: Double
        /// The RMS of the two halves' own solves over their own corners, in pixels.
        public var halvesRMS: [Double]
        /// This split's verdict.
        public var verdict: Verdict
    }

    /// The splits `calibrate` makes.
    public static let defaultSplits = 3
    /// The seed of the first split's halving; each next split's is one more.
    public static let seed: UInt64 = 0x6861_6C76_6573

    /// The splits, in the order of their seeds.
    public var splits: [Split]
    /// The verdict most splits give.
    public var verdict: Verdict

    /// The split whose difference is the median of the splits' (the lower one of an even count):
    /// the one the summary describes.
    public var median: Split {
        let order = splits.indices.sorted {
            splits[$0].difference.percentile95 < splits[$1].difference.percentile95
                || (splits[$0].difference.percentile95 == splits[$1].difference.percentile95 && $0 < $1)
        }
        return splits[order[(order.count - 1) / 2]]
    }

    /// The median split's halves.
    public var halves: [[String]] { median.halves }
    /// The median split's difference.
    public var difference: ProjectionDifference { median.difference }
    /// The median split's maps.
    public var maps: [UncertaintyMap] { median.maps }
    /// What the median split's maps explain, in pixels.
    public var explained95: Double { median.explained95 }
    /// The held-out RMS reprojection error over every split, in pixels.
    public var heldOutRMS: Double {
        let finite = splits.map(\.heldOutRMS).filter(\.isFinite)
        return finite.isEmpty ? .nan : (finite.map { $0 * $0 }.reduce(0, +) / Double(finite.count)).squareRoot()
    }
    /// The median split's halves' RMS errors.
    public var halvesRMS: [Double] { median.halvesRMS }
    /// The smallest and largest difference of the splits (95th percentile), in pixels; `nil` when
    /// none is a number.
    public var differenceRange: ClosedRange<Double>? {
        let values = splits.map(\.difference.percentile95).filter(\.isFinite)
        guard let low = values.min(), let high = values.max() else { return nil }
        return low...high
    }

    /// The verdict for halves `difference95` apart (95th percentile), whose uncertainties explain
    /// `explained95` and reach `unsure` pixels (the larger of the two maps' 95th percentiles):
    /// consistent within ``closeEnough``, or within ``explainedFactor`` times what the
    /// uncertainties explain and ``farApart``; otherwise too few views when either half is unsure
    /// (over ``unsureLevel``), and halves that disagree when both are sure of themselves (whether
    /// the model is what they disagree on is for a richer model to say:
    /// ``CalibrationReport/crossValidate(_:)``).
    public static func verdict(difference95: Double, explained95: Double, unsure: Double) -> Verdict {
        if difference95 <= closeEnough || (difference95 <= explainedFactor * explained95 && difference95 <= farApart) {
            return .consistent
        }
        return unsure > unsureLevel ? .tooFewViews(difference95) : .halvesDisagree(difference95)
    }

    /// The halves of split `split` of `count` views: a random halving drawn from ``seed`` plus
    /// `split`, each half in the views' order.
    static func halves(of count: Int, split: Int) -> [[Int]] {
        let order = SeededGenerator.shuffled(count, seed: seed &+ UInt64(split))
        return [stride(from: 0, to: count, by: 2).map { order[$0] }.sorted(), stride(from: 1, to: count, by: 2).map { order[$0] }.sorted()]
    }

    /// Cross-validates `run` with `splits` splits, at the distance of `run`'s own uncertainty map
    /// (`distance`).
    ///
    /// - Throws: ``CalibrationError/tooFewViews(usable:needed:model:rejected:)`` when a half has
    ///   fewer views than the model needs; what a solve throws.
    public static func run(_ run: CalibrationRun, distance: Double, splits: Int = defaultSplits) throws(CalibrationError) -> CrossValidation {
        let model = run.camera.model
        guard run.views.count / 2 >= model.minimumViews else {
            throw .tooFewViews(usable: run.views.count / 2, needed: model.minimumViews, model: model, rejected: [])
        }
        var made: [Split] = []
        for split in 0..<max(1, splits) {
            made.append(try Self.split(run, halves: halves(of: run.views.count, split: split), distance: distance))
        }
        return CrossValidation(splits: made, verdict: majority(made))
    }

    /// The verdict most of `splits` give; the median split's when none has more than the others.
    static func majority(_ splits: [Split]) -> Verdict {
        let keys = Dictionary(grouping: splits, by: \.verdict.key)
        let most = keys.values.map(\.count).max() ?? 0
        let leaders = keys.filter { $0.value.count == most }
        let median = CrossValidation(splits: splits, verdict: .consistent).median
        if leaders.count == 1, let leader = leaders.first, leader.key != median.verdict.key {
            // The leader's split closest to the median's difference speaks for it.
            return leader.value.min {
                abs($0.difference.percentile95 - median.difference.percentile95)
                    < abs($1.difference.percentile95 - median.difference.percentile95)
            }!.verdict
        }
        return median.verdict
    }

    /// One split: the halves of `run` at `halves` (view indices) solved and compared.
    static func split(_ run: CalibrationRun, halves: [[Int]], distance: Double) throws(CalibrationError) -> Split {
        let solved = try halves.map { (half) throws(CalibrationError) -> CalibrationRun in
            try CameraCalibration.resolve(run, views: half, fullCovariance: true)
        }
        let maps = solved.map { ProjectionUncertainty(run: $0, distance: distance)?.map() }
        let difference = ProjectionDifference(from: solved[0].camera, to: solved[1].camera, distance: distance)
        var explained: [Double] = []
        if let a = maps[0], let b = maps[1] {
            explained = zip(a.values, b.values).map { 2.45 * ($0 * $0 + $1 * $1).squareRoot() }
        }
        let explained95 = explained.isEmpty ? .nan : ProjectionDifference.percentile(explained, 0.95)
        let unsure = maps.compactMap { $0.map { ProjectionDifference.percentile($0.values, 0.95) } }.max() ?? .infinity
        var squared = 0.0, count = 0
        for (camera, other) in [(solved[0], solved[1]), (solved[1], solved[0])] {
            for index in other.views.indices {
                let errors = PoseFit.residuals(
                    other.views[index].view, camera: camera.camera,
                    rotation: other.poseRotations[index], translation: other.poseTranslations[index])
                squared += errors.reduce(0, +)
                count += errors.count
            }
        }
        return Split(
            halves: halves.map { $0.map { run.views[$0].view.name } }, difference: difference, maps: maps.compactMap { $0 },
            explained95: explained95, heldOutRMS: count > 0 ? (squared / Double(count)).squareRoot() : .nan,
            halvesRMS: solved.map(\.rms),
            verdict: verdict(difference95: difference.percentile95, explained95: explained95, unsure: unsure))
    }
}
