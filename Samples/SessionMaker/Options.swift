/// What the command line asks for.
struct Options: Sendable, Equatable {
    /// The folder to write the session into.
    var output = "Samples/charuco-session"
    /// Whether to replace the frames and manifest of a folder that already has files.
    var replace = false
    /// Whether only the help text was asked for.
    var help = false

    static let usage = """
        USAGE: make-sample-session [--output DIR] [--replace]

        Renders the bundled sample session: a ChArUco board (charuco:5x7:DICT_6X6_250) moving
        and tilting in front of a fixed camera, 4 s at 30 (29.97) frames per second, 640x480 JPEG,
        with a hand crossing it, a blurred swing and a second-long loss of the board. Writes
        frame_000000.jpg ... and manifest.jsonl, then detects the board in every frame written and
        prints what it found. The same files every time: every random choice follows from one seed.

        OPTIONS:
          -o, --output DIR   where to write (default: Samples/charuco-session, from the package root)
          --replace          replace the frames and manifest of a folder that is not empty
          -h, --help         show this help

        Exit status: 0 when every frame came out as scripted; 1 when some frame did not (marked
        in the listing) or the files could not be written; 64 for a usage mistake.

        EXAMPLE:
          swift run -c release make-sample-session --replace
        """

    /// Reads the arguments that follow the program's name.
    ///
    /// - Throws: ``UsageError`` for an unknown option or a missing value.
    init(arguments: [String]) throws(UsageError) {
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            switch argument {
            case "-h", "--help": help = true
            case "--replace": replace = true
            case "-o", "--output":
                guard let value = remaining.popFirst(), !value.hasPrefix("-") else {
                    throw UsageError("\(argument) needs a folder")
                }
                output = value
            case _ where argument.hasPrefix("--output="):
                output = String(argument.dropFirst("--output=".count))
                guard !output.isEmpty else { throw UsageError("--output needs a folder") }
            default:
                throw UsageError("unknown argument '\(argument)'")
            }
        }
    }

    /// The defaults.
    init() {}
}

/// A command line that cannot be understood.
struct UsageError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
