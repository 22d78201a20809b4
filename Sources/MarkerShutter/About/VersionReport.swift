import FrameCapture
import MarkerDetection

/// What `marker-shutter --version` prints: the tool's version and the libraries it runs with.
package struct VersionReport: Sendable, Equatable {
    /// The tool's version: the one place it is written (`Scripts/package-deb` reads it here too).
    static let toolVersion = "0.9.0"

    /// The OpenCV loaded at run time.
    package var openCV: String
    /// The OpenCV the shims were compiled against.
    var openCVBuild: String
    /// The file libapriltag was loaded from, or nil when none is named.
    var aprilTagFile: String?
    /// The file libv4l2 was loaded from, or nil when none is named.
    var v4l2File: String?

    /// A report of the given facts.
    package init(openCV: String, openCVBuild: String, aprilTagFile: String?, v4l2File: String?) {
        self.openCV = openCV
        self.openCVBuild = openCVBuild
        self.aprilTagFile = aprilTagFile
        self.v4l2File = v4l2File
    }

    /// The libraries this process runs with, asked now.
    package static func current() -> VersionReport {
        VersionReport(
            openCV: DetectionLibraries.openCVVersion, openCVBuild: DetectionLibraries.openCVBuildVersion,
            aprilTagFile: DetectionLibraries.aprilTagLibraryFile, v4l2File: CaptureLibraries.v4l2LibraryFile)
    }

    /// The version written in a shared object's file name after `.so.` (`libapriltag.so.3.3.0`
    /// gives `3.3.0`), or nil when the name has none.
    static func versionInFileName(_ path: String) -> String? {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        guard let range = name.range(of: ".so.") else { return nil }
        let version = name[range.upperBound...]
        guard !version.isEmpty, version.allSatisfy({ $0.isNumber || $0 == "." }) else { return nil }
        return String(version)
    }

    /// Four lines: the tool, OpenCV, libapriltag and libv4l2.
    package var text: String {
        var lines = ["marker-shutter \(Self.toolVersion)"]
        lines.append(
            openCV == openCVBuild ? "OpenCV \(openCV)" : "OpenCV \(openCV) (compiled against \(openCVBuild))")
        if let aprilTagFile {
            let version = Self.versionInFileName(aprilTagFile).map { "\($0) " } ?? ""
            lines.append("libapriltag \(version)(no version call; named by its file, \(aprilTagFile))")
        } else {
            lines.append("libapriltag 3 (compiled against; no file named for it at run time)")
        }
        if let v4l2File {
            lines.append("libv4l2 (no version call; loaded from \(v4l2File))")
        } else {
            lines.append("libv4l2 (no version call; no file named for it at run time)")
        }
        return lines.joined(separator: "\n")
    }
}
