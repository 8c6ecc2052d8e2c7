#!/usr/bin/env bash
# The QP suspend and resume latencies, from the timing model:
#   1. the device core alone (bench-emu --suspend): SUSPEND_QP posted -> its suspend-complete
#      AE on an idle QP and on one with a WRITE of 4 KiB to 1 MiB on its way, and RESUME_QP
#      posted -> the QP running again;
#   2. the real drivers under -icount (timing=auto runs the model), one vCPU: irdma's
#      modify-QP-to-SQD on an idle QP (rdma-sqd-verbs), as the device measured it on its clock
#      (QOM x-suspend-latency-*).
# The DCB traffic-class change cannot run under -icount here: ice needs a queue, so a vCPU, per
# TC, and an 8-vCPU -icount guest did not get past SeaBIOS in 280 s.
#   bench-suspend.sh
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/config.sh"
bench=$repo/build/meson/tests/bench/bench-emu
[ -x "$bench" ] || { echo "bench-suspend: $bench missing (run scripts/irdma-sim test first)" >&2; exit 1; }
log=$repo/build/logs/bench-suspend.log

echo "1. device core, timing model (bench-emu --suspend)"
printf '%-22s %12s %12s\n' "in flight" "suspend ns" "resume ns"
"$bench" --suspend --mtu 1024 --sizes 4K,64K,1M |
    awk '$1 == "model-suspend" { printf "%-22s %12d %12d\n", $3 ? $3 " B WRITE" : "nothing", $5, $7 }'

props=x-suspend-latency-count,x-suspend-latency-total-ns,x-suspend-latency-min-ns,x-suspend-latency-max-ns
out=$(python3 "$here/run-guest.py" --icount 0 --smp 1 --tests rdma-sqd-verbs,device-quiesce \
          --quiet --qom-report "$props" --log "$log") ||
    { echo "$out"; echo "bench-suspend: the guest tests failed, see $log" >&2; exit 1; }
declare -A v
while read -r _ prop val; do v[$prop]=$val; done < <(echo "$out" | grep '^qom ')
n=${v[x-suspend-latency-count]:-0}
[ "$n" -gt 0 ] || { echo "bench-suspend: the device measured no suspend ($out)" >&2; exit 1; }
echo "2. irdma SQD on an idle QP under -icount shift=0, as the device measured it"
printf '%-22s %8s %10s %10s %10s\n' "" count "min ns" "mean ns" "max ns"
printf '%-22s %8d %10d %10d %10d\n' "SQD posted -> AE" "$n" "${v[x-suspend-latency-min-ns]}" \
    $((${v[x-suspend-latency-total-ns]} / n)) "${v[x-suspend-latency-max-ns]}"
