#!/usr/bin/python3
"""The Python side of the speed comparison on speed_frames.py folders, and the scoring of both sides,
run with Debian's /usr/bin/python3 and python3-opencv.

  speed_baseline.py loop FOLDER OUT.jsonl
      cv2.setNumThreads(1), then the loop of pipeline_baseline.py over FOLDER's JPEG files (imread
      in colour, then detection_baseline.analyze's steps: gray conversion, detectMarkers,
      refineDetectedMarkers, interpolateCornersCharuco, Laplacian variance over the hull), writing
      one JSON line per frame (file, corners [[id, x, y]], sharpness, decode_ms, detect_ms) and
      printing one summary line:
        python FRAMES loop S wall, S cpu; decode MS wall a frame; detection MS wall, MS cpu a frame
      CPU time is the process's (time.process_time), wall time time.perf_counter.
  speed_baseline.py score FOLDER PROCESS.jsonl PYTHON.jsonl [TOLERANCE]
      compares both sides' corners with FOLDER/truth.json. A frame is found by a side when that
      side calls it valid (at least 12 of the 24 corners and sharpness 50, marker-shutter's rule
      for this board) and every corner it gives lies within TOLERANCE (default 0.5) pixels of the
      truth. Prints each side's recall, the frames only one side found, the corner errors, and
      both sides' mean detection time a frame.
"""
import json
import os
import sys
import time

import cv2
import numpy as np

from detection_baseline import board, detect_board
from pipeline_baseline import natural

MINIMUM_CORNERS = 12
MINIMUM_SHARPNESS = 50


def analyze(frame, charuco, parameters):
    """detection_baseline.analyze, keeping the corners' ids and places."""
    _, corners, corner_ids, sharpness = detect_board(frame, charuco, parameters)
    if sharpness is None:
        return [], None
    found = [[int(i), float(p[0]), float(p[1])] for i, p in zip(corner_ids.reshape(-1), corners.reshape(-1, 2))]
    return found, float(sharpness)


def loop(folder, out):
    cv2.setNumThreads(1)
    names = sorted((n for n in os.listdir(folder) if n.lower().endswith((".jpg", ".jpeg"))), key=natural)
    charuco = board()
    parameters = cv2.aruco.DetectorParameters_create()
    rows = []
    decode_wall = detect_wall = detect_cpu = 0.0
    start_wall, start_cpu = time.perf_counter(), time.process_time()
    for name in names:
        t0 = time.perf_counter()
        frame = cv2.imread(os.path.join(folder, name), cv2.IMREAD_COLOR)
        t1, c1 = time.perf_counter(), time.process_time()
        corners, sharpness = analyze(frame, charuco, parameters)
        t2, c2 = time.perf_counter(), time.process_time()
        decode_wall += t1 - t0
        detect_wall += t2 - t1
        detect_cpu += c2 - c1
        rows.append({"file": name, "corners": corners, "sharpness": sharpness,
                     "decode_ms": round(1000 * (t1 - t0), 3), "detect_ms": round(1000 * (t2 - t1), 3)})
    wall, cpu = time.perf_counter() - start_wall, time.process_time() - start_cpu
    with open(out, "w") as file:
        for row in rows:
            file.write(json.dumps(row) + "\n")
    n = max(1, len(names))
    print(f"python {len(names)} frames: loop {wall:.3f} s wall, {cpu:.3f} s cpu; decode {1000 * decode_wall / n:.2f} ms "
          f"wall a frame; detection {1000 * detect_wall / n:.2f} ms wall, {1000 * detect_cpu / n:.2f} ms cpu a frame",
          flush=True)


def side_rows(path, process):
    rows = {}
    with open(path) as file:
        for line in file:
            row = json.loads(line)
            if process:
                corners = [[c["id"], c["xy"][0], c["xy"][1]] for c in row.get("corners", [])]
                rows[os.path.basename(row["file"])] = (corners, row.get("sharpness"), row.get("detect_ms"))
            else:
                rows[row["file"]] = (row["corners"], row["sharpness"], row["detect_ms"])
    return rows


def score(folder, process_path, python_path, tolerance):
    with open(os.path.join(folder, "truth.json")) as file:
        truth = json.load(file)
    sides = {"marker-shutter": side_rows(process_path, True), "python": side_rows(python_path, False)}
    found = {}
    for side, rows in sides.items():
        found[side] = set()
        errors, valid, times = [], 0, []
        for frame in truth["frames"]:
            corners, sharpness, detect_ms = rows.get(frame["file"], ([], None, None))
            if detect_ms is not None:
                times.append(detect_ms)
            expected = {c[0]: (c[1], c[2]) for c in frame["corners"]}
            distances = [float(np.hypot(x - expected[i][0], y - expected[i][1])) for i, x, y in corners if i in expected]
            is_valid = len(corners) >= MINIMUM_CORNERS and sharpness is not None and sharpness >= MINIMUM_SHARPNESS
            valid += is_valid
            errors += distances
            if is_valid and len(distances) == len(corners) and max(distances) <= tolerance:
                found[side].add(frame["file"])
        errors = np.array(errors) if errors else np.zeros(1)
        print(f"{side}: found {len(found[side])} of {len(truth['frames'])} frames (valid {valid}); corners "
              f"{len(errors)}, error median {np.median(errors):.3f} px, 99th percentile "
              f"{np.percentile(errors, 99):.3f} px, largest {errors.max():.3f} px; detection "
              f"{np.mean(times) if times else float('nan'):.2f} ms a frame (mean)")
    only = {side: sorted(found[side] - found[other]) for side, other in
            (("marker-shutter", "python"), ("python", "marker-shutter"))}
    print(f"found by both {len(found['marker-shutter'] & found['python'])}; only marker-shutter "
          f"{len(only['marker-shutter'])} {only['marker-shutter'][:6]}; only python {len(only['python'])} "
          f"{only['python'][:6]} (tolerance {tolerance} px)")


if __name__ == "__main__":
    if sys.argv[1:2] == ["loop"] and len(sys.argv) == 4:
        loop(sys.argv[2], sys.argv[3])
    elif sys.argv[1:2] == ["score"] and len(sys.argv) in (5, 6):
        score(sys.argv[2], sys.argv[3], sys.argv[4], float(sys.argv[5]) if len(sys.argv) == 6 else 0.5)
    else:
        sys.exit(__doc__)
