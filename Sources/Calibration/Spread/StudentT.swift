/// The two quantiles the intervals need: Student's t's 97.5% point (the half-width, in standard
/// deviations, of a 95% interval whose variance is estimated with some degrees of freedom) and the
/// chi-square distribution's 95% point (how far an estimated variance may exceed the true one by
/// chance).
enum StudentT {
    /// t(0.975) for 1 to 30 degrees of freedom.
    private static let table: [Double] = [
        12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
        2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
        2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042,
    ]
    /// The normal distribution's 97.5% point.
    static let normal975 = 1.959964

    /// The 97.5% point for `degreesOfFreedom`, which need not be whole (Welch-Satterthwaite gives
    /// fractions): from the table, linear in 1/dof between its entries, up to 30; beyond, the
    /// Cornish-Fisher expansion's first two terms (within 0.001 of the exact value); 1.96 for
    /// infinitely many.
    static func quantile975(degreesOfFreedom nu: Double) -> Double {
        guard nu >= 1 else { return nu > 0 ? table[0] : .infinity }
        guard nu.isFinite else { return normal975 }
        if nu <= Double(table.count) {
            let lower = Int(nu.rounded(.down)), upper = min(lower + 1, table.count)
            if lower == upper || nu == Double(lower) { return table[lower - 1] }
            let weight = (1 / Double(lower) - 1 / nu) / (1 / Double(lower) - 1 / Double(upper))
            return table[lower - 1] + weight * (table[upper - 1] - table[lower - 1])
        }
        let z = normal975, z3 = z * z * z, z5 = z3 * z * z
        return z + (z3 + z) / (4 * nu) + (5 * z5 + 16 * z3 + 3 * z) / (96 * nu * nu)
    }

    /// The chi-square distribution's 95% point divided by its degrees of freedom: a variance
    /// estimated with `degreesOfFreedom` exceeds the true one by more than this factor 1 time in
    /// 20 (exact to 3 digits up to 30 degrees of freedom, then Wilson and Hilferty's cube).
    static func chiSquare95Ratio(degreesOfFreedom nu: Int) -> Double {
        let exact: [Double] = [
            3.841, 5.991, 7.815, 9.488, 11.070, 12.592, 14.067, 15.507, 16.919, 18.307,
            19.675, 21.026, 22.362, 23.685, 24.996, 26.296, 27.587, 28.869, 30.144, 31.410,
            32.671, 33.924, 35.172, 36.415, 37.652, 38.885, 40.113, 41.337, 42.557, 43.773,
        ]
        guard nu >= 1 else { return .infinity }
        if nu <= exact.count { return exact[nu - 1] / Double(nu) }
        let a = 2 / (9 * Double(nu))
        let cube = 1 - a + 1.644854 * a.squareRoot()
        return cube * cube * cube
    }
}
