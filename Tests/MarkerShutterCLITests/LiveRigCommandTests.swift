import Foundation
import Testing

/// `live --camera NAME=DEVICE`: the rig's arguments are checked before any camera is opened.
@Suite struct LiveRigCommandTests {
    static let rig = ["live", "--camera", "left=/nonexistent/video8", "--camera", "right=/nonexistent/video9", "--out", "picks"]

    /// Names, counts, options and rules that cannot work: exit 64, the argument to blame named.
    @Test(arguments: [
        (["live", "--camera", "left=/nonexistent/video8"], "a rig has 2 to 8 cameras (--camera NAME=DEVICE, repeated), not 1"),
        (["live", "--camera", "a b=/x", "--camera", "c=/y"], "--camera: camera name \"a b\" may hold only letters, digits, \"-\" and \"_\""),
        (["live", "--camera", "left", "--camera", "c=/y"], "--camera takes NAME=DEVICE (left=/dev/video0), got \"left\""),
        (["live", "--camera", "a=/x", "--camera", "a=/y"], "--camera: two cameras are named \"a\": each camera needs its own name"),
        (["live", "--camera", "a=/x", "--camera", "b=/x"], "--camera: a and b are both /x: each camera of a rig is its own device"),
        (rig + ["--require", "3"], "--require takes all or a number from 2 to 2 (the cameras given), not 3"),
        (rig + ["--require", "some"], "--require takes all or a number from 2 up, got some"),
        (rig + ["--max-motion", "-1"], "--max-motion takes a number of pixels per frame more than 0, or off, got -1"),
        (rig + ["--sync-tolerance", "-5"], "--sync-tolerance takes milliseconds from 0 to 10000, got -5.0"),
        (rig + ["--camera-option", "top:fps=25"], "--camera-option names \"top\", which no --camera gives"),
        (rig + ["--camera-option", "left:format=MJPG"], "--camera-option left: format takes BGR3 (color) or GREY (grayscale), got MJPG"),
        (rig + ["--camera-option", "left:zoom=2"], "--camera-option left: \"zoom\" is not size, fps or format"),
        (rig + ["--device", "/dev/video0"], "give --camera for each camera of a rig, or --device (or --replay) for one camera, not both"),
        (rig + ["--record", "rec"], "--record: not available with --camera (a rig)"),
    ])
    func usageErrors(arguments: [String], message: String) throws {
        try MarkerShutterBinary.expectUsageError(arguments, message: message)
    }
}
