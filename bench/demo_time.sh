#!/bin/bash
# `make demo` as on a fresh machine: a `git clone` of REPO (default: this checkout's committed HEAD) into a temp
# dir, fresh empty pip and execution caches; prints the install / build / grading split and the load average.
# Usage: bench/demo_time.sh [REPO] [KEEP_DIR]   (bench/RESULTS.md, "make demo in 10 minutes")
set -u
repo=$(cd "${1:-$(dirname "$0")/..}" && pwd)
work=${2:-$(mktemp -d /tmp/swr-demo-time.XXXXXX)}
git clone -q "$repo" "$work/clone" || exit 2
export PIP_CACHE_DIR="$work/pip-cache" SWR_CACHE="$work/swr-cache"
log="$work/make-demo.log"
load() { cut -d' ' -f1-3 /proc/loadavg; }
echo "clone: $work/clone; log: $log; load at start: $(load)"
t0=$(date +%s.%N)
(cd "$work/clone" && make demo 2>&1) | while IFS= read -r l; do printf '%s %s\n' "$(date +%s.%N)" "$l"; done > "$log"
rc=${PIPESTATUS[0]}
t1=$(date +%s.%N)
stamp() { grep -m1 -F -- "$1" "$log" | cut -d' ' -f1; }
awk -v t0="$t0" -v b="$(stamp 'touch .venv/.base')" -v d="$(stamp 'touch .venv/.demo')" \
    -v r="$(stamp 'release written to')" -v t1="$t1" 'BEGIN {
  printf "install (venv, swr[engines])   %7.1f s\n", b - t0
  printf "install (slice families)       %7.1f s\n", d - b
  printf "build (slice, every gate)      %7.1f s\n", r - d
  printf "grading (oracle, baselines)    %7.1f s\n", t1 - r
  printf "make demo, wall                %7.1f s\n", t1 - t0 }'
echo "exit $rc; load at end: $(load); $(grep -o '[0-9]*/[0-9]* oracle passes, [0-9]* nop passes' "$log")"
