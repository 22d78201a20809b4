import SystemCalls
#if canImport(Glibc)
import Glibc
#endif

/// Why ``SafeOutput`` refused a path or could not write: an output refused before any work
/// starts, a file that could not be written, or a folder of results that could not be moved into
/// place.
public enum OutputError: Error, Equatable, CustomStringConvertible {
    /// A system call failed while writing the file (or folder) `path`.
    case cannotWrite(path: String, call: String, errno: Int32)
    /// The path is a folder, not a file.
    case isFolder(String)
    /// A regular file exists there and replacing was not asked for.
    case exists(String)
    /// The output is one of the inputs.
    case isInput(String, input: String)
    /// The output lies inside a folder the command reads.
    case insideInput(String, folder: String)
    /// Two outputs name one folder.
    case sameFolder(String, String)
    /// A folder of results could not be written; nothing was (an existing folder keeps its old files).
    case notWritten(path: String, reason: String)
    /// The folder of results has files in it, and replacing them was not asked for.
    case folderNotEmpty(String)
    /// Replacing the files of a folder of results failed, and some old files could not be put
    /// back: they are in `keptIn`.
    case partlyReplaced(path: String, reason: String, keptIn: String)

    /// A system call that failed while writing `path`.
    public init(path: String, call: String, errno: Int32) {
        self = .cannotWrite(path: path, call: call, errno: errno)
    }

    /// Wraps a failed call made while writing `path`.
    init(path: String, _ failure: SystemCallError) {
        self.init(path: path, call: failure.call, errno: failure.errno)
    }

    /// The system call that failed (``cannotWrite(path:call:errno:)``), `nil` for a refusal.
    public var call: String? {
        if case .cannotWrite(_, let call, _) = self { call } else { nil }
    }

    /// The system's error number (``cannotWrite(path:call:errno:)``), `nil` for a refusal.
    public var errno: Int32? {
        if case .cannotWrite(_, _, let errno) = self { errno } else { nil }
    }

    public var description: String {
        switch self {
        case .cannotWrite(let path, let call, let errno):
            // `cannot write PATH: CALL failed: TEXT (ENAME); ADVICE`, the advice where there is one to give.
            let advice: String
            switch errno {
            case ENOSPC, EDQUOT: advice = "; free some space or write elsewhere"
            case EROFS: advice = "; the file system is read-only: choose another folder"
            case EACCES, EPERM: advice = "; no permission to write there: choose another folder"
            case EEXIST: advice = "; a file of that name exists and is kept"
            default: advice = ""
            }
            return "cannot write \(path): \(SystemCallError(call: call, errno: errno))\(advice)"
        case .isFolder(let path): return "\(path) is a folder: give a file name"
        case .exists(let path): return "\(path) exists; use --force to replace it"
        case .isInput(let path, let input): return "\(path) would overwrite the input \(input): choose a path outside the input"
        case .insideInput(let path, let folder):
            return "\(path) is inside the input folder \(folder), which is never written into: choose a path outside it"
        case .sameFolder(let first, let second): return "\(first) and \(second) are one folder: give each its own"
        case .notWritten(let path, let reason): return "cannot write \(path): \(reason); nothing was written"
        case .folderNotEmpty(let path):
            return "\(path) is not empty: give a new or empty folder, or --force to replace the calibration files in it"
        case .partlyReplaced(let path, let reason, let kept):
            return "cannot write \(path): \(reason); the folder now holds some new files and some old ones, "
                + "and the old files that could not be put back are in \(kept)"
        }
    }
}
