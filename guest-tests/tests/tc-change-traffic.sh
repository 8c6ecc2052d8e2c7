# The DCB traffic-class change under RDMA traffic (issue: QP suspend/resume). With ice's
# firmware LLDP agent off, 21 ETS changes cycle 1 -> 4 -> 8 -> 1 TCs (ice needs a queue per TC:
# 8 combined channels, so this boot has 8 vCPUs). Each change makes irdma suspend every QP
# (SUSPEND_QP, AE 0x900 per QP), rebuild its work-scheduler tree and resume them; rping with
# payload verification (-V) runs throughout on its two QPs. Checks: rping keeps going and
# verifies every ping, the device counted a suspend, an AE and a resume per QP per change
# (QP1 and rping's two), irdma logged no timeout or error and ice applied every TC map.
. /tests/lib.sh
rdma_dev_up irdma0 > /dev/null
ip=$(rdma_dev_ip irdma0)
ifc=$(ice_netdev "$(irdma_sim_slot)")
ethtool --set-priv-flags "$ifc" fw-lldp-agent off || fail "cannot turn the firmware LLDP agent off"
ethtool -L "$ifc" combined 8 || fail "ethtool -L combined 8 failed (vCPUs: $(nproc))"
s0=$(host_device_prop x-rdma-suspends)
a0=$(host_device_prop x-rdma-suspend-aes)
r0=$(host_device_prop x-rdma-resumes)
rping -s -a "$ip" -C 1000000 -V > /tmp/tc-rping.server 2>&1 &
srv=$!
wait_for "rdma resource show cm_id | grep -q 'state LISTEN.*$ip:7174'" 20 || fail "rping server never listened"
rping -c -a "$ip" -C 1000000 -V -v > /tmp/tc-rping.client 2>&1 &
cli=$!
wait_for "grep -q '^ping data' /tmp/tc-rping.client" 20 || fail "rping never got going"
qps=$(rdma resource show qp | grep -c "lqpn")
changes=0
ets() {
    dcb ets set dev "$ifc" willing off tc-tsa all:ets tc-bw "$@" || fail "dcb ets set $* failed"
    changes=$((changes + 1))
    sleep 0.3
}
for round in 1 2 3 4 5 6 7; do
    ets 0:25 1:25 2:25 3:25 4:0 5:0 6:0 7:0 prio-tc 0:0 1:1 2:2 3:3 4:0 5:1 6:2 7:3
    ets 0:16 1:12 2:12 3:12 4:12 5:12 6:12 7:12 prio-tc 0:0 1:1 2:2 3:3 4:4 5:5 6:6 7:7
    ets 0:100 1:0 2:0 3:0 4:0 5:0 6:0 7:0 prio-tc all:0
done
# Traffic goes on after the last change.
n=$(grep -c '^ping data' /tmp/tc-rping.client)
wait_for "[ \$(grep -c '^ping data' /tmp/tc-rping.client) -gt $((n + 20)) ]" 30 ||
    fail "rping stopped after the TC changes at $n pings"
kill -0 "$cli" 2> /dev/null || fail "rping client exited: $(tail -3 /tmp/tc-rping.client)"
kill "$cli" "$srv"
wait "$cli" "$srv" 2> /dev/null
grep -qiE "mismatch|error|fail" /tmp/tc-rping.client /tmp/tc-rping.server &&
    fail "rping reported: $(grep -iE 'mismatch|error|fail' /tmp/tc-rping.client /tmp/tc-rping.server | head -3)"
echo "$changes TC changes, $qps QPs, $(grep -c '^ping data' /tmp/tc-rping.client) verified pings"
want=$((changes * qps))
for c in "suspends $s0 x-rdma-suspends" "suspend-aes $a0 x-rdma-suspend-aes" "resumes $r0 x-rdma-resumes"; do
    set -- $c
    got=$(( $(host_device_prop "$3") - $2 ))
    echo "device $1: $got"
    [ "$got" = "$want" ] || fail "device counted $got $1, want $want ($changes changes x $qps QPs)"
done
errs=$(irdma_error_lines; dmesg | grep -E "irdma|ice" | grep -iE "suspend|Failed to config TC|cqp")
[ -z "$errs" ] || fail "the drivers reported: $errs"
