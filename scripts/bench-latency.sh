#!/usr/bin/env bash
# Benchmark 3: what the guest measures under -icount (shift 0: one guest instruction per ns, so
# the guest's clock is the device's) against the E810's published figures (docs/timing.md,
# "Calibration"). One guest, link 100 Gb/s (the E810-CQDA2's port), internal loopback:
#   1. one boot, timing=model: perftest's ib_write_lat, ib_send_lat, ib_read_lat (2 B) and
#      ib_write_bw, ib_send_bw (64 KiB, one QP), server and client in the guest (guest test
#      rdma-perftest); and rdma-lat, one WRITE at a time per size.
#   2. one boot, timing=inline: the same latency tools with the device answering at once: what
#      the guest's own software costs (libibverbs, libirdma, the doorbell, the poll).
# Prints, per tool: the guest-measured figure, the software part and the rest (the device's
# part), the published figure with the ratio, or "none found" where no figure was found.
# Second table: rdma-lat's WRITE latency less the software part against the timing model's
# own prediction (bench-emu --latency): the glue adds no time (within 10 %).
# Speed never fails the run; a figure that is missing does (exit 1). BENCH_LOCK: a file each
# boot holds with flock (on a machine that other heavy jobs share).
#   scripts/bench-latency.sh [ITERATIONS]     rdma-lat iterations per size, default 50
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/config.sh"
iters=${1:-50}
case "$iters" in ''|*[!0-9]*|0) echo "bench-latency: ITERATIONS must be a positive integer, not '$iters'" >&2; exit 2 ;; esac
bench=$repo/build/meson/tests/bench/bench-emu
[ -x "$bench" ] || { echo "bench-latency: $bench missing (run scripts/irdma-sim test first)" >&2; exit 1; }
logs=$repo/build/logs
mkdir -p "$logs"

speed=100000          # Mb/s: the E810-CQDA2's 100 GbE port, as in the published figures
mtu=1024              # what irdma's port reports for ice's default MTU of 1500
lat_tools="ib_write_lat ib_send_lat ib_read_lat"
bw_tools="ib_write_bw ib_send_bw"
sizes="8 64 512 4096 65536 1048576"

# The published figures (docs/timing.md, "Calibration"): tool -> "figure unit|source".
# No latency figure for the E810 was found; those rows say so.
declare -A published=(
    [ib_write_bw]="49|Gb/s|one QP of ib_send_bw, E810-CQDA2, 100 GbE (Intel article 000059783)"
    [ib_send_bw]="49|Gb/s|one QP of ib_send_bw, E810-CQDA2, 100 GbE (Intel article 000059783)"
)

[ -z "${BENCH_LOCK:-}" ] || exec 9>>"$BENCH_LOCK"
guest() {   # $1: timing mode, $2: perftest tools (comma-separated); the log's path
    local log=$logs/bench-latency-$1.log
    [ -z "${BENCH_LOCK:-}" ] || flock 9
    # The harness's own verdict is not needed: a tool that failed has no figure below.
    python3 "$here/run-guest.py" --icount 0 --smp 2 --tests rdma-perftest,rdma-lat --quiet \
        --timeout 900 --test-timeout 600 --log "$log" \
        --device-props "timing=$1,speed=$speed,vcpu-turns=on" --append "t.lat_iters=$iters t.perftest=$2" \
        > /dev/null || true
    [ -z "${BENCH_LOCK:-}" ] || flock -u 9
    echo "$log"
}

# The figure perftest reported for tool $2 in log $1 (guest-tests lib.sh perftest_run): the
# median of a latency tool, the average of a bandwidth tool.
figure() {
    if [ "${2%_lat}" != "$2" ]; then
        sed -n "s/.*\[rdma-perftest\] $2 [a-z0-9]*: [0-9]* B x [0-9]*: .*, median \([0-9.]*\) .*/\1/p" "$1"
    else
        sed -n "s/.*\[rdma-perftest\] $2 [a-z0-9]*: [0-9]* B x [0-9]*: average \([0-9.]*\) .*/\1/p" "$1"
    fi | head -n 1
}

