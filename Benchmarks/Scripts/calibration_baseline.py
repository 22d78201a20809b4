#!/usr/bin/python3
"""The calibration benchmark's Python side, run with Debian's /usr/bin/python3 and python3-opencv.

  calibration_baseline.py CORNERS.json MODEL REPEATS

Reads views as marker-shutter's calibration-benchmark writes them ({"image_size": [w, h], "views":
[{"object": [[x, y, z], ...], "image": [[x, y], ...]}, ...]}), converts them to float32 arrays as
OpenCV's own samples do, and solves them REPEATS times with cv2.calibrateCamera and with
cv2.calibrateCameraExtended (which also returns the standard deviations, as marker-shutter does)
for MODEL pinhole (flags 0) or rational (CALIB_RATIONAL_MODEL). Prints one JSON object:

  {"fx": .., "fy": .., "cx": .., "cy": .., "rms": .., "calibrate_s": [..], "extended_s": [..],
   "calibrate_cpu_s": [..]}

The times cover the solve only, not reading the file or the interpreter's start: wall time, and for
calibrateCamera the process's CPU time too (time.process_time).
"""
import json
import sys
import time

import cv2
import numpy as np


def main(path, model, repeats):
    data = json.load(open(path))
    objects = [np.array(view["object"], np.float32) for view in data["views"]]
    images = [np.array(view["image"], np.float32) for view in data["views"]]
    size = tuple(data["image_size"])
    flags = cv2.CALIB_RATIONAL_MODEL if model == "rational" else 0
    plain, extended, plain_cpu = [], [], []
    for _ in range(repeats):
        start, start_cpu = time.perf_counter(), time.process_time()
        rms, K, D, _, _ = cv2.calibrateCamera(objects, images, size, None, None, flags=flags)
        plain.append(time.perf_counter() - start)
        plain_cpu.append(time.process_time() - start_cpu)
        start = time.perf_counter()
        cv2.calibrateCameraExtended(objects, images, size, None, None, flags=flags)
        extended.append(time.perf_counter() - start)
    print(json.dumps({"fx": K[0, 0], "fy": K[1, 1], "cx": K[0, 2], "cy": K[1, 2], "rms": rms,
                      "calibrate_s": plain, "extended_s": extended, "calibrate_cpu_s": plain_cpu}))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], int(sys.argv[3]))
