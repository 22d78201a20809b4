import ArgumentParser
import Foundation
import MarkerShutter

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
        // `--version`: the tool's version and the OpenCV, libapriltag and libv4l2 it runs with.
        version: VersionReport.current().text,
        subcommands: [ProcessCommand.self, MergeCommand.self, LiveCommand.self, CalibrateCommand.self, CompareCommand.self, BoardCommand.self, DevicesCommand.self]
    )

    /// Runs the command like ArgumentParser's own `main`, and then checks that what it printed
    /// (help included) reached standard output: a failed write exits with status 1 and a message.
    static func main() async {
        StandardOutput.reserveClosedStreams()
        if let refusal = ArgumentBytes.refusal(ArgumentBytes.process) {
            FileHandle.standardError.write("Error: \(refusal)\n")
            Foundation.exit(UsageError.status)
        }
        do {
            var command = try parseAsRoot()
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch let error as UsageError {
            FileHandle.standardError.write("Error: \(error)\n")
            Foundation.exit(UsageError.status)
        } catch {
            guard exitCode(for: error) == .success else { exit(withError: error) }
            let text = fullMessage(for: error)
            if !text.isEmpty { StandardOutput.line(text) }
        }
        do { try StandardOutput.check() } catch { exit(withError: error) }
    }
}
