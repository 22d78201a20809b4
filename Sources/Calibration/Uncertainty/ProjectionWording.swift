import Foundation

/// How pixel figures are written in the uncertainty and cross-validation sentences.
enum ProjectionWording {
    /// Two significant digits under 10 (`0.12`, `3.4`), whole pixels from 10 (`40`).
    static func pixels(_ value: Double) -> String {
        guard value.isFinite else { return "an unknown number of" }
        if value >= 10 { return String(format: "%.0f", value) }
        if value >= 1 { return String(format: "%.1f", value) }
        return String(format: "%.2f", value)
    }
}
