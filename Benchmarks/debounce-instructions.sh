#!/usr/bin/env bash
# Instructions per send(), counted by callgrind (repeatable where wall time is not).
#
# Each subject runs twice, with N and 2N sends; the difference in instructions divided by N removes
# start-up and shutdown. The empty-send baseline (the benchmark loop's own cost) is subtracted.
# The interval is 2 s so that no timer wakes while values are being sent (under valgrind the loop
# runs ~50x slower, and wake-ups inside it would be charged to the sends).
# valgrind 3.19 cannot read the toolchain's DWARF 5, so it runs on copies without debug info.
#
#   Benchmarks/debounce-instructions.sh [N]      (default 20000)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"
n=${1:-20000}
swift build -c release --product DebounceBenchmark >&2
bin=$(swift build -c release --show-bin-path)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
strip --strip-debug "$bin/DebounceBenchmark" -o "$bin/DebounceBenchmark-nodebug"
strip --strip-debug "$bin/libMallocInterposerSwift.so"

instructions() {  # subject sends -> total instructions
    valgrind --tool=callgrind --callgrind-out-file="$work/out" \
        "$bin/DebounceBenchmark-nodebug" --instructions "$1" --sends "$2" --interval-ms 2000 >/dev/null 2>"$work/log" \
        || { cat "$work/log" >&2; exit 1; }
    sed -n 's/^==[0-9]*== Collected : \([0-9]*\)$/\1/p' "$work/log"
}

per_send() {  # subject -> instructions per send, baseline included
    local a b
    a=$(instructions "$1" "$n")
    b=$(instructions "$1" $((2 * n)))
    echo $(( (b - a) / n ))
}

base=$(per_send "baseline (empty send)")
echo "callgrind, $n and $((2 * n)) sends per subject, interval 2 s; benchmark loop ($base instructions per send) subtracted"
printf '%-28s %s\n' "subject" "instructions per send()"
for subject in "ConditionalDebouncer" "Debouncer" "async-algorithms debounce" "OpenCombine debounce" "naive Task per value"; do
    printf '%-28s %d\n' "$subject" $(( $(per_send "$subject") - base ))
done
