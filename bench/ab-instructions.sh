#!/usr/bin/env bash
# A/B of two builds in steady-state instructions, for changes too small for this machine's CPU clock.
#
#   bash bench/ab-instructions.sh <corpus|validation> '<options JSON>' <warm> <passes> <dist dir>...
#   e.g. bash bench/ab-instructions.sh validation '{"verify":false}' 8 8 /tmp/dist-old dist
#
# Each build runs under valgrind (cachegrind, no cache simulation) with `node --single-threaded` (compiles and
# collects on the main thread, so the count repeats), once with `warm` passes and once with warm + passes;
# the difference per pass is what a pass costs after warm-up, compilation included only where it recurs.
# Instructions are not time (no cache misses, no helper threads). The hash and random seeds are fixed and the
# GC runs on a predictable schedule, which narrows the spread: without these flags two runs of one build read
# 479.6M and 507.6M per pass on the validation set; with them, runs of one build read 516.3M–517.3M or
# 528.5M–530.0M (two modes: V8 still decides some work by the clock), so a difference under about 3% is not
# a result. Run each build at least twice, alternating, with the machine otherwise idle. Needs valgrind (Debian: apt-get install valgrind); about
# a minute per build for the validation set. The bench's CPU-time rows stay the figures of record.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
set_=$1; options=$2; warm=$3; passes=$4; shift 4
count() {
  valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null node --single-threaded --hash-seed=7 --random-seed=7 --predictable-gc-schedule "$here/lib/instructions-run.mjs" "$set_" "$options" "$1" "$2" 2>&1 \
    | awk '/I *refs:/ { gsub(",", "", $4); print $4 }'
}
for dist in "$@"; do
  a=$(count "$dist" "$warm")
  b=$(count "$dist" $((warm + passes)))
  awk -v a="$a" -v b="$b" -v n="$passes" -v d="$dist" -v s="$set_" -v o="$options" 'BEGIN { printf "%s  %s  %s  %.1fM instructions per pass\n", d, s, o, (b - a) / n / 1e6 }'
done
