#!/usr/bin/python3
"""Frames with ground truth for fast-detection-benchmark, run with Debian's /usr/bin/python3 and
python3-opencv.

  fast_detection_frames.py FOLDER [VIEWS] [SHARED_IMAGES]
      writes VIEWS (default 8) views of a ChArUco board (charuco:5x7:DICT_6X6_250) and of a
      chessboard (chessboard:9x6) at each of 1280x720, 1920x1080 and 3840x2160 as gray PNGs, and
      FOLDER/truth.json with each frame's board corners in the image. Each view: the board on white
      paper spans 15% to 90% of the image width, tilted up to 60 degrees about a random axis and
      turned in the image plane, in front of a shaded, cluttered background, blurred (Gaussian,
      sigma 0.5 to 1.5 pixels at 1280 wide, growing with the square root of the width) and with
      Gaussian noise (sigma 2 to 8 grey levels). The views follow a fixed seed.
      With SHARED_IMAGES (the shared photo folder), the ChArUco and chessboard photos are also
      written enlarged 3 times (bicubic), as real content at a size fast mode shrinks; they have no
      ground truth and are compared against full mode only.

The board is drawn flat with square side S pixels (markers by cv2.aruco.drawMarker at the board's
own marker positions), warped with the view's homography into an image twice the frame's size and
shrunk by 2 with area averaging, so ground truth is the homography applied to the flat corners.
Coordinates follow OpenCV: the centre of the top-left pixel is (0, 0).
"""
import json
import math
import os
import sys

import cv2
import numpy as np

SIZES = [(1280, 720), (1920, 1080), (3840, 2160)]
SQUARE = 120  # flat board square side, pixels


