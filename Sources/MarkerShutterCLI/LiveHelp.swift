/// `live --help`'s long description: what the status line shows, the rules of --auto and
/// --calibrate, the keys, the exit statuses and examples.
enum LiveHelp {
    static let discussion = """
        Shows on one line: frames per second, detection time, markers/corners found, the shutter \
        (ENABLED, HELD 0.12s while a lost detection is held, or disabled), pictures taken, and how far \
        the pictures cover what calibration wants, as ROS camera_calibration's X, Y, size and skew bars \
        (X▮▮▯▯ is half the spread across the image that is wanted; a + after a bar: a picture of the \
        view now seen would widen it).

        --auto takes a picture when the shutter is enabled on a sharp view that is not too similar to \
        any picture so far (its four measures' differences from each picture sum to over 0.2) and that \
        raises the coverage by at least 0.05 (summed over the four); a view that raises nothing must \
        differ by over 0.4. The first view is taken.

        --calibrate solves the camera (pinhole, as `calibrate` does) in the background after each \
        picture once there are three, one solve at a time (pictures taken meanwhile are solved together \
        next), and prints each result: views, RMS error, focal lengths with their 95% intervals, and \
        the verdict `calibrate` gives (good, not good or not enough to judge, with the reasons), whose \
        limits also take --good-rms and --good-focal-interval. At the \
        end, the last solve's files (calibration.yaml, camera_info.yaml, calibration.json, coverage.png, \
        residuals.png, as `calibrate` writes them) go into --calibration-out, their paths to standard \
        output. Only this session's pictures are solved. For a rig (--camera, or --replay of a rig's \
        recording), the sets are solved as `calibrate` solves a rig, and --calibration-out is needed: \
        the sets fill --out.

        Space or Enter takes a picture: the held valid frame is saved to --out as a PNG with a JSON \
        sidecar of its detection and timestamp. While the shutter is disabled the request is refused, \
        as is one while 8 pictures still wait to be written. \
        q or Ctrl-C quits, after every file is complete (a second Ctrl-C quits at once). Without a terminal, the same commands are \
        read as lines on standard input: capture, quit. A camera that stops sending frames \
        disables the shutter when the hold runs out, without waiting for a frame.

        --exposure, --focus, --control and --lock set the camera's controls (as `devices --device` \
        does) once it is open, before any frame is used; --lock waits --settle seconds of frames (1 by \
        default; those frames are not shown, recorded or taken) for the automatic modes to settle, then \
        fixes exposure, gain, white balance and focus at their values. A value the camera refuses ends \
        the run before streaming, with the values the control takes. The controls set, as read back \
        from the camera, go into each picture's sidecar ("controls") and the recording's manifest.jsonl.

        --serve shows the same in a browser (the page's address is printed first): the annotated image, \
        the shutter badge, rates, coverage, pictures, "Take picture" and "Stop"; --preview shows the \
        annotated image in a window, where Space, Enter and q work too.

        --replay also takes a ROS bag (.bag, .mcap or a rosbag2 folder): --topic chooses its image topic, \
        replayed at the pace of its header stamps; two --topic or more replay a rig, each topic a camera.

        Exit status: 0 stopped by quit, --stop-after, the end of a replay, the page's Stop or closing the \
        window; 1 the camera or folder failed (or could not be opened), a camera control was refused, \
        --serve's address could not be bound, --preview found no display, --calibration-out has files and no --force, or standard output \
        could not be written; 2 a picture, the recording or (with --calibrate) the calibration could not \
        be written (too few pictures, say); 64 a usage error (an option's value outside its range, --calibrate with loose markers); 130 \
        stopped by Ctrl-C, SIGTERM or SIGHUP.

        Examples:
          marker-shutter live --serve 8080 --auto
          marker-shutter live --device /dev/video0 --pattern charuco:5x7:DICT_6X6_250
          marker-shutter live --device /dev/video2 --size 1920x1080 --out shots
          marker-shutter live --auto --out calibration --record session1
          marker-shutter live --replay Samples/charuco-session --auto --out picks
          marker-shutter live --replay session.mcap --topic /camera/image_raw --auto --out picks
          marker-shutter live --auto --calibrate --out pictures
          marker-shutter live --exposure 20000 --control gain=80 --lock --record take2
        """
}
