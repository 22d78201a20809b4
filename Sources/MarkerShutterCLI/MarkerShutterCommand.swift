import ArgumentParser

/// `marker-shutter`: capture camera-calibration pictures only while a calibration target is seen.
@main
struct MarkerShutterCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "marker-shutter",
        abstract: "Capture camera-calibration pictures only while a calibration target is in view.",
        discussion: """
            A valid detection enables the shutter at once; when detection is lost, the last valid frame \
            is held for a moment (0.3 s by default) before the shutter is disabled, so a frame or two \
            without markers does not take the shutter away.

            Examples:
              marker-shutter process Samples/charuco-session
              marker-shutter live --device /dev/video0 --out pictures
              marker-shutter calibrate pictures
              marker-shutter board charuco 5x7 DICT_6X6_250 --out board.png
              marker-shutter devices
            """,
        subcommands: [ProcessCommand.self, LiveCommand.self, CalibrateCommand.self, BoardCommand.self, DevicesCommand.self]
    )
}
