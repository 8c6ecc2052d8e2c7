# irdma binds to ice's RoCE auxiliary device and starts its probe. Until the irdma control
# plane exists (the irdma control-plane issue) the device does not answer the CQP create
# handshake, so the hardware init fails with -ETIMEDOUT (-110) at init_state 0. This test
# asserts exactly that point; it moves as the RDMA engine is built.
. /tests/lib.sh
slot=$(irdma_sim_slot) || fail "no irdma-sim function"
ice_up "$slot" > /dev/null
modprobe irdma || fail "modprobe irdma failed"
wait_dmesg "irdma: probe of ice.roce.[0-9]+ failed|irdma.*: .*registered" 90 ||
    fail "irdma reported no probe outcome"
dmesg | grep -i irdma
dmesg | grep -q "ice $slot: IRDMA hardware initialization FAILED init_state=0 status=-110" ||
    fail "irdma did not stop where expected (CQP create, init_state 0, -110)"
