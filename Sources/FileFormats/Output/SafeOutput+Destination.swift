import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Where a command may write a file, decided before any work starts.
///
/// - `-` means standard output.
/// - A new path, or an existing regular file given with `replacing`, is written under a temporary
///   name and renamed into place (``SafeOutput/write(_:to:replacing:)``).
/// - A device, a FIFO or a symbolic link is written through, never renamed over: `/dev/stdout`
///   stays the terminal, `/dev/null` stays a device, a link stays a link. A link to an existing
///   regular file needs `replacing` too, unless that file is the process's own standard output.
/// - A folder, an existing regular file without `replacing`, or any of the inputs is refused.
extension SafeOutput {
    /// How an output file is written.
    public enum Destination: Sendable, Equatable {
        /// Standard output (`-`).
        case standardOutput
        /// A new or regular file: a temporary file renamed into place at the end.
        case replacing(String)
        /// An existing device, FIFO or symbolic link: opened and written in place.
        case through(String)
    }

    /// Decides how to write the file `argument`.
    ///
    /// - Parameters:
    ///   - argument: The path the user gave, or `-` for standard output.
    ///   - replacing: Whether an existing regular file may be replaced (`--force`).
    ///   - inputs: Files the command reads; the output may be none of them.
    /// - Throws: ``OutputError`` when the path is a folder, an input, or an existing file
    ///   without `replacing`.
    public static func destination(for argument: String, replacing: Bool, inputs: [String] = [])
        throws(OutputError) -> Destination
    {
        if argument == "-" { return .standardOutput }
        var link = stat()
        guard lstat(argument, &link) == 0 else { return .replacing(argument) }
        var target = stat()
        let resolves = stat(argument, &target) == 0
        if resolves, fileType(target) == S_IFDIR { throw .isFolder(argument) }
        if resolves, let input = inputs.first(where: { sameFile($0, target) }) {
            throw .isInput(argument, input: input)
        }
        let isLink = fileType(link) == S_IFLNK
        let isRegular = resolves && fileType(target) == S_IFREG
        if isRegular, !replacing, !isStandardStream(target) { throw .exists(argument) }
        return isLink || !isRegular ? .through(argument) : .replacing(argument)
    }

    /// Checks that a folder the command writes into is none of the folders it reads and lies inside
    /// none of them (the one rule every command keeps: nothing is written into an input folder).
    ///
    /// - Parameters:
    ///   - folder: The folder to write into (it may not exist yet).
    ///   - option: The option that named it, for the message (`"--annotate"`).
    ///   - inputFolders: The folders the command reads (a file among them, a bag say, counts as its path).
    /// - Throws: ``OutputError/isInput(_:input:)`` when `folder` is one of `inputFolders`,
    ///   ``OutputError/insideInput(_:folder:)`` when it lies inside one.
    public static func checkFolder(_ folder: String, option: String, notAnyOf inputFolders: [String]) throws(OutputError) {
        var status = stat()
        if stat(folder, &status) == 0, let input = inputFolders.first(where: { sameFile($0, status) }) {
            throw .isInput("\(option) \(folder)", input: input)
        }
        try checkOutside(folder, named: "\(option) \(folder)", folders: inputFolders)
    }

    /// Checks that `path` (a file or folder to write, existing or not; `-` is standard output) is
    /// none of `folders` and lies inside none of them, links resolved.
    ///
    /// - Parameter name: How the message names the path (the option and the path, say); the path itself by default.
    /// - Throws: ``OutputError/insideInput(_:folder:)`` naming the folder.
    public static func checkOutside(_ path: String, named name: String? = nil, folders: [String]) throws(OutputError) {
        guard path != "-" else { return }
        let destination = Folder.resolved(path)
        if let folder = folders.first(where: { Folder.lies(destination, inside: Folder.resolved($0)) }) {
            throw .insideInput(name ?? path, folder: folder)
        }
    }

    /// Checks that two folders the command writes into are not one folder, so that the files of
    /// one never replace those of the other.
    ///
    /// - Parameters:
    ///   - first: The option and the folder it names (`("--annotate", "out")`).
    ///   - second: The other option and folder.
    /// - Throws: ``OutputError/sameFolder(_:_:)`` when both name one folder, existing or not.
    public static func checkDistinct(_ first: (option: String, folder: String), _ second: (option: String, folder: String))
        throws(OutputError)
    {
        var status = stat()
        let same = stat(first.folder, &status) == 0
            ? sameFile(second.folder, status)
            : URL(fileURLWithPath: first.folder).standardizedFileURL.path == URL(fileURLWithPath: second.folder).standardizedFileURL.path
        if same { throw .sameFolder("\(first.option) \(first.folder)", "\(second.option) \(second.folder)") }
    }

    private static func fileType(_ status: stat) -> mode_t { status.st_mode & S_IFMT }

    /// Whether the file is this process's standard output or error (`/dev/stdout` redirected to a file).
    private static func isStandardStream(_ status: stat) -> Bool {
        [STDOUT_FILENO, STDERR_FILENO].contains { descriptor in
            var stream = stat()
            return fstat(descriptor, &stream) == 0 && stream.st_dev == status.st_dev && stream.st_ino == status.st_ino
        }
    }

    private static func sameFile(_ path: String, _ status: stat) -> Bool {
        var other = stat()
        return stat(path, &other) == 0 && other.st_dev == status.st_dev && other.st_ino == status.st_ino
    }
}

extension SafeOutput.Destination {
    /// Opens the destination to be written as its contents come: a regular file under its hidden
    /// temporary name (``SafeOutput/Staged``), a device, FIFO or link in place, or standard output.
    ///
    /// - Returns: The name messages give it (the path, or `standard output`), the temporary file
    ///   for a regular file, and the descriptor to write to.
    /// - Throws: ``OutputError`` when the file (or its temporary file) cannot be opened.
    package func open() throws(OutputError) -> (name: String, staged: SafeOutput.Staged?, descriptor: Int32) {
        switch self {
        case .standardOutput:
            return ("standard output", nil, STDOUT_FILENO)
        case .through(let path):
            return (path, nil, try SafeOutput.openInPlace(path))
        case .replacing(let path):
            let staged = try SafeOutput.Staged(path)
            return (path, staged, staged.descriptor)
        }
    }

    /// Writes a whole file's `bytes` where the destination says: renamed into place for a
    /// regular file (an existing one only when `replacing`), in place through a device, FIFO or
    /// link, or to standard output.
    ///
    /// - Throws: ``OutputError`` naming the path (`EEXIST` for a file that appeared and may
    ///   not be replaced).
    public func write(_ bytes: some Collection<UInt8>, replacing: Bool) throws(OutputError) {
        let writer = try SafeOutput.Writer(self)
        try writer.write(bytes)
        try writer.commit(replacing: replacing)
    }
}
