import MarkerDetection
import Testing

/// The `apriltag:` and `aprilgrid:` pattern strings: parsing, canonical form and errors.
@Suite struct AprilTagPatternTests {
    @Test func loosePatternsParseWithLibapriltagDefaults() throws {
        #expect(try Pattern(parsing: "apriltag:tag36h11") == .aprilTag(.tag36h11, AprilTagOptions()))
        #expect(try Pattern(parsing: "AprilTag:TAGSTANDARD41H12") == .aprilTag(.tagStandard41h12, AprilTagOptions()))
        #expect(
            try Pattern(parsing: "apriltag:tag25h9:decimate=1,sigma=0.8,refine=0")
                == .aprilTag(.tag25h9, AprilTagOptions(decimate: 1, sigma: 0.8, refineEdges: false)))
        #expect(try Pattern(parsing: "apriltag:tag16h5:refine") == .aprilTag(.tag16h5, AprilTagOptions()))
        let defaults = AprilTagOptions()
        #expect(defaults.decimate == nil && defaults.sigma == 0 && defaults.refineEdges)
    }

    @Test func gridPatternsParseAsKalibrDescribesThem() throws {
        #expect(try Pattern(parsing: "aprilgrid:6x6:tag36h11") == .aprilGrid(AprilGrid(columns: 6, rows: 6)))
        let grid = AprilGrid(
            columns: 4, rows: 5, family: .tag25h9, tagSize: 0.05, tagSpacing: 0.25, firstTag: 10,
            options: AprilTagOptions(decimate: 1))
        #expect(try Pattern(parsing: "aprilgrid:4x5:tag25h9:size=0.05,spacing=0.25,first=10,decimate=1") == .aprilGrid(grid))
        #expect(grid.tagIDs == 10..<30)
        #expect(grid.cornerCount == 80)
    }

    /// Kalibr numbers tags row by row from the bottom-left and corners two rows per tag row, from the
    /// bottom-left corner of tag 0 (GridCalibrationTargetAprilgrid's point ordering).
    @Test func cornerIDsFollowKalibrsPointOrdering() {
        let grid = AprilGrid(columns: 2, rows: 2)
        #expect(grid.cornerID(tag: 0, right: false, top: false) == 0)
        #expect(grid.cornerID(tag: 0, right: true, top: false) == 1)
        #expect(grid.cornerID(tag: 1, right: false, top: false) == 2)
        #expect(grid.cornerID(tag: 0, right: false, top: true) == 4)
        #expect(grid.cornerID(tag: 1, right: true, top: true) == 7)
        #expect(grid.cornerID(tag: 2, right: false, top: false) == 8)
        #expect(grid.cornerID(tag: 3, right: true, top: true) == 15)
    }

    @Test(arguments: [
        ("apriltag:tag36h12", "an AprilTag family (tag36h11, tag25h9, tag16h5, tagStandard41h12, tagStandard52h13, "
            + "tagCircle21h7, tagCustom48h12, tag36h10, tagCircle49h12), found 'tag36h12'"),
        ("apriltag:", "an AprilTag family"),
        ("apriltag:tag36h11:decimate=0.5", "decimate= a number from 1.0 to 16.0, found 'decimate=0.5'"),
        ("apriltag:tag36h11:sigma=11", "sigma= a number from -10.0 to 10.0, found 'sigma=11'"),
        ("apriltag:tag36h11:refine=yes", "'refine', 'refine=1' or 'refine=0', found 'refine=yes'"),
        ("apriltag:tag36h11:size=0.1", "an option (decimate, sigma, refine), found 'size=0.1'"),
        ("aprilgrid:6x6:tag25h9", "a grid within tag25h9's ids 0...34, found 36 tags from id 0 (up to 35)"),
        ("aprilgrid:6x6:tag36h11:first=560", "a grid within tag36h11's ids 0...586, found 36 tags from id 560 (up to 595)"),
        ("aprilgrid:1000x1000:tag36h11", "a grid within tag36h11's ids 0...586, found 1000000 tags"),
        ("aprilgrid:2000x2:tag36h11", "a size of 1...1000 tags each way, found 2000x2"),
        ("aprilgrid:0x6:tag36h11", "a size of 1...1000 tags each way, found 0x6"),
        ("aprilgrid:6x6:tagStandard41h12", "an AprilGrid family with a plain border (tag36h11, tag25h9, tag16h5 or tag36h10)"),
        ("aprilgrid:6x6:tag36h11:spacing=0", "spacing= a number above 0.0 and at most 1.0, found 'spacing=0'"),
        ("aprilgrid:6x6:tag36h11:spacing=1.5", "spacing= a number above 0.0 and at most 1.0, found 'spacing=1.5'"),
        ("aprilgrid:6x6:tag36h11:size=-1", "size=LENGTH with a positive number, found 'size=-1'"),
    ])
    func badPatternsSayWhatWasExpected(text: String, expected: String) {
        #expect {
            try Pattern(parsing: text)
        } throws: { error in
            "\(error)".contains(expected) && "\(error)".contains(text)
        }
    }

    @Test func validityDefaultsTreatAnAprilGridLikeAChArUcoBoard() throws {
        let grid = ValidityRule(defaultsFor: try Pattern(parsing: "aprilgrid:6x6:tag36h11"))
        #expect(grid.minimumMarkers == 0 && grid.minimumBoardCorners == 72)
        let tiny = ValidityRule(defaultsFor: try Pattern(parsing: "aprilgrid:1x1:tag36h11"))
        #expect(tiny.minimumBoardCorners == 4)
        let loose = ValidityRule(defaultsFor: try Pattern(parsing: "apriltag:tag36h11"))
        #expect(loose.minimumMarkers == 1 && loose.minimumBoardCorners == 0)
    }

    @Test func drawingRefusesWhatCannotBeDrawn() throws {
        #expect(throws: DetectionError.cannotRender(
            reason: "loose AprilTags have no layout: draw a sheet of them with renderTagSheet")) {
            try PrintableTarget.render(Pattern(parsing: "apriltag:tag36h11"), width: 500, height: 500)
        }
        #expect {
            try PrintableTarget.render(Pattern(parsing: "aprilgrid:20x20:tag36h11"), width: 200, height: 200)
        } throws: { "\($0)".contains("is too small for a 20x20 AprilGrid") }
        #expect {
            try PrintableTarget.renderTagSheet(family: .tag36h11, columns: 2, rows: 2, width: 20000, height: 500)
        } throws: { "\($0)".contains("larger than 16384 pixels a side") }
    }
}
