#!/usr/bin/env bash
# The device core microbenchmark (tests/bench/bench_emu.c) of two or more commits, interleaved:
# each commit is checked out (git worktree, detached) and built (release) under DIR, then every
# round runs each commit's bench-emu once, in turn, the order reversed every other round; the
# summary gives, for every figure, each commit's time per operation (or per byte) against the
# first commit's in the same round, as min / median / max over the rounds.
#   bench-trees.sh [-n ROUNDS] [-d DIR] [-b] REV_BASE REV [REV ...]   (defaults 5, /tmp/bench-trees)
# -b: check out and build only.
# Environment: BENCH_ARGS, the bench's options (default: the CQP ops and WRITEs of 64 B, 64 KiB,
# 1 MiB and 4 MiB); BENCH_LOCK, a file each round holds with flock (on a machine that other
# heavy jobs share). Each figure is timed on the process's CPU-time clock
# (CLOCK_PROCESS_CPUTIME_ID, set in each checkout's bench, which uses the monotonic clock): time
# the bench waited for a CPU does not count. Every round's CSV and /proc/loadavg are kept in DIR.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/config.sh"

rounds=5
dir=/tmp/bench-trees
build_only=
while getopts n:d:b opt; do
    case $opt in
        n) rounds=$OPTARG ;;
        d) dir=$OPTARG ;;
        b) build_only=1 ;;
        *) exit 2 ;;
    esac
done
shift $((OPTIND - 1))
case "$rounds" in ''|*[!0-9]*|0) echo "bench-trees: '$rounds' is not a positive integer" >&2; exit 2 ;; esac
if [ $# -lt 2 ]; then
    echo "usage: bench-trees.sh [-n ROUNDS] [-d DIR] [-b] REV_BASE REV [REV ...]" >&2
    exit 2
fi
args=${BENCH_ARGS:---sizes=64,64K,1M,4M}
bench_file=tests/bench/bench_emu.c
mkdir -p "$dir"

shas=()
for rev in "$@"; do
    sha=$(git -C "$repo" rev-parse --short=7 "$rev^{commit}")
    shas+=("$sha")
    src=$dir/src-$sha build=$dir/build-$sha
    if [ ! -d "$src" ]; then
        git -C "$repo" worktree add --detach "$src" "$sha" >/dev/null
        if [ "$(grep -c 'clock_gettime(CLOCK_MONOTONIC' "$src/$bench_file")" != 1 ]; then
            echo "bench-trees: $rev: $bench_file does not read one monotonic clock" >&2
            exit 1
        fi
        sed -i 's/clock_gettime(CLOCK_MONOTONIC/clock_gettime(CLOCK_PROCESS_CPUTIME_ID/' \
            "$src/$bench_file"
    fi
    [ -d "$build" ] || meson setup "$build" "$src" -Dbuildtype=release >/dev/null
    ninja -C "$build" tests/bench/bench-emu >/dev/null
    echo "$rev = $sha"
done
[ -z "$build_only" ] || exit 0

one_round() {  # $1: round; runs every commit's bench once, in this round's order
    local order=("${shas[@]}") i
    if [ $(($1 % 2)) = 0 ]; then
        order=()
        for ((i = ${#shas[@]} - 1; i >= 0; i--)); do order+=("${shas[i]}"); done
    fi
    for sha in "${order[@]}"; do
        echo "round $1 $sha load $(cut -d' ' -f1-3 /proc/loadavg)" >>"$dir/load.log"
        # shellcheck disable=SC2086  # BENCH_ARGS is a list of options
        "$dir/build-$sha/tests/bench/bench-emu" --csv $args >"$dir/r$1-$sha.csv"
    done
}

: >"$dir/load.log"
[ -z "${BENCH_LOCK:-}" ] || exec 9>>"$BENCH_LOCK"
for ((r = 1; r <= rounds; r++)); do
    [ -z "${BENCH_LOCK:-}" ] || flock 9
    one_round "$r"
    [ -z "${BENCH_LOCK:-}" ] || flock -u 9
done

python3 - "$dir" "$rounds" "${shas[@]}" <<'EOF'
import csv, statistics, sys

d, rounds, shas = sys.argv[1], int(sys.argv[2]), sys.argv[3:]

def figures(path):
    out = {}
    for row in csv.DictReader(open(path)):
        if row["what"] == "memcpy":
            continue
        key = f"{row['benchmark']} {row['what']} {row['bytes']}"
        out[key] = float(row["rate"])   # ops/s or GB/s: time per op is its inverse
    return out

runs = {(r, s): figures(f"{d}/r{r}-{s}.csv") for r in range(1, rounds + 1) for s in shas}
keys = list(runs[(1, shas[0])])
loads = [float(l.split()[4]) for l in open(f"{d}/load.log")]
print(f"{rounds} rounds; CPU-time clock; 1-min load average during the runs "
      f"{min(loads):.2f}-{max(loads):.2f}")
print("time ratio = the commit's time per op / the base's in the same round (< 1: faster)")
base = shas[0]
print(f"{'figure':<22} {'base rate (median)':>19}", end="")
for s in shas[1:]:
    print(f"  {s + '/' + base + ' min med max':>30}", end="")
print()
for k in keys:
    b = [runs[(r, base)][k] for r in range(1, rounds + 1)]
    unit = "ops/s" if k.startswith("cqp") else "GB/s"
    print(f"{k:<22} {statistics.median(b):>13.4g} {unit:<5}", end="")
    for s in shas[1:]:
        ratio = sorted(runs[(r, base)][k] / runs[(r, s)][k] for r in range(1, rounds + 1))
        print(f"  {ratio[0]:>9.3f} {statistics.median(ratio):>9.3f} {ratio[-1]:>9.3f}", end="")
    print()
EOF
