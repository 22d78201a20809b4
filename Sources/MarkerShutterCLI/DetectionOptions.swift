import ArgumentParser
import MarkerDetection
import MarkerShutter

/// Options shared by `live` and `process`: what to look for, and when a detection counts.
struct DetectionOptions: ParsableArguments {
    @Option(help: ArgumentHelp(
        "The calibration target to look for, or auto to identify it from the first frames.",
        discussion: Pattern.grammar + "\n" + PatternChoice.help, valueName: "pattern"))
    var pattern: String = "charuco:5x7:DICT_6X6_250"

    @Option(parsing: .unconditional, help: ArgumentHelp("Seconds a lost detection is held before the shutter is disabled (\(InputLimits.holdSeconds)).", valueName: "seconds"))
    var hold: Double = 0.3

    @Option(name: .customLong("min-markers"), parsing: .unconditional, help: "Markers a detection needs to be valid (default: per pattern; \(InputLimits.featureCount)).",
            transform: InputLimits.featureCount.parse(option: "--min-markers"))
    var minimumMarkers: Int?

    @Option(name: .customLong("min-corners"), parsing: .unconditional, help: "Board corners a detection needs to be valid (default: per pattern; \(InputLimits.featureCount)).",
            transform: InputLimits.featureCount.parse(option: "--min-corners"))
    var minimumCorners: Int?

    @Option(name: .customLong("min-sharpness"), parsing: .unconditional,
            help: "Sharpness (variance of the Laplacian over the target) a detection needs (default: 50; \(InputLimits.sharpness)).")
    var minimumSharpness: Double?

    @Option(name: .customLong("detect"),
            help: ArgumentHelp(
                "How to search each image: fast (first in a downscaled copy, corners refined at full resolution; a frame that follows another first around the board that one showed; in live, large frames never at full resolution, so boards under about an eighth of the frame width need full) or full (OpenCV on every pixel).",
                valueName: "full|fast"))
    var detect: String = DetectionMode.fast.rawValue

    /// Whether `--pattern auto` asks for the target to be identified from the first frames.
    var identifiesPattern: Bool { pattern.lowercased() == PatternChoice.auto }

    func validate() throws {
        if !identifiesPattern { _ = try parsedPattern() }
        _ = try mode()
        try InputLimits.holdSeconds.validate(hold, option: "--hold")
        try InputLimits.featureCount.validate(minimumMarkers, option: "--min-markers")
        try InputLimits.featureCount.validate(minimumCorners, option: "--min-corners")
        try InputLimits.sharpness.validate(minimumSharpness, option: "--min-sharpness")
    }

    /// The parsed pattern.
    ///
    /// - Throws: `ValidationError` with the grammar when the string is malformed (`validate()` has
    ///   already refused such a string, so this only repeats its answer).
    func parsedPattern() throws -> Pattern {
        do {
            return try Pattern(parsing: pattern)
        } catch {
            throw ValidationError("\(error)\n\nPatterns:\n\(Pattern.grammar)")
        }
    }

    /// The detection mode `--detect` names.
    ///
    /// - Throws: `ValidationError` naming the value and the two allowed.
    func mode() throws -> DetectionMode {
        guard let mode = DetectionMode(rawValue: detect) else {
            throw ValidationError("--detect must be full or fast, got '\(detect)'")
        }
        return mode
    }

    /// The hold as a duration.
    var holdDuration: Duration { .nanoseconds(Int64((hold * 1e9).rounded())) }

    /// The validity rule for `pattern`: its defaults with any overrides.
    func rule(for pattern: Pattern) -> ValidityRule {
        var rule = ValidityRule(defaultsFor: pattern)
        if let minimumMarkers { rule.minimumMarkers = minimumMarkers }
        if let minimumCorners { rule.minimumBoardCorners = minimumCorners }
        if let minimumSharpness { rule.minimumSharpness = minimumSharpness }
        return rule
    }

    /// A detector for the pattern, searching as `--detect` says.
    func makeDetector() throws -> MarkerDetector {
        try makeDetector(for: parsedPattern())
    }

    /// A detector for the pattern given, or with `--pattern auto` for the one identified in the first
    /// readable frames of `frames` (read as the folder reads them: files, or a bag's messages).
    func makeDetector(identifyingIn frames: FrameFolder) throws -> MarkerDetector {
        guard identifiesPattern else { return try makeDetector() }
        let images = IdentificationFrames.first(PatternIdentifier.typicalFrameCount, of: frames)
        return try makeDetector(for: PatternChoice.identified(inImages: images, source: frames.path))
    }

    /// A detector for the pattern given, or with `--pattern auto` for the one identified in the first
    /// readable frames of a rig's `recording` (files, or a bag's messages).
    func makeDetector(identifyingIn recording: RigRecording) throws -> MarkerDetector {
        guard identifiesPattern else { return try makeDetector() }
        let images = IdentificationFrames.first(PatternIdentifier.typicalFrameCount, of: recording)
        return try makeDetector(for: PatternChoice.identified(inImages: images, source: recording.folder))
    }

    /// A detector for `parsed`, searching as `--detect` says.
    func makeDetector(for parsed: Pattern) throws -> MarkerDetector {
        let mode = try mode()
        // The pattern as the user wrote it, or the one identified.
        let name = identifiesPattern ? parsed.description : pattern
        do {
            return try MarkerDetector(pattern: parsed, mode: mode)
        } catch .invalidPattern(let reason) {
            // A board its dictionary cannot hold, lengths too far apart: a mistake in the pattern.
            throw UsageError("cannot use pattern \(name): invalid pattern: \(reason)")
        } catch {
            throw RuntimeError("cannot use pattern \(name): \(error)")
        }
    }
}

/// A failure a user can act on: printed as `marker-shutter: <message>`, exit status 1.
struct RuntimeError: Error, CustomStringConvertible {
    let description: String
    /// `description` with its control characters escaped (its line breaks kept): a name in it may
    /// come from a folder, a list or a file.
    init(_ description: String) { self.description = FileNameText.terminalSafe(description) }
}
