#!/usr/bin/env bash
# `marker-shutter live --camera ...` on emulated MJPEG cameras at 30 fps, 450 frames a camera: how
# many frames each camera's detection takes and the latency from a set's later frame to the rig's
# state (the summary's figures), with /usr/bin/time's CPU and memory beside them.
#
#   Benchmarks/run-rig-live-benchmark.sh [rigs|counts|stall|viewers] [--work DIR]
#
#   rigs     2 x 1280x720, 3 x 1280x720, 2 x 1920x1080, and one 1280x720 camera for comparison
#   counts   1, 2 and 4 cameras at 640x480 and 2 x 1280x720, with --auto: frames detected per
#            camera, sets, latency and CPU
#   stall    4 cameras at 640x480 with --auto, one of which stalls for 2.5 s after its frame 150:
#            the run goes on, and the lines it prints about the stall are counted
#   viewers  2 x 1280x720 without --serve, with --serve and nobody watching, and with two viewers
#            reading /stream.mjpg and /events over loopback from before the first frame
#
# Each camera shows one still ChArUco board: Samples/charuco-session/frame_000010.jpg scaled with
# OpenCV to the camera's size (JPEG quality 90, so the camera sends the file's bytes). Needs a
# release marker-shutter (swift build -c release, or MARKER_SHUTTER=path), python3-opencv and curl.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
mode=rigs work=/tmp/marker-shutter-rig-bench
while [ $# -gt 0 ]; do
    case "$1" in
        rigs|counts|stall|viewers) mode=$1; shift ;;
        --work) work=$2; shift 2 ;;
        *) echo "usage: $0 [rigs|counts|stall|viewers] [--work DIR]" >&2; exit 64 ;;
    esac
done
binary=${MARKER_SHUTTER:-$root/.build/release/marker-shutter}
[ -x "$binary" ] || { echo "no release marker-shutter at $binary: swift build -c release --product marker-shutter" >&2; exit 1; }

mkdir -p "$work"
for size in 640x480 1280x720 1920x1080; do
    mkdir -p "$work/frames-$size"
    /usr/bin/python3 - "$root/Samples/charuco-session/frame_000010.jpg" "$work/frames-$size/frame.jpg" "$size" <<'PY'
import sys, cv2
width, height = map(int, sys.argv[3].split("x"))
image = cv2.resize(cv2.imread(sys.argv[1]), (width, height), interpolation=cv2.INTER_AREA)
cv2.imwrite(sys.argv[2], image, [cv2.IMWRITE_JPEG_QUALITY, 90])
PY
    for n in 0 2 4 6; do
        : > "$work/cam-$size-$n"
        printf 'name = Cam %s\nformats = mjpeg\nsizes = %s\nrates = 30\nframes = %s\n' "$n" "$size" "$work/frames-$size" > "$work/cam-$size-$n.conf"
    done
done
# A camera whose frames stop for 2.5 s after its frame 150, then come again.
: > "$work/cam-640x480-stall"
printf 'name = Cam stall\nformats = mjpeg\nsizes = 640x480\nrates = 30\nframes = %s\nfault = stall 150 2500\n' "$work/frames-640x480" \
    > "$work/cam-640x480-stall.conf"

# run LABEL VIEWERS ARGS...: VIEWERS is a count of viewers, or "serve" for --serve with nobody watching.
run() {
    local label=$1 viewers=$2 port=$((20000 + RANDOM % 20000)) pid
    shift 2
    echo "== $label  (load average before $(cut -d' ' -f1 /proc/loadavg))"
    rm -rf "$work/out" "$work"/viewer-* "$work"/events-*
    local args=(--pattern charuco:5x7:DICT_6X6_250 --fps 30 --stop-after 450 --out "$work/out" "$@")
    [ "$viewers" = 0 ] || args+=(--serve "127.0.0.1:$port")
    [ "$viewers" = 0 ] || [ "$viewers" = serve ] || args+=(--wait-for-viewer)
    /usr/bin/time -f "  wall %e s, user %U s, sys %S s, peak RSS %M KiB" \
        "$root/Scripts/with-emulated-camera" "$binary" live "${args[@]}" < /dev/null > "$work/stdout" 2> "$work/stderr" &
    pid=$!
    if [ "$viewers" != 0 ] && [ "$viewers" != serve ]; then
        for _ in $(seq 1 300); do curl -s -o /dev/null "http://127.0.0.1:$port/" && break; sleep 0.1; done
        for i in $(seq 1 "$viewers"); do
            timeout 120 curl -s -N -o "$work/viewer-$i" "http://127.0.0.1:$port/stream.mjpg" &
            timeout 120 curl -s -N -o "$work/events-$i" "http://127.0.0.1:$port/events" &
        done
    fi
    wait "$pid"
    grep -E "frames received|latency|sets:" "$work/stderr" | sed -E 's# \([^)]*/cam-[^)]*\)##'
    echo "  lines about stalls: $(grep -c -E '^camera [^ ]+ (stalled|back)|stalled: no frame' "$work/stderr"), lines in all: $(wc -l < "$work/stderr")"
    tail -1 "$work/stderr"
    if [ "$viewers" != 0 ] && [ "$viewers" != serve ]; then
        wait
        for i in $(seq 1 "$viewers"); do
            echo "  viewer $i: $(grep -a -c 'Content-Type: image/jpeg' "$work/viewer-$i") pictures, $(stat -c %s "$work/viewer-$i") bytes;" \
                "$(grep -c '^event:' "$work/events-$i") events"
        done
    fi
    echo "  (load average after $(cut -d' ' -f1 /proc/loadavg))"
}

cam() { echo "--camera" "$1=$work/cam-$2-$3"; }
case "$mode" in
rigs)
    run "2 x 1280x720" 0 --size 1280x720 $(cam a 1280x720 0) $(cam b 1280x720 2)
    run "3 x 1280x720" 0 --size 1280x720 $(cam a 1280x720 0) $(cam b 1280x720 2) $(cam c 1280x720 4)
    run "2 x 1920x1080" 0 --size 1920x1080 $(cam a 1920x1080 0) $(cam b 1920x1080 2)
    run "1 x 1280x720, single camera" 0 --size 1280x720 --device "$work/cam-1280x720-0"
    ;;
counts)
    run "1 x 640x480, single camera" 0 --auto --size 640x480 --device "$work/cam-640x480-0"
    run "2 x 640x480" 0 --auto --size 640x480 $(cam a 640x480 0) $(cam b 640x480 2)
    run "4 x 640x480" 0 --auto --size 640x480 $(cam a 640x480 0) $(cam b 640x480 2) $(cam c 640x480 4) $(cam d 640x480 6)
    run "2 x 1280x720" 0 --auto --size 1280x720 $(cam a 1280x720 0) $(cam b 1280x720 2)
    ;;
stall)
    run "4 x 640x480, d stalls 2.5 s" 0 --auto --size 640x480 $(cam a 640x480 0) $(cam b 640x480 2) $(cam c 640x480 4) \
        --camera "d=$work/cam-640x480-stall"
    grep -E "stalled|camera d back|^rig enabled" "$work/stderr" | head -20
    ;;
viewers)
    run "2 x 1280x720, no --serve" 0 --size 1280x720 $(cam a 1280x720 0) $(cam b 1280x720 2)
    run "2 x 1280x720, --serve, nobody watching" serve --size 1280x720 $(cam a 1280x720 0) $(cam b 1280x720 2)
    run "2 x 1280x720, --serve, 2 viewers" 2 --size 1280x720 $(cam a 1280x720 0) $(cam b 1280x720 2)
    ;;
esac
