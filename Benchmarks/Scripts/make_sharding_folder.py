#!/usr/bin/python3
"""Makes the benchmark folder of `process --shard`: 3,000 frames at 1280x720 (100 s at 30 fps).

The 120 frames of Samples/charuco-session (640x480), each scaled to 960x720 and centred on a
1280x720 grey frame, re-encoded as JPEG (quality 90) and played 25 times over, with a
manifest.jsonl of timestamps 1/30 s apart and sequence numbers. The same bytes every time.

    /usr/bin/python3 Benchmarks/Scripts/make_sharding_folder.py OUT_DIR  (Debian's python3-opencv) [--frames 3000]
"""
import argparse
import json
import os
import sys

import cv2
import numpy as np


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("output")
    parser.add_argument("--frames", type=int, default=3000)
    arguments = parser.parse_args()
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
    session = os.path.join(root, "Samples", "charuco-session")
    with open(os.path.join(session, "manifest.jsonl")) as manifest:
        sources = [json.loads(line)["file"] for line in manifest if line.strip()]
    os.makedirs(arguments.output, exist_ok=True)
    if os.listdir(arguments.output):
        sys.exit(f"{arguments.output} is not empty: give a new folder")
    encoded = []
    for name in sources:
        image = cv2.imread(os.path.join(session, name), cv2.IMREAD_COLOR)
        canvas = np.full((720, 1280, 3), 128, dtype=np.uint8)
        canvas[:, 160:1120] = cv2.resize(image, (960, 720), interpolation=cv2.INTER_LINEAR)
        ok, data = cv2.imencode(".jpg", canvas, [cv2.IMWRITE_JPEG_QUALITY, 90])
        assert ok
        encoded.append(data.tobytes())
    with open(os.path.join(arguments.output, "manifest.jsonl"), "w") as manifest:
        for index in range(arguments.frames):
            name = f"frame_{index:06d}.jpg"
            with open(os.path.join(arguments.output, name), "wb") as frame:
                frame.write(encoded[index % len(encoded)])
            manifest.write(json.dumps({"file": name, "t": round(index / 30, 6), "sequence": index}, separators=(",", ":")) + "\n")
    print(f"{arguments.output}: {arguments.frames} frames, 1280x720", file=sys.stderr)


if __name__ == "__main__":
    main()
