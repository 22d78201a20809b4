#!/usr/bin/env bash
# Builds the debounce benchmark in release mode and runs it with the malloc interposer preloaded,
# so allocations per value are counted. Arguments go to the benchmark (--sends, --interval-ms, --bursts).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"
swift build -c release --product DebounceBenchmark >&2
bin=$(swift build -c release --show-bin-path)
LD_PRELOAD="$bin/libMallocInterposerSwift.so" "$bin/DebounceBenchmark" "$@"
