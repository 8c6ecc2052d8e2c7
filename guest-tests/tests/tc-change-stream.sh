# The DCB traffic-class change with QP1 alone, then under verified RDMA traffic on 1, 8 and 64 RC QP
# pairs (rdma-stream: WRITE and SEND, every byte and completion checked, stalls after 10 s). QP1
# alone: one round of 8 changes, each suspending and resuming that one QP (and rping connects
# afterwards: its CM MADs go over QP1). For each QP pair count, 21 ETS changes cycle 1 -> 4 -> 8 ->
# 1 TCs and 5 more go into DSCP mode and back (8 channels: an 8-vCPU boot) while the traffic runs,
# each once it has gone on after the last; then rdma-stream must report 0 errors, 0 stalls, every
# pair moving, every QP still in RTS, and the device must have counted one suspend, one
# suspend-complete AE and one resume per QP per change (QP1 and the 2 x N QPs of the stream).
. /tests/lib.sh
gid=$(rdma_dev_up irdma0) || fail "irdma0 did not come up"
ifc=$(irdma_sim_netdev) || fail "no netdev on irdma-sim"
dcb_sw_mode "$ifc"
ip=$(rdma_dev_ip irdma0) || fail "no address for irdma0"
qps=$(rdma resource show qp | grep -c "lqpn")
[ "$qps" = 1 ] || fail "want QP1 alone, found $qps QPs: $(rdma resource show qp)"
before=$(suspend_counts) || fail "cannot read the suspend counts"
tc_cycle "$ifc" 1
echo "QP1 alone, $TC_CHANGES TC changes:"
expect_suspend_counts "$before" "$TC_CHANGES"
rping_start "$ip" tc-qp1
rping_goes_on_and_stop tc-qp1 "the changes with QP1 alone"
# (not "n": lib.sh's wait_for counts with it)
for pairs in 1 8 64; do
    rm -f /tmp/stream-stop
    before=$(suspend_counts) || fail "cannot read the suspend counts"
    rdma-stream irdma0 "$gid" --qps "$pairs" --until-file /tmp/stream-stop > /tmp/stream.out 2>&1 &
    pid=$!
    wait_for "grep -q '^rdma-stream: $pairs qps running' /tmp/stream.out" 30 ||
        { cat /tmp/stream.out; fail "$pairs QPs: rdma-stream never got going"; }
    qps=$(rdma resource show qp | grep -c "lqpn")
    TC_TRAFFIC=rdma-stream
    tc_cycle "$ifc" 7
    # Traffic after the last change too.
    sleep 2
    touch /tmp/stream-stop
    wait "$pid"
    rc=$?
    echo "$pairs QP pairs, $TC_CHANGES TC changes, $qps QPs suspended each time:"
    rdma_stream_result /tmp/stream.out "$pairs" "$rc"
    expect_suspend_counts "$before" $((TC_CHANGES * qps))
done
errs=$(irdma_error_lines; dmesg | grep -E "irdma|ice" | grep -iE "suspend|Failed to config TC|cqp")
[ -z "$errs" ] || fail "the drivers reported: $errs"
