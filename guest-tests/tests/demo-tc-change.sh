# The demo, step 2 (scripts/demo.py): the device's main job. Verified RC traffic (rdma-stream:
# RDMA WRITE and SEND on 8 QP pairs, every byte and completion checked) runs while a DCB change
# takes the port from 1 to 4 traffic classes (dcbnl ets). irdma suspends every QP (SUSPEND_QP;
# the device raises AE 0x0900 for each once its send queue is quiet), rebuilds its
# work-scheduler tree (WS nodes removed and added) and resumes every QP (RESUME_QP). Prints
# the device's own counts from its QEMU trace and the traffic's verdict. Checks: one
# SUSPEND_QP, one AE 0x0900 and one RESUME_QP per QP (trace and counters agree), WS nodes
# replaced, every pair moving with 0 errors and 0 payload mismatches, and no driver error.
. /tests/lib.sh
PAIRS=8
gid=$(rdma_dev_up irdma0) || fail "irdma0 did not come up"
ifc=$(irdma_sim_netdev) || fail "no netdev on irdma-sim"

# The device's trace events of a TC change, counted by the host (the boot's --trace).
trace_counts() {
    s=$(trace_count 'irdma_sim_qp_suspend qp=') || fail "no suspend count"
    a=$(trace_count 'irdma_sim_qp_ae qp=[0-9]* ae=0x900 src=[0-9]* posted') || fail "no AE count"
    d=$(trace_count 'irdma_sim_ws_delete node') || fail "no WS delete count"
    w=$(trace_count 'irdma_sim_ws_add node') || fail "no WS add count"
    r=$(trace_count 'irdma_sim_qp_resume qp=') || fail "no resume count"
    echo "$s $a $d $w $r"
}

rm -f /tmp/stream-stop
rdma-stream irdma0 "$gid" --qps "$PAIRS" --until-file /tmp/stream-stop > /tmp/stream.out 2>&1 &
pid=$!
wait_for "grep -q '^rdma-stream: $PAIRS qps running' /tmp/stream.out" 30 ||
    { cat /tmp/stream.out; fail "rdma-stream never got going"; }
qps=$(rdma resource show qp | grep -c "lqpn")
echo "traffic: rdma-stream on $PAIRS RC QP pairs (WRITE + SEND, payload checked); $qps QPs with QP1"
sleep 1
before=$(suspend_counts) || fail "cannot read the suspend counts"
tbefore=$(trace_counts) || fail "cannot count the trace's events"
host_mark tc-change-begin
dcb_change "$ifc" ets 25,25,25,25,0,0,0,0 0,1,2,3,0,1,2,3
echo "DCB: dcbnl $ifc ets: 1 -> 4 TCs, ice committed it"
# irdma resumes the QPs once ice has rebuilt the scheduler: wait for the device's last resume.
tries=0
while :; do
    now=$(suspend_counts) || fail "cannot read the suspend counts"
    set -- $before $now
    [ $(($6 - $3)) -lt "$qps" ] || break
    tries=$((tries + 1))
    [ "$tries" -lt 150 ] || fail "after 30 s the device resumed $(($6 - $3)) of $qps QPs"
    sleep 0.2
done
host_mark tc-change-end
# Traffic after the change too.
sleep 2
touch /tmp/stream-stop
wait "$pid"
rc=$?
tafter=$(trace_counts) || fail "cannot count the trace's events"
set -- $tbefore $tafter
s=$(($6 - $1)) a=$(($7 - $2)) d=$(($8 - $3)) w=$(($9 - $4)) r=$((${10} - $5))
echo "device trace: $qps QPs: $s SUSPEND_QP, $a AE 0x0900 raised, $d WS nodes removed, $w WS nodes added, $r RESUME_QP"
expect_suspend_counts "$before" "$qps"
summary=$(rdma_stream_result /tmp/stream.out "$PAIRS" "$rc") || fail "the traffic failed"
echo "$summary"
verdict=$(grep -E '^rdma-stream: [0-9]+ payload mismatches, longest wait for a completion [0-9.]+ s' \
    /tmp/stream.out) || fail "rdma-stream printed no mismatch count"
echo "$verdict"
[ "$s" = "$qps" ] && [ "$a" = "$qps" ] && [ "$r" = "$qps" ] ||
    fail "the trace has $s SUSPEND_QP, $a AE 0x0900, $r RESUME_QP for $qps QPs"
[ "$d" -gt 0 ] && [ "$w" -gt 0 ] || fail "the work-scheduler tree was not rebuilt ($d removed, $w added)"
echo "$verdict" | grep -q ' 0 payload mismatches' || fail "payload mismatches: $verdict"
errs=$(irdma_error_lines; dmesg | grep -E "irdma|ice" | grep -iE "suspend|Failed to config TC|cqp")
[ -z "$errs" ] || fail "the drivers reported: $errs"
