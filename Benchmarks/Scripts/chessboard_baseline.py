#!/usr/bin/python3
"""The chessboard peer: what a Python script does with cv2 alone, run with Debian's /usr/bin/python3
and python3-opencv 4.6, one thread (cv2.setNumThreads(1)).

  chessboard_baseline.py FOLDER COLUMNS ROWS [OUT.jsonl]

Over the folder's JPEG and PNG files in natural name order (img2 before img10): cv2.imread in gray,
cv2.findChessboardCorners with the flags marker-shutter's full search uses (ADAPTIVE_THRESH,
NORMALIZE_IMAGE, FAST_CHECK), then cv2.cornerSubPix with the OpenCV tutorial's 11x11 window.
Prints one line per frame (CPU ms of the detection, found or not) and a summary:

  python FRAMES frames: detection total MS ms CPU, median MS, slowest MS (NAME), slowest/median X; found N

With OUT.jsonl, writes one JSON line per frame: file, found, corners [[x, y], ...], detect_cpu_ms.
Run it under `perf stat` or `/usr/bin/time` for the whole process's CPU time.
"""
import json
import os
import re
import sys
import time

import cv2


def natural(name):
    return [int(part) if part.isdigit() else part for part in re.split(r"(\d+)", name)]


def main(folder, columns, rows, out=None):
    cv2.setNumThreads(1)
    names = sorted((n for n in os.listdir(folder) if n.lower().endswith((".jpg", ".jpeg", ".png"))), key=natural)
    flags = cv2.CALIB_CB_ADAPTIVE_THRESH | cv2.CALIB_CB_NORMALIZE_IMAGE | cv2.CALIB_CB_FAST_CHECK
    criteria = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 30, 0.001)
    results = []
    for name in names:
        gray = cv2.imread(os.path.join(folder, name), cv2.IMREAD_GRAYSCALE)
        start = time.process_time()
        found, corners = cv2.findChessboardCorners(gray, (columns, rows), flags=flags)
        if found:
            corners = cv2.cornerSubPix(gray, corners, (11, 11), (-1, -1), criteria)
        cpu = 1000 * (time.process_time() - start)
        results.append({"file": name, "found": bool(found),
                        "corners": corners.reshape(-1, 2).tolist() if found else [], "detect_cpu_ms": round(cpu, 3)})
        print(f"{name:16s} {cpu:8.1f} ms CPU  {'found' if found else 'not found'}", flush=True)
    times = sorted(r["detect_cpu_ms"] for r in results)
    middle = times[len(times) // 2] if len(times) % 2 else (times[len(times) // 2 - 1] + times[len(times) // 2]) / 2
    slowest = max(results, key=lambda r: r["detect_cpu_ms"])
    print(f"python {len(results)} frames: detection total {sum(times):.1f} ms CPU, median {middle:.1f}, slowest "
          f"{slowest['detect_cpu_ms']:.1f} ({slowest['file']}), slowest/median {slowest['detect_cpu_ms'] / middle:.1f}x; "
          f"found {sum(r['found'] for r in results)}")
    if out:
        with open(out, "w") as file:
            for row in results:
                file.write(json.dumps(row) + "\n")


if __name__ == "__main__":
    if len(sys.argv) < 4:
        sys.exit("usage: chessboard_baseline.py FOLDER COLUMNS ROWS [OUT.jsonl]")
    main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4] if len(sys.argv) > 4 else None)
