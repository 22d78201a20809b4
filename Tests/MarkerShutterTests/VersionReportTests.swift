import Foundation
@testable import MarkerShutter
import Testing

/// `marker-shutter --version`'s text, and the libraries it names on this machine.
@Suite struct VersionReportTests {
    @Test func theReportNamesTheToolAndEachLibraryOnItsOwnLine() {
        let report = VersionReport(
            openCV: "4.6.0", openCVBuild: "4.6.0",
            aprilTagFile: "/usr/lib/x86_64-linux-gnu/libapriltag.so.3.3.0",
            v4l2File: "/usr/lib/x86_64-linux-gnu/libv4l2.so.0.0.0")
        #expect(report.text == """
            marker-shutter \(VersionReport.toolVersion)
            OpenCV 4.6.0
            libapriltag 3.3.0 (no version call; named by its file, /usr/lib/x86_64-linux-gnu/libapriltag.so.3.3.0)
            libv4l2 (no version call; loaded from /usr/lib/x86_64-linux-gnu/libv4l2.so.0.0.0)
            """)
    }

    @Test func aDifferentOpenCVAtRunTimeIsShownBesideTheOneCompiledAgainst() {
        let report = VersionReport(openCV: "4.7.0", openCVBuild: "4.6.0", aprilTagFile: nil, v4l2File: nil)
        #expect(report.text.split(separator: "\n").map(String.init) == [
            "marker-shutter \(VersionReport.toolVersion)",
            "OpenCV 4.7.0 (compiled against 4.6.0)",
            "libapriltag 3 (compiled against; no file named for it at run time)",
            "libv4l2 (no version call; no file named for it at run time)",
        ])
    }

    @Test func theToolVersionIsThreeNumbers() {
        let parts = VersionReport.toolVersion.split(separator: ".", omittingEmptySubsequences: false)
        #expect(parts.count == 3)
        #expect(parts.allSatisfy { !$0.isEmpty && $0.allSatisfy(\.isNumber) })
    }

    @Test(arguments: [
        ("/usr/lib/x86_64-linux-gnu/libapriltag.so.3.3.0", "3.3.0"),
        ("libapriltag.so.3", "3"),
        ("/opt/lib/libapriltag.so", nil),
        ("/opt/lib.so.1/libapriltag.so.x1", nil),
        ("/opt/lib/libapriltag.so.", nil),
    ] as [(String, String?)])
    func theVersionInASharedObjectsNameIsWhatFollowsSo(path: String, expected: String?) {
        #expect(VersionReport.versionInFileName(path) == expected)
    }

    /// Debian bookworm's libraries, which the package is built and tested against.
    @Test func theLibrariesThisProcessRunsWithAreThoseOfTheSystem() throws {
        let report = VersionReport.current()
        #expect(report.openCV == report.openCVBuild)
        #expect(report.openCV.hasPrefix("4.6."))
        let aprilTag = try #require(report.aprilTagFile)
        #expect(FileManager.default.fileExists(atPath: aprilTag))
        #expect(URL(fileURLWithPath: aprilTag).lastPathComponent.hasPrefix("libapriltag.so.3"))
        #expect(VersionReport.versionInFileName(aprilTag)?.hasPrefix("3") == true)
        let v4l2 = try #require(report.v4l2File)
        #expect(FileManager.default.fileExists(atPath: v4l2))
        #expect(URL(fileURLWithPath: v4l2).lastPathComponent.hasPrefix("libv4l2.so.0"))
        let lines = report.text.split(separator: "\n")
        #expect(lines.count == 4)
        #expect(lines[1] == "OpenCV \(report.openCV)")
    }
}
