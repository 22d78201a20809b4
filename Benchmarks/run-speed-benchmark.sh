#!/usr/bin/env bash
# `process --jobs 1 --opencv-threads 1` against the Python cv2 loop (cv2.setNumThreads(1)) on a
# folder of Benchmarks/Scripts/speed_frames.py, JPEG decoding included on both sides: each whole
# process's CPU time (perf stat task-clock) and wall time, each side's detection time a frame,
# then both sides scored against the folder's ground truth (speed_baseline.py score). With
# --profile, marker-shutter runs once more under `perf record` and the share of its CPU time
# spent detecting (msd_detector_detect_with and below), decoding and starting is printed.
#
#   Benchmarks/run-speed-benchmark.sh FOLDER [--work DIR] [--profile]
#
# Make FOLDER first, for example (the measured runs use seeds the detection was never tuned on):
#   /usr/bin/python3 Benchmarks/Scripts/speed_frames.py /tmp/speed-1080p-random --size 1080p --mode random --seed 90417
# Needs a release marker-shutter (swift build -c release, or MARKER_SHUTTER=path), python3-opencv
# and linux-perf.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
folder= work=/tmp/marker-shutter-speed-bench profile=no
while [ $# -gt 0 ]; do
    case "$1" in
        --work) work=$2; shift 2 ;;
        --profile) profile=yes; shift ;;
        -*) echo "usage: $0 FOLDER [--work DIR] [--profile]" >&2; exit 64 ;;
        *) folder=$1; shift ;;
    esac
done
[ -n "$folder" ] && [ -f "$folder/truth.json" ] || { echo "usage: $0 FOLDER [--work DIR] [--profile] (FOLDER from speed_frames.py)" >&2; exit 64; }
tool=${MARKER_SHUTTER:-$root/.build/release/marker-shutter}
[ -x "$tool" ] || { echo "no release marker-shutter at $tool: swift build -c release first" >&2; exit 1; }
scripts=$root/Benchmarks/Scripts
pattern=$(/usr/bin/python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["pattern"])' "$folder/truth.json")
rm -rf "$work" && mkdir -p "$work"
now() { date +%s.%N; }
task_clock() { grep task-clock "$1" | cut -d, -f1; }

echo "folder: $folder ($pattern); $(nproc) cores; load before: $(cut -d' ' -f1-3 /proc/loadavg)"
start=$(now)
perf stat -x, -e task-clock -o "$work/python.perf" /usr/bin/python3 "$scripts/speed_baseline.py" loop "$folder" "$work/python.jsonl"
end=$(now)
python_cpu=$(task_clock "$work/python.perf")
python_wall=$(echo "$end - $start" | bc)
start=$(now)
perf stat -x, -e task-clock -o "$work/process.perf" "$tool" process "$folder" --pattern "$pattern" --jobs 1 \
    --opencv-threads 1 --output "$work/process.jsonl" --force 2> "$work/process.err"
end=$(now)
process_cpu=$(task_clock "$work/process.perf")
process_wall=$(echo "$end - $start" | bc)
echo "whole process, python loop:    $python_cpu ms CPU, $python_wall s wall"
echo "whole process, marker-shutter: $process_cpu ms CPU, $process_wall s wall"
/usr/bin/python3 - "$python_cpu" "$process_cpu" "$python_wall" "$process_wall" "$work/process.jsonl" <<'EOF'
import json, sys
python_cpu, process_cpu, python_wall, process_wall = map(float, sys.argv[1:5])
rows = [json.loads(line) for line in open(sys.argv[5])]
detect = [row["detect_ms"] for row in rows if "detect_ms" in row]
print(f"ratio: {python_cpu / process_cpu:.2f}x CPU, {python_wall / process_wall:.2f}x wall; marker-shutter "
      f"detection {sum(detect) / len(detect):.2f} ms wall a frame (mean detect_ms)")
EOF
/usr/bin/python3 "$scripts/speed_baseline.py" score "$folder" "$work/process.jsonl" "$work/python.jsonl"
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
if [ "$profile" = yes ]; then
    perf record -q -e cpu-clock -F 1000 --call-graph dwarf,32768 -o "$work/process.data" "$tool" process "$folder" \
        --pattern "$pattern" --jobs 1 --opencv-threads 1 --output "$work/profiled.jsonl" --force 2> /dev/null
    frames=$(grep -c . "$work/profiled.jsonl")
    perf report -i "$work/process.data" --children --sort sym -g none 2> /dev/null | /usr/bin/python3 -c '
import re, sys
frames, cpu = int(sys.argv[1]), float(sys.argv[2])
shares = {}
for line in sys.stdin:
    match = re.match(r"\s*([\d.]+)%\s+[\d.]+%\s+\[\.\]\s+(\S+)$", line)
    if match: shares.setdefault(match.group(2), float(match.group(1)))
for label, symbol in (("detection", "msd_detector_detect_with"), ("decoding", "msd_image_read_as"), ("start-up (dynamic loader)", "_dl_start")):
    share = shares.get(symbol, 0.0)
    print(f"profile: {label} {share:.1f}% of samples, about {share / 100 * cpu / frames:.2f} ms CPU a frame of the {cpu:.0f} ms above")
' "$frames" "$process_cpu"
fi
