#!/usr/bin/python3
"""ChArUco corner accuracy against rendered ground truth, run with Debian's /usr/bin/python3 and
python3-opencv.

  corner_accuracy.py frames FOLDER --seed N [--count N]
      writes COUNT (default 40) gray PNG views of each of four ChArUco boards at each of 1280x720
      and 1920x1080 into FOLDER/BOARD/ (one folder per board, for `process --pattern`), and
      FOLDER/truth.json with each view's parameters and every board corner's true place in the
      image (OpenCV's convention: the centre of the top-left pixel is (0, 0)). The same arguments
      always make the same files.
  corner_accuracy.py opencv FOLDER OUT.jsonl
      OpenCV's own ChArUco detection as its tutorial runs it (detectMarkers, refineDetectedMarkers,
      interpolateCornersCharuco) over every view, one JSON line per view with its corners as
      OpenCV gives them (the centre of the top-left pixel at (0.5, 0.5): no shift applied).
  corner_accuracy.py score FOLDER ROWS.jsonl [--shift D] [--worst N]
      compares the corners of ROWS.jsonl (`process` rows of FOLDER's board folders, concatenated,
      or the lines of `opencv`; `--shift -0.5` moves every corner by -0.5 px in x and y first) with
      the truth: how many corners, median, RMS, 99th percentile and worst error in pixels, the same
      per board and per size, and the N (default 15) worst corners with their view's tilt, blur,
      noise and square size, and whether the corner is on the board's outer ring.

The boards (pattern as `process --pattern` takes it; square and marker in the board's unit):
  charuco:5x7:DICT_6X6_250                           marker 0.5 of the square
  charuco:8x8:DICT_4X4_1000:square=1,marker=0.75     marker 0.75 (the real recordings' board)
  charuco:11x8:DICT_5X5_100:square=0.03,marker=0.021 marker 0.7
  charuco:7x5:DICT_4X4_50:square=0.04,marker=0.032   marker 0.8 (little white around a marker)
The views (every draw uniform unless said otherwise):
  tilt       0 to 70 degrees about an in-plane axis at 0 to 180 degrees, seen from 2 board widths
             away; turned -45 to +45 degrees in the image plane.
  scale      the board's projected width is 15% to 140% of the image width (shrunk to fit the
             height when a whole view would not fit).
  position   in 6 views of 10 the whole board lies inside 2%..98% of the image; in the others its
             centre lies anywhere in the middle 80% of each side, so part of it may leave the image.
  blur       Gaussian, sigma 0.3 to 2.0 pixels at 1280 wide, times sqrt(width / 1280).
  noise      Gaussian, sigma 0 to 8 grey levels.
  contrast   black printed at 15 to 70, white at 150 to 240 grey levels.
  background a grey ramp with 25 dark and light blocks, as speed_frames.py draws it.
The board is drawn flat with squares of 200 pixels (markers by cv2.aruco.drawMarker at the board's
own marker positions) on white paper with half a square of margin, warped with the view's
homography into an image four times the frame's size and shrunk by 4 with area averaging, then
blurred and made noisy, so ground truth is the homography applied to the flat corners.
"""
import argparse
import json
import math
import os

import cv2
import numpy as np

SIZES = [(1280, 720), (1920, 1080)]
SQUARE = 200  # flat board square side, pixels
UP = 4  # supersampling of the warp
BOARDS = [
    # name, columns, rows, dictionary, square, marker
    ("charuco:5x7:DICT_6X6_250", 5, 7, cv2.aruco.DICT_6X6_250, 0.04, 0.02),
    ("charuco:8x8:DICT_4X4_1000:square=1,marker=0.75", 8, 8, cv2.aruco.DICT_4X4_1000, 1.0, 0.75),
    ("charuco:11x8:DICT_5X5_100:square=0.03,marker=0.021", 11, 8, cv2.aruco.DICT_5X5_100, 0.03, 0.021),
    ("charuco:7x5:DICT_4X4_50:square=0.04,marker=0.032", 7, 5, cv2.aruco.DICT_4X4_50, 0.04, 0.032),
]


def folder_name(pattern):
    return pattern.split(":")[1] + "-" + pattern.split(":")[2]


def opencv_board(columns, rows, dictionary, square, marker):
    return cv2.aruco.CharucoBoard_create(columns, rows, square, marker, cv2.aruco.getPredefinedDictionary(dictionary))


