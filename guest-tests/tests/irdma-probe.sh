# irdma binds to ice's RoCE auxiliary device and brings its control plane up on the device
# (CQP create handshake, FPM query/commit, HMC SDs, CCQ, CEQs, AEQ, statistics, ARP, QP1 with
# its work-scheduler leaf and ice RDMA qset), registers irdma0 and opens its port, with no
# failure line from irdma or ib_core.
. /tests/lib.sh
irdma_up > /dev/null
ibv_devices | grep -q irdma0 || fail "libibverbs does not list irdma0"
errs=$(irdma_error_lines)
[ -z "$errs" ] || fail "irdma reported: $errs"
dmesg | grep -E "irdma|infiniband" | grep -v "Command line"
echo "irdma0 registered with port 1 active"
