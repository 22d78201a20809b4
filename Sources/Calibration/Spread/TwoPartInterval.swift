/// The arithmetic of an interval with two parts: the corners' scatter (a covariance's variance)
/// and the spread between views beyond it (a jackknife's), shared by one camera's parameters and a
/// rig's poses.
enum TwoPartInterval {
    /// The standard deviation a jackknife variance shows beyond the scatter's variance: the root
    /// of their difference when the jackknife's exceeds the scatter's by more than a variance
    /// estimated with `degreesOfFreedom` exceeds the true one 1 time in 20 (the chi-square test at
    /// 95%), and otherwise 0 (the scatter explains what the jackknife saw).
    static func spread(jackknifeVariance jackknife: Double, noiseVariance noise: Double, degreesOfFreedom: Int) -> Double {
        guard degreesOfFreedom > 0 else { return 0 }
        let limit = StudentT.chiSquare95Ratio(degreesOfFreedom: degreesOfFreedom)
        let beyondChance = jackknife.isFinite && (noise > 0 ? jackknife > limit * noise : jackknife > 0)
        return beyondChance ? (jackknife - max(noise, 0)).squareRoot() : 0
    }

    /// Half the width of the 95% interval over both parts. Without a spread, 1.96 standard
    /// deviations of the scatter. With one, Student's t times the root of the two variances' sum,
    /// at the degrees of freedom Welch and Satterthwaite give the sum (the scatter's counted as
    /// infinitely many: it comes from thousands of corners; the spread's are the jackknife's).
    static func halfWidth95(standardDeviation: Double, spread: Double, degreesOfFreedom: Int) -> Double {
        guard spread > 0, degreesOfFreedom > 0 else { return 1.96 * standardDeviation }
        let excess = spread * spread, variance = standardDeviation * standardDeviation + excess
        let freedom = Double(degreesOfFreedom) * (variance / excess) * (variance / excess)
        return StudentT.quantile975(degreesOfFreedom: freedom) * variance.squareRoot()
    }
}