def flat_board(columns, rows, dictionary, square, marker):
    """The board drawn flat (black 0, white 255) with SQUARE-pixel squares and half a square of
    white margin, and its corners [[id, x, y]] in the flat image (pixel centres at whole numbers)."""
    board = opencv_board(columns, rows, dictionary, square, marker)
    margin = SQUARE // 2
    flat = np.full((rows * SQUARE + 2 * margin, columns * SQUARE + 2 * margin), 255, np.uint8)
    side = int(round(marker / square * SQUARE))
    assert abs(marker / square * SQUARE - side) < 1e-9 and (SQUARE - side) % 2 == 0
    marked = set()
    for marker_id, points in zip(board.ids.flatten(), board.objPoints):
        x, y = points[0][0] / square * SQUARE, points[0][1] / square * SQUARE
        top, left = margin + int(round(y)), margin + int(round(x))
        flat[top:top + side, left:left + side] = cv2.aruco.drawMarker(board.dictionary, int(marker_id), side)
        marked.add((int(x // SQUARE), int(y // SQUARE)))
    parity = (sum(next(iter(marked))) % 2)
    for row in range(rows):
        for column in range(columns):
            if (column + row) % 2 != parity:
                assert (column, row) not in marked
                top, left = margin + row * SQUARE, margin + column * SQUARE
                flat[top:top + SQUARE, left:left + SQUARE] = 0
    corners = [[int(i), float(p[0] / square * SQUARE + margin - 0.5), float(p[1] / square * SQUARE + margin - 0.5)]
               for i, p in enumerate(board.chessboardCorners)]
    return flat, corners


def view_quad(flat_size, width, height, rng):
    """The flat board's corners in the frame, and the view's parameters."""
    fw, fh = flat_size
    tilt, axis = math.radians(rng.uniform(0, 70)), rng.uniform(0, math.pi)
    turn = math.radians(rng.uniform(-45, 45))
    fraction = rng.uniform(0.15, 1.4)
    whole = rng.uniform() < 0.6
    quad = np.float64([[-fw / 2, -fh / 2], [fw / 2, -fh / 2], [fw / 2, fh / 2], [-fw / 2, fh / 2]]) / fw
    a = np.array([math.cos(axis), math.sin(axis), 0.0])
    k = np.array([[0, -a[2], a[1]], [a[2], 0, -a[0]], [-a[1], a[0], 0]])
    rotation = np.eye(3) + math.sin(tilt) * k + (1 - math.cos(tilt)) * k @ k
    c, s = math.cos(turn), math.sin(turn)
    rotation = np.array([[c, -s, 0], [s, c, 0], [0, 0, 1]]) @ rotation
    points = np.c_[quad, np.zeros(4)] @ rotation.T + np.array([0, 0, 2.0])
    projected = points[:, :2] / points[:, 2:3]
    projected *= fraction * width / (projected[:, 0].max() - projected[:, 0].min())
    extent = projected.max(axis=0) - projected.min(axis=0)
    if whole:
        fit = min(1.0, 0.96 * width / extent[0], 0.96 * height / extent[1])
        projected *= fit
        extent = projected.max(axis=0) - projected.min(axis=0)
        room = np.maximum(0.0, np.array([0.96 * width, 0.96 * height]) - extent)
        offset = np.array([0.02 * width, 0.02 * height]) + room * rng.uniform(0, 1, 2)
        projected = projected - projected.min(axis=0) + offset
    else:
        centre = np.array([rng.uniform(0.1, 0.9) * width, rng.uniform(0.1, 0.9) * height])
        projected = projected - projected.mean(axis=0) + centre
    view = {"tilt": round(math.degrees(tilt), 2), "axis": round(math.degrees(axis), 2),
            "turn": round(math.degrees(turn), 2), "fraction": round(fraction, 3), "whole": bool(whole)}
    return projected, view


def background(width, height, rng):
    ramp = np.linspace(rng.uniform(40, 90), rng.uniform(150, 210), width, dtype=np.float32)
    image = np.repeat(ramp[None, :], height, axis=0)
    for _ in range(25):
        x, y = int(rng.uniform(0, width)), int(rng.uniform(0, height))
        w, h = int(rng.uniform(0.01, 0.12) * width), int(rng.uniform(0.01, 0.12) * height)
        cv2.rectangle(image, (x, y), (x + w, y + h), float(rng.uniform(0, 255)), -1)
    return image


def render(flat, matrix, width, height, rng, look):
    # Flat pixel centres -> frame pixel centres (matrix) -> pixel centres of the UP-times image.
    up = np.array([[UP, 0, (UP - 1) / 2], [0, UP, (UP - 1) / 2], [0, 0, 1]])
    big = cv2.resize(background(width, height, rng), (UP * width, UP * height), interpolation=cv2.INTER_NEAREST)
    printed = look["black"] + (look["white"] - look["black"]) * (flat.astype(np.float32) / 255)
    warped = cv2.warpPerspective(printed, up @ matrix, (UP * width, UP * height), flags=cv2.INTER_LINEAR,
                                 borderMode=cv2.BORDER_TRANSPARENT, dst=big)
    gray = cv2.resize(warped, (width, height), interpolation=cv2.INTER_AREA)
    gray = cv2.GaussianBlur(gray, (0, 0), look["blur"])
    gray = gray + rng.normal(0, look["noise"], gray.shape).astype(np.float32) if look["noise"] > 0 else gray
    return np.clip(np.rint(gray), 0, 255).astype(np.uint8)


def frames(arguments):
    rng = np.random.default_rng(arguments.seed)
    records = []
    for pattern, columns, rows, dictionary, square, marker in BOARDS:
        flat, corners = flat_board(columns, rows, dictionary, square, marker)
        fh, fw = flat.shape
        folder = os.path.join(arguments.folder, folder_name(pattern))
        os.makedirs(folder, exist_ok=True)
        source = np.float32([[-0.5, -0.5], [fw - 0.5, -0.5], [fw - 0.5, fh - 0.5], [-0.5, fh - 0.5]])
        for width, height in SIZES:
            for index in range(arguments.count):
                projected, view = view_quad((fw, fh), width, height, rng)
                # The quad's corners are the flat image's outer edges; pixel centres map through
                # the same homography.
                matrix = cv2.getPerspectiveTransform(source, projected.astype(np.float32)).astype(np.float64)
                look = {"blur": round(rng.uniform(0.3, 2.0) * math.sqrt(width / 1280), 3),
                        "noise": round(rng.uniform(0, 8), 2), "black": round(rng.uniform(15, 70), 1),
                        "white": round(rng.uniform(150, 240), 1)}
                image = render(flat, matrix, width, height, rng, look)
                name = f"view-{width}x{height}-{index:03d}.png"
                cv2.imwrite(os.path.join(folder, name), image)
                points = np.float64([[c[1], c[2]] for c in corners]).reshape(-1, 1, 2)
                mapped = cv2.perspectiveTransform(points, matrix).reshape(-1, 2)
                # The square's side in the frame at each corner: the distance to the next corner along a row.
                records.append({
                    "folder": folder_name(pattern), "file": name, "pattern": pattern, "width": width, "height": height,
                    **view, **look, "columns": columns, "rows": rows,
                    "corners": [[c[0], round(float(p[0]), 5), round(float(p[1]), 5)] for c, p in zip(corners, mapped)],
                })
    with open(os.path.join(arguments.folder, "truth.json"), "w") as out:
        json.dump({"seed": arguments.seed, "frames": records}, out, indent=1)
    print(f"wrote {len(records)} views to {arguments.folder}")


def opencv(arguments):
    truth = json.load(open(os.path.join(arguments.folder, "truth.json")))
    boards = {pattern: opencv_board(columns, rows, dictionary, square, marker)
              for pattern, columns, rows, dictionary, square, marker in BOARDS}
    parameters = cv2.aruco.DetectorParameters_create()
    with open(arguments.out, "w") as out:
        for record in truth["frames"]:
            board = boards[record["pattern"]]
            gray = cv2.imread(os.path.join(arguments.folder, record["folder"], record["file"]), cv2.IMREAD_GRAYSCALE)
            markers, ids, rejected = cv2.aruco.detectMarkers(gray, board.dictionary, parameters=parameters)
            markers, ids, rejected, _ = cv2.aruco.refineDetectedMarkers(
                gray, board, markers, ids, rejected, None, None, 10.0, 3.0, True, None, parameters)
            found = []
            if ids is not None and len(ids) > 0:
                count, points, point_ids = cv2.aruco.interpolateCornersCharuco(markers, ids, gray, board)
                if count:
                    found = [{"id": int(i), "xy": [float(p[0]), float(p[1])]}
                             for i, p in zip(point_ids.reshape(-1), points.reshape(-1, 2))]
            out.write(json.dumps({"folder": record["folder"], "file": record["file"], "corners": found}) + "\n")


def score(arguments):
    truth = json.load(open(os.path.join(arguments.folder, "truth.json")))
    by_file = {(r["folder"], r["file"]): r for r in truth["frames"]}
    by_name = {}
    for record in truth["frames"]:
        by_name.setdefault(record["file"], []).append(record)
    errors = []  # (error, dx, dy, record, id)
    views = 0
    for line in open(arguments.rows):
        row = json.loads(line)
        if "file" not in row or "corners" not in row:
            continue
        name = os.path.basename(row["file"])
        if "folder" in row:
            record = by_file[(row["folder"], name)]
        else:
            folder = os.path.basename(os.path.dirname(row["file"])) if os.path.dirname(row["file"]) else None
            candidates = [r for r in by_name[name] if folder is None or r["folder"] == folder]
            if len(candidates) != 1:
                raise SystemExit(f"cannot tell which board's view {row['file']} is: give rows with the folder in the path")
            record = candidates[0]
        views += 1
        true = {c[0]: (c[1], c[2]) for c in record["corners"]}
        for corner in row["corners"]:
            x, y = corner["xy"][0] + arguments.shift, corner["xy"][1] + arguments.shift
            tx, ty = true[corner["id"]]
            errors.append((math.hypot(x - tx, y - ty), x - tx, y - ty, record, corner["id"]))
    if not errors:
        raise SystemExit("no corners to score")

    def summary(label, subset):
        e = np.array([s[0] for s in subset])
        dx, dy = np.mean([s[1] for s in subset]), np.mean([s[2] for s in subset])
        print(f"{label:<40} {len(e):6d} corners  median {np.median(e):.4f}  RMS {math.sqrt(np.mean(e ** 2)):.4f}  "
              f"p99 {np.percentile(e, 99):.4f}  worst {e.max():.4f}  over 0.5 px {int((e > 0.5).sum())}  "
              f"bias ({dx:+.4f}, {dy:+.4f})")

    print(f"{views} views scored")
    summary("all", errors)
    for pattern, *_ in BOARDS:
        for width, height in SIZES:
            subset = [s for s in errors if s[3]["pattern"] == pattern and s[3]["width"] == width]
            if subset:
                summary(f"{folder_name(pattern)} {width}x{height}", subset)
    for low, high in ((0, 30), (30, 50), (50, 60), (60, 71)):
        subset = [s for s in errors if low <= s[3]["tilt"] < high]
        if subset:
            summary(f"tilt {low} to {high} degrees", subset)
    for low, high in ((0, 0.8), (0.8, 1.4), (1.4, 2.5)):
        subset = [s for s in errors if low <= s[3]["blur"] / math.sqrt(s[3]["width"] / 1280) < high]
        if subset:
            summary(f"blur {low} to {high} px (at 1280)", subset)
    print(f"the {arguments.worst} worst corners:")
    for error, dx, dy, record, corner_id in sorted(errors, key=lambda s: -s[0])[:arguments.worst]:
        inner = record["columns"] - 1
        column, row = corner_id % inner, corner_id // inner
        ring = column in (0, inner - 1) or row in (0, record["rows"] - 2)
        points = {c[0]: (c[1], c[2]) for c in record["corners"]}
        x, y = points[corner_id]
        neighbour = points[corner_id + 1] if column + 1 < inner else points[corner_id - 1]
        side = math.hypot(neighbour[0] - x, neighbour[1] - y)
        print(f"  {error:7.3f} px ({dx:+.3f}, {dy:+.3f})  {record['folder']}/{record['file']} corner {corner_id} at "
              f"({x:.1f}, {y:.1f}){' outer ring' if ring else ''}; square {side:.1f} px, tilt {record['tilt']}, "
              f"blur {record['blur']}, noise {record['noise']}, black {record['black']} white {record['white']}")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True)
    make = commands.add_parser("frames")
    make.add_argument("folder")
    make.add_argument("--seed", type=int, required=True)
    make.add_argument("--count", type=int, default=40)
    peer = commands.add_parser("opencv")
    peer.add_argument("folder")
    peer.add_argument("out")
    check = commands.add_parser("score")
    check.add_argument("folder")
    check.add_argument("rows")
    check.add_argument("--shift", type=float, default=0.0)
    check.add_argument("--worst", type=int, default=15)
    arguments = parser.parse_args()
    {"frames": frames, "opencv": opencv, "score": score}[arguments.command](arguments)


if __name__ == "__main__":
    main()
