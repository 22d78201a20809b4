import Calibration
import Foundation
import MarkerDetection

/// mrcal 2.2 (Debian's python3-mrcal) driven through /usr/bin/python3: the projection uncertainty
/// of the same corners, re-solved by mrcal from a given solution.
enum Mrcal {
    /// Whether /usr/bin/python3 imports mrcal.
    static let available: Bool = (try? Python.run("import mrcal")) != nil

    static let missing = "/usr/bin/python3 with mrcal (Debian's python3-mrcal) is not installed"

    /// mrcal's `worstdirection-stdev` at each of `pixels`, for points at `distance`, after mrcal
    /// re-solves `views` (a `columns` x `rows` board with `spacing` between corners, corner id =
    /// row x columns + column) under LENSMODEL_OPENCV5 from `run`'s camera and poses.
    static func projectionUncertainty(
        run: CalibrationRun, columns: Int, rows: Int, spacing: Double, pixels: [ImagePoint], distance: Double
    ) throws -> [Double] {
        let camera = run.camera
        let input: [String: Any] = [
            "size": [camera.imageSize.width, camera.imageSize.height],
            "columns": columns, "rows": rows, "spacing": spacing,
            "intrinsics": [camera.fx, camera.fy, camera.cx, camera.cy] + camera.distortion,
            "frames": zip(run.poseRotations, run.poseTranslations).map { $0 + $1 },
            "views": run.views.map { view in view.view.points.map { [Double($0.id), $0.image.x, $0.image.y] } },
            "pixels": pixels.map { [$0.x, $0.y] }, "distance": distance,
        ]
        let path = NSTemporaryDirectory() + "mrcal-input-\(UUID().uuidString.prefix(8)).json"
        try JSONSerialization.data(withJSONObject: input).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let script = """
            import json, sys
            import numpy as np
            import mrcal
            d = json.load(open(sys.argv[1]))
            C, R = d["columns"], d["rows"]
            N = len(d["views"])
            obs = np.zeros((N, R, C, 3))
            obs[..., 2] = -1.0
            for i, points in enumerate(d["views"]):
                for ident, x, y in points:
                    r, c = divmod(int(ident), C)
                    obs[i, r, c] = (x, y, 1.0)
            inputs = dict(
                lensmodel="LENSMODEL_OPENCV5",
                intrinsics=np.array([d["intrinsics"]], dtype=float),
                extrinsics_rt_fromref=np.zeros((0, 6)),
                frames_rt_toref=np.array(d["frames"], dtype=float),
                points=None,
                observations_board=obs,
                indices_frame_camintrinsics_camextrinsics=np.array([[i, 0, -1] for i in range(N)], dtype=np.int32),
                observations_point=None,
                indices_point_camintrinsics_camextrinsics=None,
                calobject_warp=None,
                calibration_object_spacing=d["spacing"],
                imagersizes=np.array([d["size"]], dtype=np.int32),
                do_optimize_intrinsics_core=True,
                do_optimize_intrinsics_distortions=True,
                do_optimize_extrinsics=True,
                do_optimize_frames=True,
                do_optimize_calobject_warp=False,
                do_apply_outlier_rejection=False,
                do_apply_regularization=True,
                verbose=False)
            mrcal.optimize(**inputs)
            model = mrcal.cameramodel(optimization_inputs=inputs, icam_intrinsics=0)
            q = np.array(d["pixels"], dtype=float)
            v = mrcal.unproject(q, *model.intrinsics(), normalize=True)
            s = mrcal.projection_uncertainty(v * d["distance"], model, what="worstdirection-stdev")
            print(json.dumps([float(x) for x in np.atleast_1d(s)]))
            """
        let output = try Python.run(script, [path])
        guard let values = try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [Double] else {
            throw Python.PythonError(message: "mrcal printed no list: \(output)")
        }
        return values
    }
}
