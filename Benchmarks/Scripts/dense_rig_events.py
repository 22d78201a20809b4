#!/usr/bin/env python3
"""A rig's recording whose events.jsonl is as long as a hostile file can make it.

Usage: dense_rig_events.py OUT EXTRA [dense|spread]

OUT gets the sample session as a two-camera recording (left: every sample frame at its time plus
100 s; right: 100 frames at 25 fps from 7 ms later, sample frame n * 6 / 5 as its frame n; the
frames hard-linked from Samples/charuco-session), an events.jsonl with each frame's arrival and
detection in the manifest's order, and then EXTRA more lines, alternately left's arrival and time
moving on: one microsecond apart ("dense"), or 400 s apart up to 1e9 s ("spread"). 9,300,000
extra lines make 265 MB, just under the reader's 256 MiB limit. Prints the file's size in bytes.
"""
import json
import os
import shutil
import sys

root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
out, extra = sys.argv[1], int(sys.argv[2])
mode = sys.argv[3] if len(sys.argv) > 3 else "dense"
sample = os.path.join(root, "Samples", "charuco-session")
if os.path.exists(out):
    shutil.rmtree(out)
for camera in ["left", "right"]:
    os.makedirs(os.path.join(out, camera))
with open(os.path.join(out, "cameras.json"), "w") as f:
    f.write('{"cameras":[{"name":"left","fps":30},{"name":"right","fps":25}]}\n')
with open(os.path.join(sample, "manifest.jsonl")) as f:
    times = [json.loads(line)["t"] for line in f if line.strip()]
frames = []
for n, t in enumerate(times):
    name = "frame_%06d.jpg" % n
    os.link(os.path.join(sample, name), os.path.join(out, "left", name))
    frames.append((100_000_000 + round(t * 1e6), "left", name))
for n in range(100):
    name = "frame_%06d.jpg" % n
    os.link(os.path.join(sample, "frame_%06d.jpg" % (n * 6 // 5)), os.path.join(out, "right", name))
    frames.append((100_007_000 + 40_000 * n, "right", name))
frames.sort()
with open(os.path.join(out, "manifest.jsonl"), "w") as manifest, open(os.path.join(out, "events.jsonl"), "w") as events:
    for micros, camera, name in frames:
        seconds = "%.6f" % (micros / 1e6)
        manifest.write('{"camera":"%s","file":"%s","t":%s}\n' % (camera, name, seconds))
        events.write('{"arrived":"%s","t":%s}\n{"observed":"%s","file":"%s"}\n' % (camera, seconds, camera, name))
    last = frames[-1][0]
    for i in range(extra):
        micros = last + i if mode == "dense" else min(last + i * 400_000_000, 999_999_000_000_000)
        seconds = "%.6f" % (micros / 1e6)
        events.write('{"advance":%s}\n' % seconds if i % 2 else '{"arrived":"left","t":%s}\n' % seconds)
print(os.path.getsize(os.path.join(out, "events.jsonl")))
