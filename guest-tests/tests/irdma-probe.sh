# irdma binds to ice's RoCE auxiliary device and brings up its control plane on the device:
# CQP create handshake, FPM query/commit, HMC SDs, the CCQ, CEQs, the AEQ, statistics and ARP
# entries, then registers the ib_device irdma0 (visible to libibverbs). The irdma control
# plane is being built (the irdma control-plane issue): CREATE_QP is not modelled yet, so
# ib_core's MAD layer cannot create QP1 and the port does not open. This test asserts exactly
# that point; it moves as the RDMA engine is built.
. /tests/lib.sh
slot=$(irdma_sim_slot) || fail "no irdma-sim function"
ice_up "$slot" > /dev/null
modprobe irdma || fail "modprobe irdma failed"
wait_for "[ -e /sys/class/infiniband/irdma0 ]" 60 || fail "no ib_device irdma0"
dmesg | grep -q "IRDMA hardware initialization FAILED" && fail "irdma's hardware init failed"
ibv_devices | grep -q irdma0 || fail "libibverbs does not list irdma0"
wait_dmesg "infiniband irdma0: Couldn't create ib_mad QP1" 30 ||
    fail "irdma did not stop where expected (QP1 creation)"
dmesg | grep -q "irdma0: \[Create QP Cmd Error\]\[op_code=12\] .* maj=0xffff min=0x8001" ||
    fail "QP1 did not fail on the CQP's unknown-opcode completion"
dmesg | grep -E "irdma|infiniband" | grep -v "Command line"
echo "irdma0 registered; stops at CREATE_QP for QP1, as expected now"
