#!/usr/bin/python3
"""OpenCV 4.6 detector parameters for fast mode's downscaled pass, measured with Debian's
/usr/bin/python3 and python3-opencv on the frames fast_detection_frames.py writes.

  fast_detection_parameters.py FOLDER [ROUNDS]

For every ChArUco frame, the frame is shrunk as fast mode shrinks it (a board spanning 30% of the
width shows 20-pixel markers; never below 320 pixels on the longer side; INTER_AREA) and
cv2.aruco.detectMarkers runs with each parameter set below, taking turns frame by frame; prints
the board markers found (of the 17 per frame) and the mean over frames of each frame's median time
per set. (What refineDetectedMarkers and the fallbacks recover afterwards is not counted here.)
"""
import json
import sys
import time

import cv2
import numpy as np

WORKING_MARKER_SIDE = 20
TYPICAL_BOARD_FRACTION = 0.3


def scale_for(width, height):
    side = TYPICAL_BOARD_FRACTION * width * 0.02 / (5 * 0.04)
    return max(WORKING_MARKER_SIDE / side, 320 / max(width, height))


def parameter_sets():
    def make(**changes):
        parameters = cv2.aruco.DetectorParameters_create()
        for name, value in changes.items():
            setattr(parameters, name, value)
        return parameters

    return [
        ("OpenCV defaults (windows 3,13,23; perimeter 0.03; no refinement)", make()),
        ("corner refinement SUBPIX, window 2", make(cornerRefinementMethod=cv2.aruco.CORNER_REFINE_SUBPIX,
                                                    cornerRefinementWinSize=2)),
        ("corner refinement CONTOUR", make(cornerRefinementMethod=cv2.aruco.CORNER_REFINE_CONTOUR)),
        ("threshold windows 3,13 (max 13)", make(adaptiveThreshWinSizeMax=13)),
        ("threshold windows 3,23 (step 20)", make(adaptiveThreshWinSizeStep=20)),
        ("threshold window 13 only", make(adaptiveThreshWinSizeMin=13, adaptiveThreshWinSizeMax=13)),
        ("min perimeter 0.06 of the image", make(minMarkerPerimeterRate=0.06)),
        ("min perimeter 0.10 of the image", make(minMarkerPerimeterRate=0.10)),
    ]


def main():
    folder = sys.argv[1]
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    cv2.setNumThreads(1)
    truth = json.load(open(f"{folder}/truth.json"))
    dictionary = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_6X6_250)
    board = cv2.aruco.CharucoBoard_create(5, 7, 0.04, 0.02, dictionary)
    sets = parameter_sets()
    found = [0] * len(sets)
    times = [[] for _ in sets]
    frames = [f for f in truth["frames"] if f["pattern"].startswith("charuco") and f["corners"] is not None]
    for frame in frames:
        gray = cv2.imread(f"{folder}/{frame['file']}", cv2.IMREAD_GRAYSCALE)
        scale = scale_for(gray.shape[1], gray.shape[0])
        small = cv2.resize(gray, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA) if scale < 0.8 else gray
        samples = [[] for _ in sets]
        counts = [0] * len(sets)
        for round_ in range(rounds):
            order = range(len(sets)) if round_ % 2 == 0 else reversed(range(len(sets)))
            for index in order:
                start = time.perf_counter()
                _, ids, _ = cv2.aruco.detectMarkers(small, dictionary, parameters=sets[index][1])
                samples[index].append((time.perf_counter() - start) * 1000)
                on_board = set() if ids is None else {int(i) for i in ids.flatten() if i < 17}
                counts[index] = len(on_board)
        for index in range(len(sets)):
            found[index] += counts[index]
            times[index].append(float(np.median(samples[index])))
    print(f"fast_detection_parameters: {len(frames)} ChArUco frames, downscaled pass only, {rounds} rounds, 1 thread; "
          f"load average {open('/proc/loadavg').read().split()[:3]}")
    print(f"{'parameters':68} {'markers':>9} {'ms/frame':>9}")
    for index, (name, _) in enumerate(sets):
        print(f"{name:68} {found[index]:>5}/{17 * len(frames):<3} {np.mean(times[index]):9.2f}")


if __name__ == "__main__":
    main()
