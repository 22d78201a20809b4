import Foundation
import MarkerShutter

/// The command line as the system gave it. Swift reads each argument as UTF-8 and replaces every
/// byte that is not, so a file or folder whose name is not UTF-8 would reach a command as another
/// name and fail with "no such file". Such an argument is refused before parsing, saying why.
enum ArgumentBytes {
    /// The message for the first argument in `arguments` (the program's name first, skipped)
    /// that is not UTF-8, or nil when all are.
    static func refusal(_ arguments: [[UInt8]]) -> String? {
        for (index, bytes) in arguments.enumerated().dropFirst() where String(validating: bytes, as: UTF8.self) == nil {
            let shown = FileNameText.terminalSafe(FileNameText.text(ofBytes: bytes))
            return "argument \(index), \(shown), is not UTF-8 (each byte that is not is shown as \\xFF): "
                + "paths are taken as UTF-8 text; give the file or folder through a symbolic link with a UTF-8 name, or rename it"
        }
        return nil
    }

    /// The process's arguments, byte for byte.
    static var process: [[UInt8]] {
        (0..<Int(CommandLine.argc)).map { index in
            guard let argument = CommandLine.unsafeArgv[index] else { return [] }
            return Array(UnsafeRawBufferPointer(start: argument, count: strlen(argument)))
        }
    }
}
