# The DCB traffic-class change under verified RDMA traffic on 1, 8 and 64 RC QP pairs
# (rdma-stream: WRITE and SEND, every byte and completion checked, stalls after 10 s). For each
# QP count, 21 ETS changes cycle 1 -> 4 -> 8 -> 1 TCs (8 channels: an 8-vCPU boot) while the
# traffic runs; then rdma-stream must report 0 errors, 0 stalls, every pair moving, every QP
# still in RTS, and the device must have counted one suspend, one suspend-complete AE and one
# resume per QP per change (QP1 and the 2 x N QPs of the stream).
. /tests/lib.sh
gid=$(rdma_dev_up irdma0)
ifc=$(ice_netdev "$(irdma_sim_slot)")
ethtool --set-priv-flags "$ifc" fw-lldp-agent off || fail "cannot turn the firmware LLDP agent off"
ethtool -L "$ifc" combined 8 || fail "ethtool -L combined 8 failed (vCPUs: $(nproc))"
ets() {
    dcb ets set dev "$ifc" willing off tc-tsa all:ets tc-bw "$@" || fail "dcb ets set $* failed"
    changes=$((changes + 1))
    sleep 0.3
}
# (not "n": lib.sh's wait_for counts with it)
for pairs in 1 8 64; do
    rm -f /tmp/stream-stop
    s0=$(host_device_prop x-rdma-suspends)
    a0=$(host_device_prop x-rdma-suspend-aes)
    r0=$(host_device_prop x-rdma-resumes)
    rdma-stream irdma0 "$gid" --qps "$pairs" --until-file /tmp/stream-stop > /tmp/stream.out 2>&1 &
    pid=$!
    wait_for "grep -q '^rdma-stream: $pairs qps running' /tmp/stream.out" 30 ||
        { cat /tmp/stream.out; fail "$pairs QPs: rdma-stream never got going"; }
    qps=$(rdma resource show qp | grep -c "lqpn")
    changes=0
    for round in 1 2 3 4 5 6 7; do
        ets 0:25 1:25 2:25 3:25 4:0 5:0 6:0 7:0 prio-tc 0:0 1:1 2:2 3:3 4:0 5:1 6:2 7:3
        ets 0:16 1:12 2:12 3:12 4:12 5:12 6:12 7:12 prio-tc 0:0 1:1 2:2 3:3 4:4 5:5 6:6 7:7
        ets 0:100 1:0 2:0 3:0 4:0 5:0 6:0 7:0 prio-tc all:0
    done
    # Traffic after the last change too.
    sleep 2
    touch /tmp/stream-stop
    wait "$pid"
    rc=$?
    echo "$pairs QP pairs, $changes TC changes, $qps QPs suspended each time:"
    rdma_stream_result /tmp/stream.out "$pairs" "$rc"
    want=$((changes * qps))
    for c in "suspends $s0 x-rdma-suspends" "suspend-aes $a0 x-rdma-suspend-aes" "resumes $r0 x-rdma-resumes"; do
        set -- $c
        got=$(( $(host_device_prop "$3") - $2 ))
        [ "$got" = "$want" ] || fail "$pairs QP pairs: device counted $got $1, want $want ($changes x $qps)"
    done
    echo "device: $want suspends, suspend-complete AEs and resumes"
done
errs=$(irdma_error_lines; dmesg | grep -E "irdma|ice" | grep -iE "suspend|Failed to config TC|cqp")
[ -z "$errs" ] || fail "the drivers reported: $errs"
