import Foundation

/// Views as JSON, for running the same corners through another calibration (Python's
/// `cv2.calibrateCamera` in the benchmarks): `{"image_size": [w, h], "views": [{"name": ...,
/// "object": [[x, y, z], ...], "image": [[x, y], ...]}, ...]}`, keys sorted.
public enum CalibrationViewsFile {
    /// The file's fields, by their names in it.
    private struct File: Encodable {
        struct View: Encodable {
            let name: String
            let object: [[Double]]
            let image: [[Double]]
        }

        let image_size: [Int]
        let views: [View]
    }

    /// The JSON text of `views` (all of one image size).
    public static func json(_ views: [CalibrationView]) -> String {
        let size = views.first?.imageSize
        let file = File(
            image_size: [size?.width ?? 0, size?.height ?? 0],
            views: views.map { view in
                File.View(
                    name: view.name, object: view.points.map { [$0.object.x, $0.object.y, $0.object.z] },
                    image: view.points.map { [$0.image.x, $0.image.y] })
            })
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let data = (try? encoder.encode(file)) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }
}
