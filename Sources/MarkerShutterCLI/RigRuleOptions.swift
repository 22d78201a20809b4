import ArgumentParser
import MarkerShutter

/// The rig shutter's rules, as `live` takes them for a rig and `process` for a rig's recording:
/// `--require`, `--sync-tolerance` and `--max-motion`.
struct RigRuleOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Which rig cameras must see the board for a set: all (the default), or a number from 2 up.",
                               valueName: "all|N"))
    var require: String?

    @Option(name: .customLong("sync-tolerance"), parsing: .unconditional,
            help: ArgumentHelp("The largest time difference between the frames of a set, in milliseconds; half the longest frame interval unless given.",
                               valueName: "MS"))
    var syncTolerance: Double?

    @Option(name: .customLong("max-motion"), parsing: .unconditional,
            help: ArgumentHelp("The most the board may move in a frame of a set, in pixels per frame, or off (a rig triggered in hardware); chosen from the tolerance unless given.",
                               valueName: "PX|off"))
    var maxMotion: String?

    /// The first of these options given, by its name: for refusing them where there is no rig.
    var firstGiven: String? {
        [("--require", require != nil), ("--sync-tolerance", syncTolerance != nil), ("--max-motion", maxMotion != nil)]
            .first { $0.1 }?.0
    }

    /// `--require` read.
    func requirement() throws -> RigRequirement {
        let require = require ?? "all"
        if require.lowercased() == "all" { return .all }
        guard let count = Int(require), count >= 2 else { throw ValidationError("--require takes all or a number from 2 up, got \(require)") }
        return .atLeast(count)
    }

    /// `--max-motion` read.
    func motionLimit() throws -> RigShutterMachine.Configuration.MotionLimit {
        guard let maxMotion else { return .automatic }
        if maxMotion.lowercased() == "off" { return .off }
        guard let value = Double(maxMotion), value.isFinite, value > 0 else {
            throw ValidationError("--max-motion takes a number of pixels per frame more than 0, or off, got \(maxMotion)")
        }
        return .pixelsPerFrame(value)
    }

    /// The rig's configuration for `cameras` under these rules.
    ///
    /// - Throws: `ValidationError` naming the option that is wrong.
    func rigConfiguration(cameras: [RigCamera], hold: Duration) throws -> RigShutterMachine.Configuration {
        if let syncTolerance, !(syncTolerance.isFinite && syncTolerance >= 0 && syncTolerance <= 10_000) {
            throw ValidationError("--sync-tolerance takes milliseconds from 0 to 10000, got \(syncTolerance)")
        }
        do {
            return try RigShutterMachine.Configuration(
                cameras: cameras, require: requirement(),
                syncTolerance: syncTolerance.map { .nanoseconds(Int64(($0 * 1e6).rounded())) }, maxMotion: motionLimit(), hold: hold,
                minimumStall: hold + RigShutterMachine.Configuration.stallMargin)
        } catch let error as RigConfigurationError {
            throw ValidationError(error.description)
        }
    }
}
