#!/usr/bin/python3
"""The detection benchmark's Python side, run with Debian's /usr/bin/python3 and python3-opencv.

  detection_baseline.py frames FRAME_DIR
      writes the benchmark frames: a ChArUco board (5x7 squares, DICT_6X6_250) drawn by OpenCV,
      seen at an angle in front of a noisy gradient, at 640x480, 1280x720 and 1920x1080 (PNG).
  detection_baseline.py bench FRAME_DIR THREADS NAME...
      the same per-frame work as MarkerDetector.detect for charuco:5x7:DICT_6X6_250 through cv2:
      reads FRAME_DIR/NAME.png for each NAME, runs 5 warm-up detections on each, then for every
      line `NAME COUNT` on standard input runs COUNT timed detections of that frame and prints one
      line: NAME THREADS CORNERS t1 t2 ... (milliseconds per detection).
"""
import sys
import time

import cv2
import numpy as np

SIZES = [(640, 480), (1280, 720), (1920, 1080)]


def board():
    dictionary = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_6X6_250)
    return cv2.aruco.CharucoBoard_create(5, 7, 0.04, 0.02, dictionary)


def write_frames(folder):
    flat = board().draw((1000, 1400), marginSize=60)
    source = np.float32([[0, 0], [999, 0], [999, 1399], [0, 1399]])
    generator = np.random.default_rng(3)
    for width, height in SIZES:
        # The board fills about 80% of the frame's height, turned and tilted.
        target = (np.float32([[0.36, 0.08], [0.62, 0.12], [0.66, 0.92], [0.33, 0.86]]) * np.float32([width, height])).astype(np.float32)
        homography = cv2.getPerspectiveTransform(source, target)
        ramp = np.linspace(60, 190, width, dtype=np.float32)[None, :].repeat(height, axis=0)
        scene = cv2.warpPerspective(flat, homography, (width, height), flags=cv2.INTER_AREA,
                                    borderMode=cv2.BORDER_TRANSPARENT, dst=ramp.astype(np.uint8))
        scene = cv2.GaussianBlur(scene, (0, 0), 0.7 * width / 640)
        noisy = scene.astype(np.float32) + generator.normal(0, 3, scene.shape)
        frame = cv2.cvtColor(np.clip(noisy, 0, 255).astype(np.uint8), cv2.COLOR_GRAY2BGR)
        cv2.imwrite(f"{folder}/frame-{width}x{height}.png", frame)


def detect(frame, charuco, parameters):
    return analyze(frame, charuco, parameters)[1]


def detect_board(frame, charuco, parameters):
    """OpenCV's ChArUco detection as its tutorial runs it: the markers, the board corners (pixel
    centres at whole numbers), their ids, and the sharpness over the hull of everything found
    (None when nothing was found)."""
    gray = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    markers, ids, rejected = cv2.aruco.detectMarkers(gray, charuco.dictionary, parameters=parameters)
    markers, ids, rejected, _ = cv2.aruco.refineDetectedMarkers(
        gray, charuco, markers, ids, rejected, None, None, 10.0, 3.0, True, None, parameters)
    corners, corner_ids = np.empty((0, 1, 2), np.float32), np.empty((0, 1), np.int32)
    if ids is not None and len(ids) > 0:
        count, found, found_ids = cv2.aruco.interpolateCornersCharuco(markers, ids, gray, charuco)
        if count:
            corners, corner_ids = found - 0.5, found_ids
    points = np.concatenate([m.reshape(-1, 2) for m in markers] + [corners.reshape(-1, 2)])
    if len(points) == 0:
        return markers, corners, corner_ids, None
    hull = cv2.convexHull(points.astype(np.float32)).reshape(-1, 2)
    x, y, w, h = cv2.boundingRect(hull)
    x0, y0 = max(x, 0), max(y, 0)
    x1, y1 = min(x + w, gray.shape[1]), min(y + h, gray.shape[0])
    mask = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.fillConvexPoly(mask, (np.round(hull) - [x0, y0]).astype(np.int32), 255)
    laplacian = cv2.Laplacian(gray[y0:y1, x0:x1], cv2.CV_16S)
    _, deviation = cv2.meanStdDev(laplacian, mask=mask)
    return markers, corners, corner_ids, deviation[0][0] ** 2


def analyze(frame, charuco, parameters):
    """Markers found, board corners found and sharpness (None when nothing was found)."""
    markers, corners, _, sharpness = detect_board(frame, charuco, parameters)
    return len(markers), len(corners), sharpness


def bench(folder, threads, names):
    cv2.setNumThreads(threads)
    charuco = board()
    parameters = cv2.aruco.DetectorParameters_create()
    frames = {}
    for name in names:
        frame = cv2.imread(f"{folder}/{name}.png", cv2.IMREAD_COLOR)
        for _ in range(5):
            corners = detect(frame, charuco, parameters)
        frames[name] = (frame, corners)
    for line in sys.stdin:
        name, count = line.split()
        frame, corners = frames[name]
        times = []
        for _ in range(int(count)):
            start = time.perf_counter()
            detect(frame, charuco, parameters)
            times.append((time.perf_counter() - start) * 1000)
        print(name, cv2.getNumThreads(), corners, " ".join(f"{t:.4f}" for t in times), flush=True)


if __name__ == "__main__":
    if sys.argv[1:2] == ["frames"]:
        write_frames(sys.argv[2])
    elif sys.argv[1:2] == ["bench"]:
        bench(sys.argv[2], int(sys.argv[3]), sys.argv[4:])
    else:
        sys.exit(__doc__)
