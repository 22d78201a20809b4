#!/usr/bin/env bash
# `process --shard` as Slurm job arrays on the local single-node Slurm: a 3,000-frame 1280x720
# folder processed on one machine, then as 1, 2 and 4 shards (one CPU per task, Samples/slurm),
# each merged and compared with the single-machine rows (detect_ms aside).
#
#   Benchmarks/run-sharding-benchmark.sh [--folder DIR] [--work DIR]
#
# The folder is made by Benchmarks/Scripts/make_sharding_folder.py when missing (200 MB; it stays
# out of git). Needs a release marker-shutter (swift build -c release, or MARKER_SHUTTER=path),
# root and Slurm (Scripts/install-dependencies, Scripts/start-local-slurm).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
folder=/tmp/marker-shutter-shards-3000 work=/tmp/marker-shutter-shards-bench
while [ $# -gt 0 ]; do
    case "$1" in
        --folder) folder=$2; shift 2 ;;
        --work) work=$2; shift 2 ;;
        *) echo "usage: $0 [--folder DIR] [--work DIR]" >&2; exit 64 ;;
    esac
done
tool=${MARKER_SHUTTER:-$root/.build/release/marker-shutter}
[ -x "$tool" ] || { echo "no release marker-shutter at $tool: swift build -c release first" >&2; exit 1; }
[ -f "$folder/manifest.jsonl" ] || /usr/bin/python3 "$root/Benchmarks/Scripts/make_sharding_folder.py" "$folder"
"$root/Scripts/start-local-slurm" >/dev/null
rm -rf "$work" && mkdir -p "$work"
strip() { sed -E 's/,"detect_ms":[0-9.e-]+//' "$1"; }
now() { date +%s.%N; }

echo "folder: $folder ($(grep -c . "$folder/manifest.jsonl") frames, 1280x720 JPEG); $(nproc) cores; load before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
# One machine: process with a job per core.
/usr/bin/time -f "%e %U %S" -o "$work/single.time" "$tool" process "$folder" --output "$work/single.jsonl" 2> "$work/single.err"
read -r wall user system < "$work/single.time"
single_wall=$wall
printf "one machine, process (%s):\n" "$(sed -n 2p "$work/single.err" | sed 's/^ *//')"
printf "  wall %.2f s, CPU %.2f s\n\n" "$wall" "$(echo "$user + $system" | bc)"

printf "%-7s %10s %10s %14s %12s %14s %14s  %s\n" shards "wall s" "CPU s" "shard s each" "merge s" "merge cmd s" "merge/single" "rows"
for shards in 1 2 4; do
    start=$(now)
    MARKER_SHUTTER=$tool "$root/Samples/slurm/submit" "$folder" --tasks "$shards" --shards "$work/shards-$shards" \
        --output "$work/timeline-$shards.jsonl" 2> "$work/submit-$shards.err"
    end=$(now)
    # The merge's own figures: in-process time from its summary, and the whole command timed again.
    merged_in=$(sed -nE 's/.*merged in ([0-9.]+) s.*/\1/p' "$work/submit-$shards.err")
    cpu=$(sed -nE 's/.*s, ([0-9.]+) s of CPU, summed.*/\1/p' "$work/submit-$shards.err")
    /usr/bin/time -f "%e" -o "$work/merge-$shards.time" "$tool" merge "$work/shards-$shards" --output "$work/again-$shards.jsonl" 2>/dev/null
    each=$(for file in "$work/shards-$shards"/*.jsonl; do tail -n 1 "$file" | sed -nE 's/.*"seconds":([0-9.]+).*/\1/p'; done \
        | awk '{ printf "%s%.1f", (NR > 1 ? "/" : ""), $1 }')
    if cmp -s <(strip "$work/single.jsonl") <(strip "$work/timeline-$shards.jsonl"); then same="identical"; else same="DIFFER"; fi
    printf "%-7s %10.2f %10.2f %14s %12.3f %14.3f %13.2f%%  %s\n" "$shards" "$(echo "$end - $start" | bc)" "$cpu" "$each" \
        "$merged_in" "$(cat "$work/merge-$shards.time")" "$(echo "100 * $(cat "$work/merge-$shards.time") / $single_wall" | bc -l)" "$same"
done
echo
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
