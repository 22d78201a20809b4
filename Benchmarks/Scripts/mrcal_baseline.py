#!/usr/bin/python3
"""The uncertainty benchmark's mrcal side, run with Debian's /usr/bin/python3 (python3-mrcal).

  mrcal_baseline.py CORNERS.json

Reads views as calibration-benchmark writes them (each view with "ids" too: corner id = row x 9 +
column of a 9x6 chessboard, one unit per square), seeds mrcal 2.2 from cv2.calibrateCamera's
solution (LENSMODEL_OPENCV5, OpenCV's 5-coefficient model), and times mrcal.optimize, then
mrcal.projection_uncertainty over a 32-point-wide grid at the boards' mean distance. Prints one
JSON object: {"cv2_s": .., "optimize_s": .., "uncertainty_s": .., "centre_px": ..}.
"""
import json
import sys
import time

import cv2
import mrcal
import numpy as np


def main(path):
    data = json.load(open(path))
    W, H = data["image_size"]
    objects = [np.array(v["object"], np.float32) for v in data["views"]]
    images = [np.array(v["image"], np.float32) for v in data["views"]]
    start = time.perf_counter()
    rms, K, D, rvecs, tvecs = cv2.calibrateCamera(objects, images, (W, H), None, None)
    cv2_s = time.perf_counter() - start
    N = len(images)
    obs = np.zeros((N, 6, 9, 3))
    obs[..., 2] = -1.0
    for i, view in enumerate(data["views"]):
        for ident, (x, y) in zip(view["ids"], view["image"]):
            r, c = divmod(int(ident), 9)
            obs[i, r, c] = (x, y, 1.0)
    intrinsics = [K[0, 0], K[1, 1], K[0, 2], K[1, 2]] + list(D.ravel()[:5])
    inputs = dict(
        lensmodel="LENSMODEL_OPENCV5", intrinsics=np.array([intrinsics], float),
        extrinsics_rt_fromref=np.zeros((0, 6)),
        frames_rt_toref=np.array([np.r_[r.ravel(), t.ravel()] for r, t in zip(rvecs, tvecs)], float),
        points=None, observations_board=obs,
        indices_frame_camintrinsics_camextrinsics=np.array([[i, 0, -1] for i in range(N)], np.int32),
        observations_point=None, indices_point_camintrinsics_camextrinsics=None, calobject_warp=None,
        calibration_object_spacing=1.0, imagersizes=np.array([[W, H]], np.int32),
        do_optimize_intrinsics_core=True, do_optimize_intrinsics_distortions=True, do_optimize_extrinsics=True,
        do_optimize_frames=True, do_optimize_calobject_warp=False, do_apply_outlier_rejection=True,
        do_apply_regularization=True, verbose=False)
    start = time.perf_counter()
    mrcal.optimize(**inputs)
    optimize_s = time.perf_counter() - start
    model = mrcal.cameramodel(optimization_inputs=inputs, icam_intrinsics=0)
    distance = float(np.mean([np.linalg.norm(t) for t in inputs["frames_rt_toref"][:, 3:]]))
    rows = round(31 * (H - 1) / (W - 1)) + 1
    q = np.array([[x, y] for y in np.linspace(0, H - 1, rows) for x in np.linspace(0, W - 1, 32)])
    start = time.perf_counter()
    v = mrcal.unproject(q, *model.intrinsics(), normalize=True)
    s = mrcal.projection_uncertainty(v * distance, model, what="worstdirection-stdev")
    uncertainty_s = time.perf_counter() - start
    centre = mrcal.projection_uncertainty(
        mrcal.unproject(np.array([(W - 1) / 2, (H - 1) / 2]), *model.intrinsics(), normalize=True) * distance,
        model, what="worstdirection-stdev")
    print(json.dumps({"cv2_s": cv2_s, "optimize_s": optimize_s, "uncertainty_s": uncertainty_s,
                      "centre_px": float(centre)}))


if __name__ == "__main__":
    main(sys.argv[1])
