#!/usr/bin/python3
"""The solve benchmark's mrcal side: a whole calibration with mrcal 2.2 as its own tool
mrcal-calibrate-cameras makes it, run with Debian's /usr/bin/python3 (python3-mrcal).

  mrcal_solve_baseline.py CORNERS.json FOCAL [REPEATS]

Reads views as calibration-benchmark writes them (each view with "ids": corner id = row x columns
+ column of a chessboard of "columns" x "rows" inner corners, 9 x 6 when not given; one unit per
square) and, REPEATS times (default 3), calibrates them
the way mrcal-calibrate-cameras 2.2 does without a seed (its solve_initial): mrcal.seed_stereographic
from the focal-length estimate FOCAL (mrcal-calibrate-cameras's required --focal), a solve of the
poses alone and one of the poses and the LENSMODEL_STEREOGRAPHIC core, then the seed expanded to
LENSMODEL_OPENCV5 (OpenCV's 5-coefficient model, distortion 1e-6 at most) and everything solved with
outlier rejection and regularization. Prints one JSON object:

  {"cpu_s": [..], "wall_s": [..], "fx": .., "fy": .., "cx": .., "cy": .., "distortion": [..],
   "rms": .., "outliers": ..}

Times cover the calibration only (not reading the file, nor the interpreter's start); cpu_s is the
process's CPU time (time.process_time), wall_s wall time.
"""
import json
import sys
import time

import mrcal
import numpy as np
import numpysane as nps


def calibrate(observations, W, H, focal, rng):
    N = observations.shape[0]
    imagersizes = np.array([[W, H]], np.int32)
    indices_frame_camera = np.array([[i, 0] for i in range(N)], np.int32)
    indices_frame_camintrinsics_camextrinsics = nps.glue(indices_frame_camera, indices_frame_camera[:, (1,)] - 1, axis=-1)
    intrinsics, extrinsics, frames = mrcal.seed_stereographic(
        imagersizes=imagersizes, focal_estimate=[focal], indices_frame_camera=indices_frame_camera,
        observations=observations, object_spacing=1.0)
    for core in (False, True):
        mrcal.optimize(intrinsics, extrinsics, frames, None, observations, indices_frame_camintrinsics_camextrinsics,
                       None, None, "LENSMODEL_STEREOGRAPHIC", imagersizes=imagersizes,
                       do_optimize_intrinsics_core=core, do_optimize_intrinsics_distortions=False,
                       do_optimize_calobject_warp=False, calibration_object_spacing=1.0,
                       do_apply_outlier_rejection=False, do_apply_regularization=False, verbose=False)
    lensmodel = "LENSMODEL_OPENCV5"
    extra = mrcal.lensmodel_num_params(lensmodel) - intrinsics.shape[-1]
    intrinsics = nps.glue(intrinsics, (rng.random((1, extra)) - 0.5) * 2e-6, axis=-1)
    inputs = dict(
        intrinsics=intrinsics, extrinsics_rt_fromref=extrinsics, frames_rt_toref=frames, points=None,
        observations_board=observations,
        indices_frame_camintrinsics_camextrinsics=indices_frame_camintrinsics_camextrinsics,
        observations_point=None, indices_point_camintrinsics_camextrinsics=None, lensmodel=lensmodel,
        imagersizes=imagersizes, calobject_warp=None, do_optimize_intrinsics_core=True,
        do_optimize_intrinsics_distortions=True, do_optimize_extrinsics=True, do_optimize_frames=True,
        do_optimize_calobject_warp=False, calibration_object_spacing=1.0, do_apply_outlier_rejection=True,
        do_apply_regularization=True, verbose=False)
    stats = mrcal.optimize(**inputs)
    return inputs, stats


def main(path, focal, repeats):
    data = json.load(open(path))
    W, H = data["image_size"]
    N = len(data["views"])
    columns, rows = data.get("columns", 9), data.get("rows", 6)
    observations = np.zeros((N, rows, columns, 3))
    observations[..., 2] = -1.0
    for i, view in enumerate(data["views"]):
        for ident, (x, y) in zip(view["ids"], view["image"]):
            r, c = divmod(int(ident), columns)
            observations[i, r, c] = (x, y, 1.0)
    rng = np.random.default_rng(1)
    cpu, wall = [], []
    for _ in range(repeats):
        start_cpu, start_wall = time.process_time(), time.perf_counter()
        inputs, stats = calibrate(observations.copy(), W, H, focal, rng)
        cpu.append(time.process_time() - start_cpu)
        wall.append(time.perf_counter() - start_wall)
    k = inputs["intrinsics"][0]
    print(json.dumps({"cpu_s": cpu, "wall_s": wall, "fx": k[0], "fy": k[1], "cx": k[2], "cy": k[3],
                      "distortion": list(k[4:]), "rms": stats["rms_reproj_error__pixels"],
                      "outliers": int(stats["Noutliers"])}))


if __name__ == "__main__":
    main(sys.argv[1], float(sys.argv[2]), int(sys.argv[3]) if len(sys.argv) > 3 else 3)
