#!/usr/bin/python3
"""The pipeline benchmark's Python side, run with Debian's /usr/bin/python3 and python3-opencv.

  pipeline_baseline.py FOLDER [THREADS]

A plain loop over the folder's JPEG files in natural name order: cv2.imread each one (BGR), then
the same detection as marker-shutter's for charuco:5x7:DICT_6X6_250 (detection_baseline.analyze:
gray conversion, detectMarkers, refineDetectedMarkers with the board, interpolateCornersCharuco,
Laplacian variance over the hull). OpenCV's own threading unless THREADS is given. Prints one line:

  python FRAMES SECONDS THREADS MARKERS CORNERS VALID

SECONDS covers the loop only (not the interpreter's start or the import of cv2); MARKERS and
CORNERS are totals over all frames; VALID counts frames with at least 12 of the board's 24 corners
and a sharpness of at least 50 (marker-shutter's default rule for this board).
"""
import os
import re
import sys
import time

import cv2

from detection_baseline import analyze, board


def natural(name):
    return [int(part) if part.isdigit() else part for part in re.split(r"(\d+)", name)]


def main(folder, threads=None):
    if threads is not None:
        cv2.setNumThreads(threads)
    names = sorted((name for name in os.listdir(folder) if name.lower().endswith((".jpg", ".jpeg"))), key=natural)
    paths = [os.path.join(folder, name) for name in names]
    charuco = board()
    parameters = cv2.aruco.DetectorParameters_create()
    markers = corners = valid = 0
    start = time.perf_counter()
    for path in paths:
        frame = cv2.imread(path, cv2.IMREAD_COLOR)
        found_markers, found_corners, sharpness = analyze(frame, charuco, parameters)
        markers += found_markers
        corners += found_corners
        valid += found_corners >= 12 and sharpness is not None and sharpness >= 50
    elapsed = time.perf_counter() - start
    print("python", len(paths), f"{elapsed:.4f}", cv2.getNumThreads(), markers, corners, valid, flush=True)


if __name__ == "__main__":
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    main(sys.argv[1], int(sys.argv[2]) if len(sys.argv) == 3 else None)
