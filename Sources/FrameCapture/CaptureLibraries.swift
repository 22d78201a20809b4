/// The capture library this process runs with, as far as it can say.
public enum CaptureLibraries {
    /// The file libv4l2 was loaded from, symbolic links resolved (such as
    /// `/usr/lib/x86_64-linux-gnu/libv4l2.so.0.0.0`), or nil when the dynamic linker names no file
    /// for it. libv4l2 has no version call and no version macro, and its file name carries only
    /// its interface number, not the release of v4l-utils it came from.
    public static var v4l2LibraryFile: String? { DeviceIO.libraryPath() }
}
