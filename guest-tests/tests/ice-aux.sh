# With RDMA in the function capabilities and no safe mode, ice creates the auxiliary RoCE
# device irdma binds to.
. /tests/lib.sh
slot=$(irdma_sim_slot) || fail "no irdma-sim function"
ice_up "$slot" > /dev/null
aux=$(ls /sys/bus/auxiliary/devices/ | grep '^ice\.roce\.') || fail "no ice.roce.* auxiliary device"
echo "auxiliary device $aux"
readlink -f "/sys/bus/auxiliary/devices/$aux" | grep -q "$slot" || fail "$aux is not a child of $slot"
