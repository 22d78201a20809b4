import FileFormats
import MarkerDetection

extension Detection {
    /// The markers and board corners as the project's files record them.
    var recorded: RecordedDetection {
        func point(_ point: ImagePoint) -> RecordedDetection.Point { RecordedDetection.Point(x: point.x, y: point.y) }
        return RecordedDetection(
            markers: markers.map { RecordedDetection.Marker(id: $0.id, corners: $0.corners.map(point)) },
            corners: boardCorners.map { RecordedDetection.Corner(id: $0.id, point: point($0.point)) })
    }

    /// Milliseconds the detection took.
    var milliseconds: Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) * 1e3 + Double(attoseconds) / 1e15
    }
}
