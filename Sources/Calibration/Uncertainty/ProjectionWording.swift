import Foundation

/// How pixel figures are written in the uncertainty and cross-validation sentences: never `nan`.
enum ProjectionWording {
    /// Two significant digits under 10 (`0.12`, `3.4`), whole pixels from 10 (`40`); `no bound`
    /// for an infinite value (where the lens model folds) and `unknown` for one that is no number.
    static func pixels(_ value: Double) -> String {
        if value.isNaN { return "unknown" }
        if value.isInfinite { return "no bound" }
        if value >= 10 { return String(format: "%.0f", value) }
        if value >= 1 { return String(format: "%.1f", value) }
        return String(format: "%.2f", value)
    }

    /// `pixels(value)` with its unit: `12 px`, or `no bound (the lens model folds there)`.
    static func amount(_ value: Double) -> String {
        if value.isNaN { return "an unknown amount" }
        if value.isInfinite { return "no bound (the lens model folds there)" }
        return pixels(value) + " px"
    }

    /// What the uncertainty does: `reaches 12 px`, `has no bound (the lens model folds there)`,
    /// `is unknown`.
    static func reaches(_ value: Double) -> String {
        if value.isNaN { return "is unknown" }
        if value.isInfinite { return "has no bound (the lens model folds there)" }
        return "reaches " + pixels(value) + " px"
    }

    /// A worst corner in the summary: `12 px (lower-left)`, `unbounded (lower-left: the lens model
    /// folds there)`.
    static func corner(_ value: Double, name: String) -> String {
        if value.isInfinite { return "unbounded (\(name): the lens model folds there)" }
        return amount(value) + " (\(name))"
    }
}
