#!/usr/bin/env bash
# Every benchmark in one run, each as a ratio against its target (docs/performance.md):
#   1. the device core alone (bench-emu, release build): CQP ops/s; RDMA WRITE GB/s from 64 B
#      to 4 MiB over internal loopback against host memcpy (target: >= 50 % of memcpy from
#      64 KiB on), and through the host's wire
#   2. in one guest: perftest on irdma-sim against Soft-RoCE on virtio-net (bench-rdma.sh;
#      target: ib_write_bw >= 5x rxe's)
#   3. under -icount: perftest's latencies and one-QP bandwidth as the guest measures them
#      against the E810's published figures (bench-latency.sh; printed ratios, no target), and
#      the WRITE latency against the timing model's own prediction (target: within 10 %)
#   4. boot to tests done with and without the device (bench-boot.sh; target: <= 1.15x)
#   5. QP suspend and resume latencies from the timing model (bench-suspend.sh)
# Writes build/bench/: each benchmark's output, emu.csv, latency.txt, and the plots
# emu-write.svg and latency.svg (gnuplot). Speed never fails the run; a benchmark that
# produced no figure does (exit 1).
#   scripts/bench.sh [BOOT_RUNS]     BOOT_RUNS: boots per configuration (default 3)
#   scripts/bench.sh --report        only the plots and the summary, from build/bench/
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/config.sh"
out=$repo/build/bench
mkdir -p "$out"
command -v gnuplot > /dev/null || bash "$here/setup-host.sh"
status=0

run_benchmarks() {
    local runs=$1
    [ -x "$repo/build/qemu-system-x86_64" ] &&
        [ -e "$repo/build/guest/$(python3 "$here/kernel.py" slug)/initramfs.cpio.gz" ] ||
        { echo "bench: build first (scripts/irdma-sim test)" >&2; exit 1; }

    echo "== 1. device core (bench-emu, release build)"
    rel=$repo/build/bench-release
    [ -e "$rel/build.ninja" ] || meson setup "$rel" "$repo" -Dbuildtype=release > /dev/null
    ninja -C "$rel" tests/bench/bench-emu > /dev/null
    "$rel/tests/bench/bench-emu" --csv | tee "$out/emu.csv"

    echo "== 2. in one guest: irdma-sim against rxe (bench-rdma.sh)"
    bash "$here/bench-rdma.sh" | tee "$out/rdma.txt" || status=1

    echo "== 3. under -icount: guest-measured figures against the published ones (bench-latency.sh)"
    bash "$here/bench-latency.sh" | tee "$out/latency.txt" || status=1

    echo "== 4. boot with and without the device (bench-boot.sh $runs)"
    bash "$here/bench-boot.sh" "$runs" | tee "$out/boot.txt" || status=1

    echo "== 5. QP suspend and resume latency (bench-suspend.sh)"
    bash "$here/bench-suspend.sh" | tee "$out/suspend.txt" || status=1
}

if [ "${1:-}" != --report ]; then
    runs=${1:-3}
    case "$runs" in ''|*[!0-9]*|0) echo "bench: BOOT_RUNS must be a positive integer, not '$runs'" >&2; exit 2 ;; esac
    run_benchmarks "$runs"
fi

# --- the plots ---
awk -F, '$1 == "write" { print $3, $2, $6 }' "$out/emu.csv" |
    awk '{ v[$1 " " $2] = $3; s[$1] = 1 } END { for (k in s) print k, v[k " emu"], v[k " memcpy"], v[k " wire"] }' |
    sort -n > "$out/emu-write.dat"
awk '$1 ~ /^[0-9]+$/ && NF >= 7 { print $1, $4, $5 }' "$out/latency.txt" > "$out/latency.dat"
gnuplot <<GP
set terminal svg size 720,420 dynamic font "sans,11"
set output "$out/emu-write.svg"
set title "Device core: RDMA WRITE through the emu core vs host memcpy"
set logscale xy; set xlabel "message bytes"; set ylabel "GB/s"; set key left top; set grid
plot "$out/emu-write.dat" using 1:2 with linespoints title "emu WRITE (internal loopback)", \
     "$out/emu-write.dat" using 1:3 with linespoints title "memcpy", \
     "$out/emu-write.dat" using 1:4 with linespoints title "emu WRITE through the host's wire"
set output "$out/latency.svg"
set title "WRITE latency under -icount: guest-measured (less software) vs model"
set ylabel "ns"
plot "$out/latency.dat" using 1:2 with linespoints title "guest-measured - software", \
     "$out/latency.dat" using 1:3 with points pointsize 1.5 title "model prediction"
GP

# --- every ratio against its target ---
echo "== summary"
awk -F, '$1 == "write" && $2 == "emu" && $3 >= 65536 { e[$3] = $6 }
         $1 == "write" && $2 == "memcpy" && $3 >= 65536 { m[$3] = $6 }
         $1 == "cqp" { printf "1. CQP %-22s %12.0f ops/s\n", $2, $6 }
         END { low = -1; for (k in e) { r = e[k] / m[k]; if (low < 0 || r < low) { low = r; at = k } }
               if (low < 0) { print "1. WRITE: no figure"; exit 1 }
               printf "1. WRITE emu/memcpy from 64 KiB: lowest %.3f (at %d B); target >= 0.5: %s\n",
                      low, at, (low >= 0.5) ? "met" : "NOT met" }' "$out/emu.csv" || status=1
awk '/^ib_write_bw/ { printf "2. ib_write_bw irdma0/rxe0: %s; target >= 5: %s\n", $NF, ($NF + 0 >= 5) ? "met" : "NOT met" }
     /^ib_(write|send)_lat/ { printf "2. %s irdma0/rxe0: %s (lower is faster)\n", $1, $NF }' "$out/rdma.txt"
awk '/^ib_/ { printf "3. %s under -icount: %s %s; published: %s; ratio %s\n", $1, $4, $5,
              $(NF - 2) == "none" ? "none found" : $(NF - 2) " " $(NF - 1), $NF }
     $1 ~ /^[0-9]+$/ && NF >= 7 { n++; r = $6; if (n == 1 || r < lo) lo = r; if (n == 1 || r > hi) hi = r
                                   if (r < 0.9 || r > 1.1) bad++ }
     END { if (!n) { print "3. latency: no figure"; exit 1 }
           printf "3. WRITE latency (measured - software)/predicted, %d sizes: %.3f to %.3f; target within 10 %%: %s\n",
                  n, lo, hi, bad ? "NOT met" : "met" }' "$out/latency.txt" || status=1
awk '/^boot to tests done/ { printf "4. boot to tests done with/without the device: %s; target <= 1.15: %s\n", $NF, ($NF + 0 <= 1.15) ? "met" : "NOT met" }' "$out/boot.txt"
awk '/^nothing / { printf "5. suspend (SUSPEND_QP -> AE), idle QP: %d ns; resume: %d ns\n", $2, $3 }
     / B WRITE / { printf "5. suspend with a %s B WRITE in flight: %d ns\n", $1, $4 }
     /^SQD posted/ { printf "5. irdma SQD under -icount, device-measured: %d ns (mean of %d)\n", $7, $5 }' \
    "$out/suspend.txt"
echo "plots: $out/emu-write.svg $out/latency.svg"
exit $status
