#!/usr/bin/python3
"""The pair's baseline for `calibration-benchmark rig`: cv2.calibrateCamera for each camera, then
cv2.stereoCalibrate (CALIB_USE_INTRINSIC_GUESS: intrinsics and extrinsics refined together) on the
corners both cameras saw, as OpenCV's tutorial runs them.

usage: rig_baseline.py CORNERS.json REPEATS
CORNERS.json: {"size": [w, h], "sets": [{"object": [[x, y, z]...], "left": [[u, v]...], "right": [[u, v]...]}...]}
Prints JSON: R (row by row), T, rms, sets, and the seconds of each repeat (calibrate_s: both
calibrateCamera calls and stereoCalibrate; stereo_s: stereoCalibrate alone).
"""
import json
import sys
import time

import cv2
import numpy as np

data = json.load(open(sys.argv[1]))
repeats = int(sys.argv[2])
size = tuple(data["size"])
objects = [np.array(s["object"], np.float32) for s in data["sets"]]
left = [np.array(s["left"], np.float32).reshape(-1, 1, 2) for s in data["sets"]]
right = [np.array(s["right"], np.float32).reshape(-1, 1, 2) for s in data["sets"]]
totals, stereo = [], []
for _ in range(repeats):
    start = time.perf_counter()
    _, K1, D1, _, _ = cv2.calibrateCamera(objects, left, size, None, None)
    _, K2, D2, _, _ = cv2.calibrateCamera(objects, right, size, None, None)
    middle = time.perf_counter()
    criteria = (cv2.TERM_CRITERIA_COUNT + cv2.TERM_CRITERIA_EPS, 100, 1e-10)
    rms, K1, D1, K2, D2, R, T, E, F = cv2.stereoCalibrate(
        objects, left, right, K1, D1, K2, D2, size, flags=cv2.CALIB_USE_INTRINSIC_GUESS, criteria=criteria)
    end = time.perf_counter()
    totals.append(end - start)
    stereo.append(end - middle)
print(json.dumps({"R": R.flatten().tolist(), "T": T.flatten().tolist(), "rms": rms, "sets": len(objects),
                  "calibrate_s": totals, "stereo_s": stereo}))