# rdma-lat's "SIZE NS" lines in log $1.
rdma_lat() {
    sed -n 's/.*\[rdma-lat\] rdma-lat write \([0-9]*\) \([0-9]*\) .*/\1 \2/p' "$1"
}

# ib_read_lat last: a tool that fails ends the guest test, and READ takes no inline data.
model_log=$(guest model ib_write_lat,ib_send_lat,ib_write_bw,ib_send_bw,ib_read_lat)
inline_log=$(guest inline ib_write_lat,ib_send_lat,ib_read_lat)
status=0

echo "perftest under -icount shift=0, one guest, 2 vCPUs, internal loopback, link" \
     "$((speed / 1000)) Gb/s, RC MTU $mtu; 1 boot per timing mode; latency: median (t_typical)"
printf '%-13s %7s %10s %10s %10s %11s %9s\n' tool size measured software device published \
    "dev/pub"
for tool in $lat_tools; do
    m=$(figure "$model_log" "$tool"); s=$(figure "$inline_log" "$tool")
    if [ -z "$m" ] || [ -z "$s" ]; then
        echo "bench-latency: no $tool figure (model '$m', inline '$s'; see the logs)" >&2
        status=1
        continue
    fi
    pub=${published[$tool]:-}
    awk -v t="$tool" -v m="$m" -v s="$s" -v pub="$pub" 'BEGIN {
        split(pub, p, "|")
        printf "%-13s %7s %7.2f us %7.2f us %7.2f us %11s %9s\n", t, "2 B", m, s, m - s,
               pub == "" ? "none found" : p[1] " " p[2], pub == "" ? "-" : sprintf("%.2f", (m - s) / p[1]) }'
done
for tool in $bw_tools; do
    m=$(figure "$model_log" "$tool")
    if [ -z "$m" ]; then
        echo "bench-latency: no $tool figure (see $model_log)" >&2
        status=1
        continue
    fi
    pub=${published[$tool]:-}
    # perftest's MB/s are 2^20 bytes per second.
    awk -v t="$tool" -v m="$m" -v pub="$pub" 'BEGIN {
        split(pub, p, "|"); g = m * 1048576 * 8 / 1e9
        printf "%-13s %7s %7.1f Gb/s %21s %11s %9s\n", t, "64 KiB", g, "", \
               pub == "" ? "none found" : p[1] " " p[2], pub == "" ? "-" : sprintf("%.2f", g / p[1]) }'
done
for tool in $lat_tools $bw_tools; do
    if [ -n "${published[$tool]:-}" ]; then
        echo "  $tool published: ${published[$tool]##*|}"
    fi
done

# The glue: rdma-lat less the software part against the model's own prediction.
declare -A pred meas soft
while read -r _ _ size ns; do pred[$size]=$ns; done < <("$bench" --latency --mtu "$mtu" \
    --speed "$speed" --sizes "$(echo "$sizes" | tr ' ' ',')" | grep '^model-latency write')
while read -r size ns; do meas[$size]=$ns; done < <(rdma_lat "$model_log")
while read -r size ns; do soft[$size]=$ns; done < <(rdma_lat "$inline_log")
echo
echo "RDMA WRITE (rdma-lat), median of $iters, against the timing model's prediction"
printf '%9s %10s %10s %10s %10s %12s\n' bytes measured software device predicted "device/pred"
for size in $sizes; do
    m=${meas[$size]:-}; s=${soft[$size]:-}; p=${pred[$size]:-}
    if [ -z "$m" ] || [ -z "$s" ] || [ -z "$p" ]; then
        echo "bench-latency: no figure for $size bytes (measured '$m', software '$s', predicted '$p')" >&2
        status=1
        continue
    fi
    awk -v n="$size" -v m="$m" -v s="$s" -v p="$p" 'BEGIN {
        r = (m - s) / p
        printf "%9d %10d %10d %10d %10d %12.3f %s\n", n, m, s, m - s, p, r,
               (r >= 0.9 && r <= 1.1) ? "within 10%" : "OUTSIDE 10%" }'
done
exit $status
