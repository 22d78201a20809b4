/// What an emulated camera offers and how it misbehaves: the text of its `DEVICE.conf`
/// (documented in `Tests/Support/EmulatedCamera/README.md`).
public struct EmulatedCameraConfiguration: Sendable, Hashable {
    /// What the camera sends.
    public enum Format: String, Sendable, Hashable {
        case yuyv, mjpeg
    }

    /// A scripted fault; `at` is the frame's sequence number counted from 0 since the device was opened.
    public enum Fault: Sendable, Hashable {
        /// Frames `at ..< at + count` are lost.
        case gap(at: Int, count: Int)
        /// The buffer holding frame `at` is flagged `V4L2_BUF_FLAG_ERROR`.
        case errorFlag(at: Int)
        /// `VIDIOC_DQBUF` fails with EIO once when frame `at` is due.
        case eio(at: Int)
        /// The camera is unplugged when frame `at` is due (ENODEV from then on).
        case enodev(at: Int)
        /// Frame `at` and all after it come `milliseconds` late; 0: never.
        case stall(at: Int, milliseconds: Int)

        var line: String {
            switch self {
            case .gap(let at, let count): "gap \(at) \(count)"
            case .errorFlag(let at): "error \(at)"
            case .eio(let at): "eio \(at)"
            case .enodev(let at): "enodev \(at)"
            case .stall(let at, let milliseconds): "stall \(at) \(milliseconds)"
            }
        }
    }

    /// Card name.
    public var name: String
    /// Formats offered; the first is the starting one.
    public var formats: [Format]
    /// Sizes offered (width a multiple of 16, height of 8); the first is the starting one.
    public var sizes: [(width: Int, height: Int)]
    /// Frame rates offered at every size.
    public var rates: [Int]
    /// Frames at the frame rate (true) or as fast as they are asked for (false).
    public var paced: Bool
    /// A folder of JPEG files to show in name order; `nil` shows the generated pattern.
    public var framesFolder: String?
    /// After the folder's last frame: show it for ever (true) or start again from the first (false).
    /// A scene that never changes again lets a test act on it however late a busy machine lets it.
    public var holdsLastFrame = false
    /// JPEG quality for frames the camera encodes.
    public var quality: Int
    /// Scripted faults.
    public var faults: [Fault]
    /// A file the control values are kept in, shared by every program that opens the device (as a
    /// driver keeps them between opens); `nil`: each program starts from the defaults.
    public var controlsFile: String?
    /// Automatic modes settling: when frame `at` is made, `control` (`exposure_absolute`,
    /// `white_balance_temperature`, `focus_absolute`) takes `value` if its automatic mode is on.
    public var settling: [(control: String, value: Int, at: Int)] = []

    /// A YUYV camera at 640x480 and 1280x720, 30 and 15 fps, paced, showing the pattern.
    public init(
        name: String = "Emulated Camera", formats: [Format] = [.yuyv],
        sizes: [(width: Int, height: Int)] = [(640, 480), (1280, 720)], rates: [Int] = [30, 15], paced: Bool = true,
        framesFolder: String? = nil, quality: Int = 90, faults: [Fault] = [], controlsFile: String? = nil
    ) {
        self.name = name
        self.formats = formats
        self.sizes = sizes
        self.rates = rates
        self.paced = paced
        self.framesFolder = framesFolder
        self.quality = quality
        self.faults = faults
        self.controlsFile = controlsFile
    }

    /// The configuration file's text, logging to `logPath` when given.
    public func text(logPath: String?) -> String {
        var lines = [
            "name = \(name)",
            "formats = " + formats.map(\.rawValue).joined(separator: ", "),
            "sizes = " + sizes.map { "\($0.width)x\($0.height)" }.joined(separator: ", "),
            "rates = " + rates.map(String.init).joined(separator: ", "),
            "pace = " + (paced ? "realtime" : "unpaced"),
            "quality = \(quality)",
        ]
        if let framesFolder { lines.append("frames = \(framesFolder)") }
        if holdsLastFrame { lines.append("end = hold") }
        if let logPath { lines.append("log = \(logPath)") }
        lines += faults.map { "fault = \($0.line)" }
        if let controlsFile { lines.append("controls = \(controlsFile)") }
        lines += settling.map { "settle = \($0.control) \($0.value) \($0.at)" }
        return lines.joined(separator: "\n") + "\n"
    }

    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.text(logPath: nil) == rhs.text(logPath: nil) }
    public func hash(into hasher: inout Hasher) { hasher.combine(text(logPath: nil)) }
}
