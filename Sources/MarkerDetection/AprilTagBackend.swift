import Pixels

/// Detection of the AprilTag patterns (`apriltag:` and `aprilgrid:`) over libapriltag 3: turns the
/// tags it finds into markers and, for an AprilGrid, board corners numbered as Kalibr numbers them.
final class AprilTagBackend: Sendable {
    private let handle: AprilTagHandle
    private let grid: AprilGrid?

    /// Makes the backend for `pattern`, or returns `nil` for a pattern OpenCV detects.
    init?(pattern: Pattern) throws(DetectionError) {
        switch pattern {
        case .aprilTag(let family, let options):
            grid = nil
            handle = try AprilTagHandle(family: family, options: options, grid: nil)
        case .aprilGrid(let grid):
            self.grid = grid
            handle = try AprilTagHandle(family: grid.family, options: grid.options, grid: grid)
        default:
            return nil
        }
    }

    /// Detects in `image` on the calling thread (libapriltag's own worker pool is not used).
    func detect(_ image: PixelBuffer) throws(DetectionError) -> (markers: [Marker], corners: [BoardCorner], sharpness: Double?) {
        // libapriltag's order among equal ids varies from call to call: sort by id, then position.
        let (found, sharpness) = try handle.detect(image)
        let tags = found.sorted { ($0.id, $0.corners[0].y, $0.corners[0].x) < ($1.id, $1.corners[0].y, $1.corners[0].x) }
        guard let grid else {
            return (tags.map { Marker(id: $0.id, corners: $0.corners) }, [], sharpness)
        }
        // An id seen twice is a stray tag that is not part of the grid: both copies are left out.
        var seen: [Int: Int] = [:]
        for tag in tags { seen[tag.id, default: 0] += 1 }
        let onBoard = tags.filter { seen[$0.id] == 1 }
        var corners: [BoardCorner] = []
        for tag in onBoard {
            // OpenCV's order from the tag's own top-left, clockwise; the tags are printed upright.
            let places = [(right: false, top: true), (right: true, top: true), (right: true, top: false), (right: false, top: false)]
            for (index, place) in places.enumerated() where tag.cornerRefined[index] {
                corners.append(BoardCorner(id: grid.cornerID(tag: tag.id, right: place.right, top: place.top), point: tag.corners[index]))
            }
        }
        corners.sort { $0.id < $1.id }
        return (onBoard.map { Marker(id: $0.id, corners: $0.corners) }, corners, sharpness)
    }
}
