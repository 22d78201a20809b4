import MarkerDetection
import Testing

/// A detection of `count` board corners in a row from (x, y), 10 pixels apart, in a 1920x1080 image.
private func corners(_ count: Int, x: Double = 500, y: Double = 400) -> Detection {
    let found = (0..<count).map { BoardCorner(id: $0, point: ImagePoint(x: x + 10 * Double($0), y: y)) }
    return Detection(imageSize: ImageSize(width: 1920, height: 1080), markers: [], boardCorners: found,
                     sharpness: found.isEmpty ? nil : 100, duration: .milliseconds(1))
}

private let nothing = corners(0)

@Suite struct RegionTrackerTests {
    @Test func searchesTheWholeImageUntilSomethingIsFound() {
        var tracker = RegionTracker()
        for _ in 0..<3 {
            #expect(tracker.nextSearch() == .wholeImage)
            #expect(tracker.record(nothing, after: .wholeImage) == false)
        }
    }

    @Test func thenSearchesAroundTheLastDetectionGrownByTheMargin() {
        var tracker = RegionTracker(fullSearchInterval: 10, margin: 0.5)
        #expect(tracker.record(corners(11), after: .wholeImage) == false)
        // Corners span x 500...600 at y 400: grown by half the larger side (100) on every side.
        #expect(tracker.nextSearch() == .region(ImageRegion(x: 450, y: 350, width: 201, height: 101)))
    }

    /// Live searches a large frame whole one downscaled pass at a time: the pass moves on while
    /// whole-image searches find nothing, stays once one finds the board, and moves on when one
    /// finds less than the frame before (a pass that sees only part of the board).
    @Test func theWholeImagePassMovesOnUntilAPassFindsAsMuchAsTheFrameBefore() {
        var tracker = RegionTracker(fullSearchInterval: 3, margin: 0.25)
        var passes: [Int] = []
        func frame(_ found: Detection) {
            let search = tracker.nextSearch()
            if search == .wholeImage { passes.append(tracker.wholeImagePass) }
            if tracker.record(found, after: search) {
                passes.append(tracker.wholeImagePass)
                _ = tracker.record(found, after: .wholeImage)
            }
        }
        frame(nothing)          // pass 0 finds nothing
        frame(nothing)          // pass 1 neither
        frame(corners(24))      // pass 2 finds the board: it stays
        frame(corners(24))      // regions
        frame(corners(24))
        frame(corners(20))      // whole image, pass 2: less than the frame before
        frame(corners(24))      // regions
        frame(corners(24))
        frame(corners(24))      // whole image, pass 3: as much: it stays
        #expect(passes == [0, 1, 2, 2, 3])
        #expect(tracker.wholeImagePass == 3)
    }

    @Test func searchesTheWholeImageEveryIntervalFrames() {
        var tracker = RegionTracker(fullSearchInterval: 4, margin: 0.25)
        var searches: [RegionTracker.Search] = []
        for _ in 0..<9 {
            let search = tracker.nextSearch()
            searches.append(search)
            #expect(tracker.record(corners(11), after: search) == false)
        }
        let whole = searches.indices.filter { searches[$0] == .wholeImage }
        #expect(whole == [0, 4, 8])
    }

    @Test func aRegionSearchThatFindsNothingAsksForTheWholeImageAtOnce() {
        var tracker = RegionTracker()
        _ = tracker.record(corners(11), after: .wholeImage)
        let search = tracker.nextSearch()
        #expect(search.region != nil)
        #expect(tracker.record(nothing, after: search) == true)
        #expect(tracker.nextSearch() == .wholeImage)
    }

    @Test func aRegionSearchThatFindsLessThanBeforeAsksForTheWholeImage() {
        var tracker = RegionTracker()
        _ = tracker.record(corners(11), after: .wholeImage)
        let search = tracker.nextSearch()
        #expect(tracker.record(corners(7), after: search) == true)
        // The whole image finds the same 7 (the board is partly out of view): regions again, on 7.
        #expect(tracker.record(corners(7), after: .wholeImage) == false)
        let next = tracker.nextSearch()
        #expect(next.region != nil)
        #expect(tracker.record(corners(7), after: next) == false)
    }

    @Test func theRegionFollowsTheBoard() {
        var tracker = RegionTracker(fullSearchInterval: 100, margin: 0)
        _ = tracker.record(corners(11, x: 100, y: 100), after: .wholeImage)
        for step in 1...5 {
            let search = tracker.nextSearch()
            #expect(search.region?.x == 100 + 20 * (step - 1))
            _ = tracker.record(corners(11, x: 100 + 20 * Double(step), y: 100), after: search)
        }
    }

    @Test func aBoardFillingTheImageIsSearchedWhole() {
        var tracker = RegionTracker(margin: 0.25)
        let wide = Detection(
            imageSize: ImageSize(width: 1920, height: 1080), markers: [],
            boardCorners: [BoardCorner(id: 0, point: ImagePoint(x: 10, y: 10)), BoardCorner(id: 1, point: ImagePoint(x: 1900, y: 1070))],
            sharpness: 100, duration: .milliseconds(1))
        _ = tracker.record(wide, after: .wholeImage)
        #expect(tracker.nextSearch() == .wholeImage)
    }
}
