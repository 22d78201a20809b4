#!/usr/bin/env bash
# The memory `process` needs to read a ROS bag, small and large: the same 1280x720 bgr8 frames (the
# Gloworm chessboard recording, over and over, 1/30 s apart) written by rosbags and mcap
# (Tests/RosBagsTests/Python/make_bags.py) as a ROS 1 bag (lz4 chunks), an MCAP file (zstd chunks) and
# a rosbag2 sqlite3 folder, of 60 frames and of 1,100 (3.04 GB of pixels); then each processed with
# /usr/bin/time (peak RSS), and each read whole by rosbags' AnyReader (the peer). The bags go into a
# scratch folder that is removed at the end.
#
#   Benchmarks/run-bag-memory-benchmark.sh [MARKER_SHUTTER] [FRAMES]     (from the package root)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
binary=${1:-.build/release/marker-shutter}
frames=${2:-1100}
python="${XDG_DATA_HOME:-$HOME/.local/share}/marker-shutter/test-python/bin/python3"
[ -x "$python" ] || { echo "no $python: run Scripts/install-dependencies" >&2; exit 1; }
scratch=$(mktemp -d /tmp/bag-memory.XXXXXX)
trap 'rm -rf "$scratch"' EXIT
"$python" - "$scratch" "$frames" <<'PYTHON'
import glob, json, sys
scratch, count = sys.argv[1], int(sys.argv[2])
frames = sorted(glob.glob("../shared/images/recordings/gloworm-chessboard-8x6-1280x720/*.jpg"), key=lambda p: int(p.split("img")[-1][:-4]))
for size, n in (("small", 60), ("big", count)):
    listed = [{"image": frames[i % len(frames)], "stamp_ns": 1700000000000000000 + i * 33333333} for i in range(n)]
    for name, container, compression in (("bag", "ros1", "lz4"), ("mcap", "mcap", "zstd"), ("rosbag2", "rosbag2-sqlite3", "none")):
        out = f"{scratch}/{size}.{name}" if name != "rosbag2" else f"{scratch}/{size}-rosbag2"
        json.dump({"output": out, "container": container, "compression": compression, "chunk_size": 4000000,
                   "topics": [{"name": "/camera/image_raw", "encoding": "bgr8", "frames": listed}]},
                  open(f"{scratch}/{size}-{name}.json", "w"))
PYTHON
cat > "$scratch/peer.py" <<'PYTHON'
import sys, time
from pathlib import Path
from rosbags.highlevel import AnyReader
from rosbags.typesys import Stores, get_typestore
start, count = time.time(), 0
with AnyReader([Path(sys.argv[1])], default_typestore=get_typestore(Stores.ROS2_HUMBLE)) as reader:
    for connection, stamp, raw in reader.messages():
        reader.deserialize(raw, connection.msgtype)
        count += 1
print(f"  peer: {count} messages read in {time.time() - start:.1f} s")
PYTHON
for spec in "$scratch"/*.json; do "$python" Tests/RosBagsTests/Python/make_bags.py "$spec"; done
echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"
for bag in "$scratch"/small.bag "$scratch"/big.bag "$scratch"/small.mcap "$scratch"/big.mcap "$scratch"/small-rosbag2 "$scratch"/big-rosbag2; do
    echo "== $(basename "$bag"): $(du -sh "$bag" | cut -f1)"
    /usr/bin/time -f "  process: wall %e s, user %U s, peak RSS %M KiB" "$binary" process "$bag" --pattern chessboard:8x6 --output /dev/null 2>&1 \
        | grep -E "frames,|processed in|peak RSS"
    /usr/bin/time -f "  peer: wall %e s, peak RSS %M KiB" "$python" "$scratch/peer.py" "$bag" 2>&1
done
