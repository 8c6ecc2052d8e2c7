# Loads the drivers the device is for (ice; irdma on top) and waits until ice's probe of every
# E810 function is over, so a boot benchmark measures probing too. Passes with or without the
# device: it asserts only that the modules load.
. /tests/lib.sh
modprobe ice || fail "modprobe ice failed"
modprobe irdma || fail "modprobe irdma failed"
lsmod | grep -q '^irdma' || fail "irdma is not loaded"
