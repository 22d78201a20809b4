import Foundation

/// Views as JSON, for running the same corners through another calibration (Python's
/// `cv2.calibrateCamera` in the benchmarks): `{"image_size": [w, h], "views": [{"name": ...,
/// "object": [[x, y, z], ...], "image": [[x, y], ...]}, ...]}`.
public enum CalibrationViewsFile {
    /// The JSON text of `views` (all of one image size).
    public static func json(_ views: [CalibrationView]) -> String {
        let size = views.first?.imageSize
        let object: [String: Any] = [
            "image_size": [size?.width ?? 0, size?.height ?? 0],
            "views": views.map { view -> [String: Any] in
                [
                    "name": view.name,
                    "object": view.points.map { [$0.object.x, $0.object.y, $0.object.z] },
                    "image": view.points.map { [$0.image.x, $0.image.y] },
                ]
            },
        ]
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }
}