def charuco_flat():
    dictionary = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_6X6_250)
    board = cv2.aruco.CharucoBoard_create(5, 7, 0.04, 0.02, dictionary)
    margin = SQUARE // 2
    columns, rows = 5, 7
    flat = np.full((rows * SQUARE + 2 * margin, columns * SQUARE + 2 * margin), 255, np.uint8)
    marked = set()
    for marker_id, points in zip(board.ids.flatten(), board.objPoints):
        x, y = points[0][0] / 0.04 * SQUARE, points[0][1] / 0.04 * SQUARE
        side = SQUARE // 2
        marker = cv2.aruco.drawMarker(dictionary, int(marker_id), side)
        top, left = margin + int(round(y)), margin + int(round(x))
        flat[top:top + side, left:left + side] = marker
        marked.add((int(x // SQUARE), int(y // SQUARE)))
    for row in range(rows):
        for column in range(columns):
            if (column, row) not in marked and (column + row) % 2 == 0:
                top, left = margin + row * SQUARE, margin + column * SQUARE
                flat[top:top + SQUARE, left:left + SQUARE] = 0
    # Check the layout: every square holds a marker or is black, alternately.
    assert len(marked) == 17
    corners = [[int(i), float(p[0] / 0.04 * SQUARE + margin - 0.5), float(p[1] / 0.04 * SQUARE + margin - 0.5)]
               for i, p in enumerate(board.chessboardCorners)]
    return flat, corners, 17


def chessboard_flat():
    columns, rows = 9, 6  # inner corners
    margin = SQUARE // 2
    flat = np.full(((rows + 1) * SQUARE + 2 * margin, (columns + 1) * SQUARE + 2 * margin), 255, np.uint8)
    for row in range(rows + 1):
        for column in range(columns + 1):
            if (row + column) % 2 == 0:
                top, left = margin + row * SQUARE, margin + column * SQUARE
                flat[top:top + SQUARE, left:left + SQUARE] = 0
    corners = [[row * columns + column, float(margin + (column + 1) * SQUARE - 0.5),
                float(margin + (row + 1) * SQUARE - 0.5)] for row in range(rows) for column in range(columns)]
    return flat, corners, 0


def shaped_quad(flat_size, tilt, axis, turn, fraction, width, height):
    """The flat board's corners seen from 2 board widths away, tilted by `tilt` about the in-plane
    `axis` and turned by `turn` in the image plane (radians), scaled to span `fraction` of `width`
    and shrunk to fit 95% of `height`: the quad and its extent, not yet placed."""
    fw, fh = flat_size
    # The flat corners centred at the origin, in units of the flat's width.
    quad = np.float64([[-fw / 2, -fh / 2], [fw / 2, -fh / 2], [fw / 2, fh / 2], [-fw / 2, fh / 2]]) / fw
    a = np.array([math.cos(axis), math.sin(axis), 0.0])
    k = np.array([[0, -a[2], a[1]], [a[2], 0, -a[0]], [-a[1], a[0], 0]])
    rotation = np.eye(3) + math.sin(tilt) * k + (1 - math.cos(tilt)) * k @ k
    c, s = math.cos(turn), math.sin(turn)
    rotation = np.array([[c, -s, 0], [s, c, 0], [0, 0, 1]]) @ rotation
    points = np.c_[quad, np.zeros(4)] @ rotation.T + np.array([0, 0, 2.0])
    projected = points[:, :2] / points[:, 2:3]
    span = projected[:, 0].max() - projected[:, 0].min()
    projected *= fraction * width / span
    extent = projected.max(axis=0) - projected.min(axis=0)
    if extent[1] > 0.95 * height:  # a tall view: shrink until it fits
        projected *= 0.95 * height / extent[1]
        extent = projected.max(axis=0) - projected.min(axis=0)
    return projected, extent


def view_homography(flat_size, width, height, rng):
    """A homography from the flat board to the (width, height) frame: tilted, turned, sized, placed."""
    fw, fh = flat_size
    tilt = math.radians(rng.uniform(0, 60))
    axis = rng.uniform(0, math.pi)
    turn = rng.uniform(-math.pi / 6, math.pi / 6)
    fraction = rng.uniform(0.15, 0.9)
    projected, extent = shaped_quad(flat_size, tilt, axis, turn, fraction, width, height)
    low = projected.min(axis=0)
    offset = np.array([rng.uniform(0.02 * width, max(0.02 * width, 0.98 * width - extent[0])),
                       rng.uniform(0.02 * height, max(0.02 * height, 0.98 * height - extent[1]))])
    projected = projected - low + offset
    source = np.float32([[-0.5, -0.5], [fw - 0.5, -0.5], [fw - 0.5, fh - 0.5], [-0.5, fh - 0.5]])
    return cv2.getPerspectiveTransform(source, projected.astype(np.float32)), fraction, math.degrees(tilt)


def background(width, height, rng):
    ramp = np.linspace(rng.uniform(40, 90), rng.uniform(150, 210), width, dtype=np.float32)
    image = np.repeat(ramp[None, :], height, axis=0)
    for _ in range(25):  # clutter: dark and light blocks and lines
        x, y = int(rng.uniform(0, width)), int(rng.uniform(0, height))
        w, h = int(rng.uniform(0.01, 0.12) * width), int(rng.uniform(0.01, 0.12) * height)
        cv2.rectangle(image, (x, y), (x + w, y + h), float(rng.uniform(0, 255)), -1)
    return image


def render(flat, homography, width, height, rng, blur, noise):
    up = np.diag([2.0, 2.0, 1.0]) @ np.array([[1, 0, 0.5], [0, 1, 0.5], [0, 0, 1]])
    shift = np.array([[1, 0, -0.5], [0, 1, -0.5], [0, 0, 1]])
    big_h = shift @ up @ homography  # flat -> image at twice the size
    big = cv2.resize(background(width, height, rng), (2 * width, 2 * height), interpolation=cv2.INTER_LINEAR)
    warped = cv2.warpPerspective(flat.astype(np.float32), big_h, (2 * width, 2 * height), flags=cv2.INTER_LINEAR,
                                 borderMode=cv2.BORDER_TRANSPARENT, dst=big)
    frame = cv2.resize(warped, (width, height), interpolation=cv2.INTER_AREA)
    frame = cv2.GaussianBlur(frame, (0, 0), blur)
    frame = frame + rng.normal(0, noise, frame.shape)
    return np.clip(frame, 0, 255).astype(np.uint8)


def main():
    if len(sys.argv) < 2 or sys.argv[1].startswith("-"):
        sys.exit(__doc__)
    folder = sys.argv[1]
    views = int(sys.argv[2]) if len(sys.argv) > 2 else 8
    shared = sys.argv[3] if len(sys.argv) > 3 else None
    os.makedirs(folder, exist_ok=True)
    rng = np.random.default_rng(14)
    frames = []
    for name, (flat, corners, markers) in [("charuco:5x7:DICT_6X6_250", charuco_flat()),
                                           ("chessboard:9x6", chessboard_flat())]:
        kind = name.split(":")[0]
        for width, height in SIZES:
            for view in range(views):
                homography, fraction, tilt = view_homography((flat.shape[1], flat.shape[0]), width, height, rng)
                blur = rng.uniform(0.5, 1.5) * math.sqrt(width / 1280)
                noise = rng.uniform(2, 8)
                frame = render(flat, homography, width, height, rng, blur, noise)
                file = f"{kind}-{width}x{height}-{view}.png"
                cv2.imwrite(f"{folder}/{file}", frame)
                points = np.float64([[c[1], c[2]] for c in corners]).reshape(-1, 1, 2)
                mapped = cv2.perspectiveTransform(points, homography).reshape(-1, 2)
                frames.append({
                    "file": file, "pattern": name, "width": width, "height": height,
                    "boardFraction": round(fraction, 3), "tiltDegrees": round(tilt, 1),
                    "blurSigma": round(blur, 2), "noiseSigma": round(noise, 2), "markers": markers,
                    "corners": [[c[0], float(p[0]), float(p[1])] for c, p in zip(corners, mapped)],
                })
    if shared:
        photos = [("charuco/board.jpg", "charuco:5x7:DICT_6X6_250")] + [
            (f"chessboard/left0{n}.jpg", "chessboard:9x6") for n in range(1, 10)]
        for path, name in photos:
            image = cv2.imread(f"{shared}/{path}", cv2.IMREAD_GRAYSCALE)
            big = cv2.resize(image, None, fx=3, fy=3, interpolation=cv2.INTER_CUBIC)
            file = "photo-x3-" + path.replace("/", "-").replace(".jpg", ".png")
            cv2.imwrite(f"{folder}/{file}", big)
            frames.append({"file": file, "pattern": name, "width": big.shape[1], "height": big.shape[0],
                           "markers": None, "corners": None})
    with open(f"{folder}/truth.json", "w") as out:
        json.dump({"frames": frames}, out, indent=1)
    print(f"wrote {len(frames)} frames to {folder}")


if __name__ == "__main__":
    main()
