# Helpers shared by the guest tests (sourced). A test fails with `fail MSG`.
# shellcheck shell=sh

# On stderr too, so a failure inside $(...) or under a redirection still shows.
fail() {
    echo "FAIL: $*" >&2
    exit 1
}

# PCI address (0000:00:03.0) of the irdma-sim function, found by id in sysfs.
irdma_sim_slot() {
    for d in /sys/bus/pci/devices/*; do
        if [ "$(cat "$d/vendor")" = 0x8086 ] && [ "$(cat "$d/device")" = 0x1593 ]; then
            basename "$d"
            return 0
        fi
    done
    return 1
}

# Wait up to $2 seconds for the kernel log to match the extended regex $1.
wait_dmesg() {
    n=0
    while [ "$n" -lt "$(( $2 * 10 ))" ]; do
        dmesg | grep -Eq "$1" && return 0
        sleep 0.1
        n=$((n + 1))
    done
    return 1
}

# The device serial number QEMU derives from the MAC: mac[0..2] ff ff mac[3..5], as hex.
dsn_of_mac() {
    echo "$1" | awk -F: '{ printf "%s%s%sffff%s%s%s\n", $1, $2, $3, $4, $5, $6 }' | tr 'A-F' 'a-f'
}

# Wait up to $2 seconds for command $1 (a string for sh -c) to succeed.
wait_for() {
    n=0
    while [ "$n" -lt "$(( $2 * 10 ))" ]; do
        sh -c "$1" > /dev/null 2>&1 && return 0
        sleep 0.1
        n=$((n + 1))
    done
    return 1
}

# Name of the netdev ice created on the irdma-sim function, if any.
ice_netdev() {
    ls "/sys/bus/pci/devices/$1/net/" 2> /dev/null | head -n 1
}

# Load ice if needed and wait until it has a netdev on slot $1; prints the netdev name.
ice_up() {
    modprobe ice || fail "modprobe ice failed"
    wait_for "ls /sys/bus/pci/devices/$1/net/ | grep -q ." 60 || fail "ice created no netdev on $1"
    ice_netdev "$1"
}

# Lines ice logged for slot $1 that report a failure. The kernel's firmware loader first tries
# the optional per-device DDP name (ice-<DSN>.pkg) and says it failed: that one is expected.
ice_error_lines() {
    dmesg | grep -E "ice $1|ice:" | grep -iE "fail|error|safe mode|unable|could not|timeout" |
        grep -v "firmware: failed to load intel/ice/ddp/ice-[0-9a-f]\{16\}\.pkg (-2)"
}

# Two-guest tests (harness --peer-tests): bring the NIC up with this guest's address
# (t.ip, the peer is t.peer) and wait until the peer answers ping; prints the netdev.
pair_up() {
    [ -n "${T_ip:-}" ] && [ -n "${T_peer:-}" ] || fail "not booted as one of a pair (no t.ip/t.peer)"
    if [ "${T_nic:-irdma-sim}" = virtio ]; then
        # The comparison NIC of the benchmarks.
        modprobe virtio_pci && modprobe virtio_net || fail "modprobe virtio_pci/virtio_net failed"
        wait_for "ls /sys/class/net | grep -q '^eth'" 20 || fail "no virtio netdev"
        ifc=$(ls /sys/class/net | grep '^eth' | head -n 1)
    else
        slot=$(irdma_sim_slot) || fail "no irdma-sim function"
        ifc=$(ice_up "$slot")
    fi
    ip -4 addr show dev "$ifc" | grep -q "inet $T_ip/24" || ip addr add "$T_ip/24" dev "$ifc"
    ip link set dev "$ifc" up
    wait_for "grep -qx 1 /sys/class/net/$ifc/carrier" 20 || fail "no carrier on $ifc"
    wait_for "ping -c 1 -W 1 $T_peer" 90 || fail "peer $T_peer never answered"
    echo "$ifc"
}

# Ask the host harness and print its JSON answer, or fail after $2 seconds (default 20). The
# request is "@@HOST <id> <command>" on the console; the harness types "@@REPLY <id> <json>"
# back on it, and lines with other ids (answers nobody waited for) are skipped.
host_ask() {
    id="$$.$RANDOM"
    echo "@@HOST $id $1" > /dev/console
    while IFS= read -r -t "${2:-20}" line < /dev/console; do
        case "$line" in
            *"@@REPLY $id "*) echo "${line#*@@REPLY $id }"; return 0 ;;
        esac
    done
    fail "no answer from the host to '$1'"
}

# The value of a read-only property of the irdma-sim device, through the host's QMP.
host_device_prop() {
    host_ask "qom-get $1" | sed -n 's/.*"return": *\([0-9][0-9]*\).*/\1/p'
}

# Load irdma on top of ice and wait for irdma0's port to be active; prints the netdev.
irdma_up() {
    slot=$(irdma_sim_slot) || fail "no irdma-sim function"
    ifc=$(ice_up "$slot")
    ip link set dev "$ifc" up
    modprobe irdma || fail "modprobe irdma failed"
    wait_for "[ -e /sys/class/infiniband/irdma0/ports/1/state ]" 60 || fail "no ib_device irdma0"
    wait_for "grep -q ACTIVE /sys/class/infiniband/irdma0/ports/1/state" 30 ||
        fail "irdma0 port 1 is $(cat /sys/class/infiniband/irdma0/ports/1/state)"
    echo "$ifc"
}

# irdma / ib_core lines that report a failure.
irdma_error_lines() {
    dmesg | grep -E "irdma|infiniband" | grep -iE "fail|error|couldn't|unable|timeout"
}
