/// The detection libraries this process runs with, as far as each can say.
public enum DetectionLibraries {
    /// The OpenCV version loaded at run time (`cv::getVersionString()`), such as `4.6.0`.
    public static var openCVVersion: String { Shim.openCVVersion().running }

    /// The OpenCV version the detection shim was compiled against (`CV_VERSION`).
    public static var openCVBuildVersion: String { Shim.openCVVersion().built }

    /// The file libapriltag was loaded from, symbolic links resolved (such as
    /// `/usr/lib/x86_64-linux-gnu/libapriltag.so.3.3.0`), or nil when the dynamic linker names no
    /// file for it. libapriltag has no version call and no version macro: the name of this file is
    /// the only place its version is written.
    public static var aprilTagLibraryFile: String? { try? AprilTagShim.libraryPath() }
}
