#!/usr/bin/python3
"""Seeded JPEG frames with ground truth for measuring `process` against the Python cv2 loop, run with
Debian's /usr/bin/python3 and python3-opencv.

  speed_frames.py FOLDER --size 720p|1080p|4k --mode random|motion --seed N [--count N]
                  [--board charuco:5x7:DICT_6X6_250|chessboard:9x6]

Writes COUNT (default 60) colour JPEG files (quality 90) named frame-0000.jpg, frame-0001.jpg, ...
and FOLDER/truth.json with each frame's view and its board corners in the image (OpenCV's
convention: the centre of the top-left pixel is (0, 0)). The same arguments always make the same
files; measured runs use a seed the detection was never tuned on.

The distribution (every draw uniform unless said otherwise):
  board      charuco:5x7:DICT_6X6_250 (the peer's board; square 120 px flat, marker 60 px) or
             chessboard:9x6, printed on white paper with half a square of margin.
  size       1280x720 (720p), 1920x1080 (1080p) or 3840x2160 (4k).
  scale      the board's projected width is 20% to 60% of the image width (shrunk to fit 95% of
             the height when a tall view would not).
  tilt       0 to 50 degrees about an in-plane axis at 0 to 180 degrees, seen from 2 board
             widths away; turned -30 to +30 degrees in the image plane.
  position   anywhere the whole board fits inside 2%..98% of the width and height.
  blur       Gaussian, sigma 0.4 to 1.4 pixels at 1280 wide, times sqrt(width / 1280).
  noise      Gaussian, sigma 1 to 6 grey levels, per colour channel.
  lighting   the scene's gain 0.6 to 1.15, a linear fall-off across the image of up to +-25% in a
             direction at 0 to 360 degrees, and a colour cast of 0.9 to 1.05 per channel.
  background a grey ramp (40..90 to 150..210) with 25 dark and light blocks of 1% to 12% of
             the image's sides.
Modes, kept apart:
  random     every frame draws its own view: consecutive frames share nothing.
  motion     one smooth path: the board's place (a point in the room left for it, 0..1 each way)
             moves with a velocity that drifts (about 1% of that room a frame, bouncing off its
             sides), and scale, tilt, axis and turn drift by small random steps within their
             ranges; with probability 1/25 a frame jumps to a fresh random view (a cut, or the
             camera moved quickly). truth.json marks those frames "jump": true.

The board is drawn flat, warped with the view's homography into an image twice the frame's size and
shrunk by 2 with area averaging, so ground truth is the homography applied to the flat corners.
"""
import argparse
import json
import math
import os

import cv2
import numpy as np

from fast_detection_frames import charuco_flat, chessboard_flat, shaped_quad

SIZES = {"720p": (1280, 720), "1080p": (1920, 1080), "4k": (3840, 2160)}
BOARDS = {"charuco:5x7:DICT_6X6_250": charuco_flat, "chessboard:9x6": chessboard_flat}
FRACTION = (0.2, 0.6)
TILT = (0.0, 50.0)
TURN = (-30.0, 30.0)
JUMP_PROBABILITY = 1 / 25


def random_view(rng):
    return {"u": rng.uniform(0, 1), "v": rng.uniform(0, 1), "fraction": rng.uniform(*FRACTION),
            "tilt": rng.uniform(*TILT), "axis": rng.uniform(0, 180), "turn": rng.uniform(*TURN),
            "du": 0.0, "dv": 0.0}


def drift(view, rng):
    """The next view on a smooth path: small steps, bounced or clamped at the ranges' ends."""
    view = dict(view)
    view["du"] = 0.9 * view["du"] + rng.normal(0, 0.004)
    view["dv"] = 0.9 * view["dv"] + rng.normal(0, 0.004)
    for key, speed in (("u", "du"), ("v", "dv")):
        view[key] += view[speed]
        if view[key] < 0 or view[key] > 1:
            view[key] = min(1.0, max(0.0, view[key]))
            view[speed] = -view[speed]
    view["fraction"] = float(np.clip(view["fraction"] * math.exp(rng.normal(0, 0.01)), *FRACTION))
    view["tilt"] = float(np.clip(view["tilt"] + rng.normal(0, 0.6), *TILT))
    view["axis"] = (view["axis"] + rng.normal(0, 1.0)) % 180
    view["turn"] = float(np.clip(view["turn"] + rng.normal(0, 0.4), *TURN))
    return view


def homography(view, flat_size, width, height):
    """The homography from the flat board to the (width, height) frame that `view` describes."""
    fw, fh = flat_size
    tilt, axis, turn = math.radians(view["tilt"]), math.radians(view["axis"]), math.radians(view["turn"])
    projected, extent = shaped_quad(flat_size, tilt, axis, turn, view["fraction"], width, height)
    room = np.maximum(0.0, np.array([0.96 * width, 0.96 * height]) - extent)
    offset = np.array([0.02 * width, 0.02 * height]) + room * np.array([view["u"], view["v"]])
    projected = projected - projected.min(axis=0) + offset
    source = np.float32([[-0.5, -0.5], [fw - 0.5, -0.5], [fw - 0.5, fh - 0.5], [-0.5, fh - 0.5]])
    return cv2.getPerspectiveTransform(source, projected.astype(np.float32))


