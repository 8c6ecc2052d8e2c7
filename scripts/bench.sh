#!/usr/bin/env bash
# Every benchmark in one run, each as a ratio against its target (docs/performance.md):
#   1. the device core alone (bench-emu, release build): CQP ops/s; RDMA WRITE GB/s from 64 B
#      to 4 MiB over internal loopback against host memcpy (targets: >= 0.8 of memcpy at 64 KiB,
#      >= 4 M WRITEs/s at 64 B), and through the host's wire (target: >= 0.3 of memcpy at 64 KiB)
#   2. in one guest: perftest on irdma-sim against Soft-RoCE on virtio-net (bench-rdma.sh;
#      targets: ib_write_bw >= 30x rxe's; ib_write_lat, ib_send_lat and ib_read_lat at 2 B and
#      64 B: median <= 0.3x, average <= 0.4x, 99th percentile <= 0.5x rxe's)
#   3. under -icount: perftest's latencies and one-QP bandwidth as the guest measures them
#      against the E810's published figures (bench-latency.sh; printed ratios, no target), and
#      the WRITE latency against the timing model's own prediction (target: within 10 %)
#   4. boot to tests done with and without the device (bench-boot.sh; target: <= 1.05x)
#   5. QP suspend and resume latencies from the timing model (bench-suspend.sh)
#   6. the last `scripts/irdma-sim test` (no --matrix) on the default kernel: its wall time, as
#      that command recorded it (build/results/test-time; target: <= 240 s)
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

    echo "kernel ${IRDMA_SIM_KERNEL:-$KERNEL_DEFAULT}, $("$repo/build/qemu-system-x86_64" --version | head -n 1), $(date -u +%F)" \
        > "$out/context.txt"
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
# verdict VALUE OP TARGET: "pass" or "short".
verdict() { awk -v v="$1" -v t="$3" -v op="$2" 'BEGIN { ok = (op == "<=") ? v <= t : v >= t; print ok ? "pass" : "short" }'; }
# The ratios against rxe depend on the guest kernel's rxe as much as on the device.
echo "== summary (target, measured, pass or short): $(cat "$out/context.txt" 2> /dev/null || echo "kernel and QEMU not recorded")"
awk -F, '$1 == "cqp" { printf "1. CQP %-22s %12.0f ops/s\n", $2, $6 }' "$out/emu.csv"
core=$(awk -F, '$1 == "write" && $3 == 65536 { r[$2] = $6 }
                $1 == "write" && $2 == "emu" && $3 == 64 && $5 > 0 { ops = $4 / $5 }
                END { if (r["emu"] && r["memcpy"] && r["wire"] && ops)
                          printf "%.3f %.3f %.2f\n", r["emu"] / r["memcpy"], r["wire"] / r["memcpy"], ops / 1e6 }' \
           "$out/emu.csv")
if [ -n "$core" ]; then
    read -r emu wire mops <<< "$core"
    echo "1. WRITE 64 KiB, emu core / memcpy:  $emu; target >= 0.8: $(verdict "$emu" ">=" 0.8)"
    echo "1. WRITE 64 KiB, wire path / memcpy: $wire; target >= 0.3: $(verdict "$wire" ">=" 0.3)"
    echo "1. WRITE 64 B: $mops M ops/s; target >= 4: $(verdict "$mops" ">=" 4)"
else
    echo "1. WRITE: no figure"; status=1
fi
# rdma_figure SECTION TOOL BYTES STAT: the ratio bench-rdma.sh printed for them in SECTION
# ("one guest" or "two guests").
rdma_figure() {
    awk -v sec="$1" -v t="$2" -v b="$3" -v s="$4" '/^(one guest|two guests) / { in_sec = index($0, sec) == 1 }
        in_sec && $1 == t && $2 == b && $3 == s { print $NF }' "$out/rdma.txt"
}
bw=$(rdma_figure "one guest" ib_write_bw 65536 average)
if [ -n "$bw" ] && [ "$bw" != - ]; then
    echo "2. ib_write_bw 64 KiB irdma0/rxe0: $bw; target >= 30: $(verdict "$bw" ">=" 30)"
else
    echo "2. ib_write_bw: no figure"; status=1
fi
for t in ib_write_lat ib_send_lat ib_read_lat; do
    for b in 2 64; do
        line="2. $t $b B irdma0/rxe0:"
        for s in median:0.3 average:0.4 p99:0.5; do
            r=$(rdma_figure "one guest" "$t" "$b" "${s%:*}")
            if [ -z "$r" ] || [ "$r" = - ]; then line+=" ${s%:*} none"; status=1; continue; fi
            line+=" ${s%:*} $r (<= ${s#*:}: $(verdict "$r" "<=" "${s#*:}"))"
        done
        echo "$line"
    done
done
line="2. two guests on the wire, irdma0/rxe0:"
for f in "ib_write_bw 65536 average" "ib_write_lat 2 median" "ib_send_lat 2 median" "ib_read_lat 2 median"; do
    read -r tool bytes stat <<< "$f"
    r=$(rdma_figure "two guests" "$tool" "$bytes" "$stat")
    line+=" ${tool#ib_} ${r:-none}"
done
echo "$line (reported, no target)"
awk '/^ib_/ { printf "3. %s under -icount: %s %s; published: %s; ratio %s\n", $1, $4, $5,
              $(NF - 2) == "none" ? "none found" : $(NF - 2) " " $(NF - 1), $NF }
     $1 ~ /^[0-9]+$/ && NF >= 7 { n++; r = $6; if (n == 1 || r < lo) lo = r; if (n == 1 || r > hi) hi = r
                                   if (r < 0.9 || r > 1.1) bad++ }
     END { if (!n) { print "3. latency: no figure"; exit 1 }
           printf "3. WRITE latency (measured - software)/predicted, %d sizes: %.3f to %.3f; target within 10 %%: %s\n",
                  n, lo, hi, bad ? "short" : "pass" }' "$out/latency.txt" || status=1
boot=$(awk '/^boot to tests done/ { print $NF }' "$out/boot.txt")
if [ -n "$boot" ]; then
    echo "4. boot to tests done with/without the device: $boot; target <= 1.05: $(verdict "$boot" "<=" 1.05)"
else
    echo "4. boot: no figure"; status=1
fi
awk '/^nothing / { printf "5. suspend (SUSPEND_QP -> AE), idle QP: %d ns; resume: %d ns\n", $2, $3 }
     / B WRITE / { printf "5. suspend with a %s B WRITE in flight: %d ns\n", $1, $4 }
     /^SQD posted/ { printf "5. irdma SQD under -icount, device-measured: %d ns (mean of %d)\n", $7, $5 }' \
    "$out/suspend.txt"
# The test command's own record: "SECONDS KERNEL QEMU DATE" of its last run without --matrix.
if read -r secs kern qemu when < "$repo/build/results/test-time" 2> /dev/null; then
    echo "6. scripts/irdma-sim test, kernel $kern, QEMU $qemu ($when): $secs s; target <= 240: $(verdict "$secs" "<=" 240)"
else
    echo "6. scripts/irdma-sim test: no record in build/results/test-time (run it once)"
fi
echo "plots: $out/emu-write.svg $out/latency.svg"
exit $status
