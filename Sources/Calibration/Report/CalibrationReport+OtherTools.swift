import MarkerDetection

extension CalibrationReport {
    /// What the calibration's lengths (the views' poses) are in: metres when the pattern has a size.
    public var units: TargetLayout.Units { (try? Pattern(parsing: pattern)).map(TargetLayout.Units.init(of:)) ?? .boardUnits }

    /// The summary's lines on the target's size and on the files for other tools.
    var otherToolLines: [String] {
        var lines = [
            units.isMetric
                ? "target size: \(pattern): lengths in metres"
                : "target size: none given (lengths in \(units)); a size, e.g. square=25mm, gives metres",
        ]
        if let reason = mrcalModel.leftOut { lines.append("calibration.cameramodel left out: " + reason) }
        return lines
    }
}