def background(width, height, rng):
    ramp = np.linspace(rng.uniform(40, 90), rng.uniform(150, 210), width, dtype=np.float32)
    image = np.repeat(ramp[None, :], height, axis=0)
    for _ in range(25):
        x, y = int(rng.uniform(0, width)), int(rng.uniform(0, height))
        w, h = int(rng.uniform(0.01, 0.12) * width), int(rng.uniform(0.01, 0.12) * height)
        cv2.rectangle(image, (x, y), (x + w, y + h), float(rng.uniform(0, 255)), -1)
    return image


def render(flat, matrix, width, height, rng, look):
    up = np.diag([2.0, 2.0, 1.0]) @ np.array([[1, 0, 0.5], [0, 1, 0.5], [0, 0, 1]])
    shift = np.array([[1, 0, -0.5], [0, 1, -0.5], [0, 0, 1]])
    big = cv2.resize(background(width, height, rng), (2 * width, 2 * height), interpolation=cv2.INTER_LINEAR)
    warped = cv2.warpPerspective(flat.astype(np.float32), shift @ up @ matrix, (2 * width, 2 * height),
                                 flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_TRANSPARENT, dst=big)
    gray = cv2.resize(warped, (width, height), interpolation=cv2.INTER_AREA)
    gray = cv2.GaussianBlur(gray, (0, 0), look["blur"])
    angle = math.radians(look["light_direction"])
    xs = np.linspace(-0.5, 0.5, width, dtype=np.float32)[None, :]
    ys = np.linspace(-0.5, 0.5, height, dtype=np.float32)[:, None]
    light = look["gain"] * (1 + 2 * look["falloff"] * (math.cos(angle) * xs + math.sin(angle) * ys))
    lit = gray * light
    channels = [lit * cast + rng.normal(0, look["noise"], lit.shape).astype(np.float32) for cast in look["cast"]]
    return np.clip(np.dstack(channels), 0, 255).astype(np.uint8)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("folder")
    parser.add_argument("--size", choices=sorted(SIZES), required=True)
    parser.add_argument("--mode", choices=["random", "motion"], required=True)
    parser.add_argument("--seed", type=int, required=True)
    parser.add_argument("--count", type=int, default=60)
    parser.add_argument("--board", choices=sorted(BOARDS), default="charuco:5x7:DICT_6X6_250")
    arguments = parser.parse_args()
    if arguments.count < 1:
        parser.error("--count must be at least 1")
    width, height = SIZES[arguments.size]
    flat, corners, markers = BOARDS[arguments.board]()
    os.makedirs(arguments.folder, exist_ok=True)
    rng = np.random.default_rng(arguments.seed)
    frames = []
    view = random_view(rng)
    for index in range(arguments.count):
        jump = False
        if index > 0:
            jump = arguments.mode == "random" or rng.uniform() < JUMP_PROBABILITY
            view = random_view(rng) if jump else drift(view, rng)
        look = {"blur": rng.uniform(0.4, 1.4) * math.sqrt(width / 1280), "noise": rng.uniform(1, 6),
                "gain": rng.uniform(0.6, 1.15), "falloff": rng.uniform(0, 0.25),
                "light_direction": rng.uniform(0, 360), "cast": [rng.uniform(0.9, 1.05) for _ in range(3)]}
        matrix = homography(view, (flat.shape[1], flat.shape[0]), width, height)
        frame = render(flat, matrix, width, height, rng, look)
        name = f"frame-{index:04d}.jpg"
        cv2.imwrite(os.path.join(arguments.folder, name), frame, [cv2.IMWRITE_JPEG_QUALITY, 90])
        points = np.float64([[c[1], c[2]] for c in corners]).reshape(-1, 1, 2)
        mapped = cv2.perspectiveTransform(points, matrix).reshape(-1, 2)
        frames.append({
            "file": name, "jump": bool(jump and arguments.mode == "motion"),
            "boardFraction": round(view["fraction"], 3), "tiltDegrees": round(view["tilt"], 1),
            "turnDegrees": round(view["turn"], 1), "blurSigma": round(look["blur"], 2),
            "noiseSigma": round(look["noise"], 2), "gain": round(look["gain"], 3), "markers": markers,
            "corners": [[c[0], float(p[0]), float(p[1])] for c, p in zip(corners, mapped)],
        })
    with open(os.path.join(arguments.folder, "truth.json"), "w") as out:
        json.dump({"pattern": arguments.board, "width": width, "height": height, "mode": arguments.mode,
                   "seed": arguments.seed, "frames": frames}, out, indent=1)
    print(f"wrote {len(frames)} {arguments.mode} frames of {width}x{height} ({arguments.board}, seed "
          f"{arguments.seed}) to {arguments.folder}")


if __name__ == "__main__":
    main()
